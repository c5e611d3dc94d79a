import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { PAGE_TEXT } from '../../../shared/i18n/messages'
import { decodeEntities } from '../../helpers/html'

interface Doc {
  sku: string
  category_ids: number[]
  status: number
  visibility: number
}

async function home(path = '/', init?: RequestInit): Promise<string> {
  const res = await SELF.fetch(`https://shop.test${path}`, init)
  expect(res.status).toBe(200)
  return res.text()
}

/** The tile skus inside the home section of a curated category. */
function sectionSkus(html: string, categoryId: number): string[] {
  const start = html.indexOf(`data-category-id="${categoryId}"`)
  if (start < 0) return []
  const end = html.indexOf('</section>', html.indexOf('</ul>', start))
  return [...html.slice(start, end).matchAll(/<article class="tile" data-sku="([^"]+)"/g)].map(
    (m) => m[1] ?? '',
  )
}

describe('home page', () => {
  it('shows the curated sections for categories 189 and 190 with their products', async () => {
    const html = await home()
    const rows = await env.DB.prepare(
      'SELECT doc FROM products WHERE status IN (0,1) AND visibility IN (2,3,4)',
    ).all<{
      doc: string
    }>()
    const docs = rows.results.map((r) => JSON.parse(r.doc) as Doc)
    for (const [id, name] of [
      [189, 'Performance Fabrics'],
      [190, 'Tees'],
    ] as const) {
      expect(html).toContain(`data-category-id="${id}"`)
      expect(decodeEntities(html)).toContain(`>${name}</h2>`)
      const skus = sectionSkus(html, id)
      expect(skus.length).toBeGreaterThan(0)
      for (const sku of skus) {
        expect(docs.find((d) => d.sku === sku)?.category_ids).toContain(id)
      }
    }
  })

  it('renders the head image, strip, four-up rails that never move by themselves, newsletter and popups', async () => {
    const html = await home()
    expect(html).toContain('data-testid="home-hero"')
    expect(html).toContain('data-testid="home-strip"')
    const carousels = [
      ...html.matchAll(/data-carousel="" data-per-page="(\d+)" data-speed="500" data-autoplay="(\d+)"/g),
    ]
    expect(carousels.length).toBeGreaterThan(1)
    // Product rails: four a page; the hero: one banner. None plays by itself.
    expect(carousels.map((m) => m[1])).toContain('4')
    expect(new Set(carousels.map((m) => m[1]))).toEqual(new Set(['1', '4']))
    expect(carousels.map((m) => m[2]).every((ms) => ms === '0')).toBe(true)
    expect(html).toContain('data-newsletter=""')
    expect(html).toContain('data-popup="exit_popup"')
    expect(html).toContain('data-popup="generic_popup"')
    expect(html).not.toContain('data-notice=')
  })

  it('shows the head image and the main banners as one hero carousel: first image eager, the others lazy', async () => {
    const html = decodeEntities(await home())
    const hero = html.match(/<section class="carousel hero"[\s\S]*?<\/section>/)?.[0] ?? ''
    expect(hero).not.toBe('')
    // One hero on the page: no second banner block above or below it.
    expect(html.split('data-testid="home-hero"').length).toBe(2)
    const data = (
      (await (await SELF.fetch('https://shop.test/api/home/data')).json()) as {
        result: { head_image: { title: string }; banners: { main: { title: string }[] } }
      }
    ).result
    const slides = [...hero.matchAll(/data-testid="hero-slide"[\s\S]*?<img ([^>]*)>/g)].map((m) => m[1] ?? '')
    // The head image first, then the main banners, in their order, each named by its title once:
    // the picture's alt text is empty, since the title beside it already names the link.
    expect(slides.map((img) => img.match(/alt="([^"]*)"/)?.[1])).toEqual(slides.map(() => ''))
    expect([...hero.matchAll(/<span class="banner__title">([^<]*)<\/span>/g)].map((m) => m[1])).toEqual([
      data.head_image.title,
      ...data.banners.main.map((b) => b.title),
    ])
    expect(slides[0]).toContain('loading="eager"')
    // HTML attribute names are case-insensitive (React writes fetchPriority).
    expect(slides[0]?.toLowerCase()).toContain('fetchpriority="high"')
    for (const img of slides.slice(1)) {
      expect(img).toContain('loading="lazy"')
      expect(img.toLowerCase()).not.toContain('fetchpriority')
    }
    // Named controls: previous, next and one dot per slide, the first marked current.
    expect(hero).toContain('aria-label="Previous slide"')
    expect(hero).toContain('aria-label="Next slide"')
    const dots = [...hero.matchAll(/<button[^>]*data-carousel-dot="(\d+)"[^>]*>/g)]
    expect(dots.map((d) => d[1])).toEqual(slides.map((_, i) => String(i)))
    expect(dots[0]?.[0]).toContain('aria-current="true"')
    expect(dots[0]?.[0]).toContain(`aria-label="Slide 1 of ${slides.length}: ${data.head_image.title}"`)
  })

  it('carries the spec notice after a redirect from an unknown category', async () => {
    const redirect = await SELF.fetch('https://shop.test/c/nope', { redirect: 'manual' })
    const location = redirect.headers.get('location') ?? ''
    const html = await home(location)
    expect(decodeEntities(html)).toContain(`data-notice="${PAGE_TEXT.offlineRedirectHome}"`)
  })

  it('puts the menu in the header: include_in_menu with products or children, by mp_new_attribute', async () => {
    const html = decodeEntities(await home())
    const nav = html.match(/<nav class="header__nav"[\s\S]*?<\/nav>/)?.[0] ?? ''
    const names = [...nav.matchAll(/class="header__nav-link">([^<]+)</g)].map((m) => m[1])
    // Seed menu orders: New In 0, Women 1, Men 2, Tees 3, Accessories 4, Performance Fabrics 5, Sale 6;
    // Gifts has none (100000); Bridal Edit is empty and Archive is not in the menu.
    expect(names.slice(0, 7)).toEqual([
      'New In',
      'Women',
      'Men',
      'Tees',
      'Accessories',
      'Performance Fabrics',
      'Sale',
    ])
    expect(names).not.toContain('Bridal Edit')
    expect(names).not.toContain('Archive')
  })

  it('hides international products and shows converted prices in USD', async () => {
    const html = await home('/', { headers: { cookie: 'currency=USD' } })
    expect(html).toMatch(/class="price[^"]*">\$/)
    expect(html).not.toMatch(/class="price[^"]*">₹/)
  })
})
