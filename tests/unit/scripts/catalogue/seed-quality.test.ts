// What a shopper reads in the demo catalogue must hold together: unique names that do not promise
// a colour the product lacks, options that fit the garment, fabric, care and a size chart on every
// garment, several image views, real editorial text and believable stores and reviews.
import { describe, expect, it } from 'vitest'
import { generateCatalogue } from '../../../../scripts/catalogue/seed/generate'
import { SUPPORT_EMAIL, SUPPORT_PHONE } from '../../../../shared/config/content'
import type { Product } from '../../../../shared/schemas/catalog'
import { COLORS } from '../../../../worker/pages/images/palette'

const cat = generateCatalogue()
const listed = cat.products

/** Words that name a colour, with the palette colours each may describe. */
const COLOUR_WORDS: Record<string, string[]> = {
  ...Object.fromEntries(COLORS.map((c) => [c.label.toLowerCase(), [c.slug]])),
  ivory: ['ivory', 'white', 'beige'],
  ruby: ['red', 'maroon', 'wine'],
  crimson: ['red', 'maroon'],
  scarlet: ['red'],
  emerald: ['green', 'teal'],
  saffron: ['orange', 'mustard'],
  kesar: ['orange', 'mustard'],
  marigold: ['orange', 'mustard', 'gold'],
  indigo: ['navy', 'blue'],
  midnight: ['navy', 'black'],
  rose: ['pink', 'fuchsia'],
  peacock: ['teal', 'blue'],
  mehendi: ['green'],
  turquoise: ['teal', 'blue'],
  lavender: ['purple'],
  cream: ['ivory', 'beige'],
}

const slugOf = new Map(COLORS.map((c) => [c.id, c.slug]))

/** The colours a shopper can buy the product in. */
function coloursOf(p: Product): string[] {
  if (p.type_id === 'configurable')
    return p.configurable_children.map((c) => slugOf.get(Number(c.color)) ?? '').filter(Boolean)
  return p.color != null ? [slugOf.get(p.color) ?? ''] : []
}

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()

describe('demo catalogue: products', () => {
  it('gives every product its own name, at the default and at a large scale', () => {
    for (const c of [cat, generateCatalogue({ scale: 3000 })]) {
      const seen = new Map<string, string>()
      for (const p of c.products) {
        expect(seen.get(p.name), `${p.sku} and ${seen.get(p.name)} are both "${p.name}"`).toBeUndefined()
        seen.set(p.name, p.sku)
      }
    }
  })

  it('names a colour only when the product comes in it', () => {
    for (const p of listed) {
      const colours = coloursOf(p)
      for (const word of p.name.toLowerCase().split(/[^a-z]+/)) {
        const allowed = COLOUR_WORDS[word]
        if (!allowed) continue
        expect(
          allowed.some((a) => colours.includes(a)),
          `"${p.name}" (${p.sku}) comes in ${colours.join(', ')}`,
        ).toBe(true)
      }
    }
  })

  it('offers blouse stitching only on sarees, lehengas and blouses', () => {
    const stitched = listed.filter((p) => p.custom_options.some((o) => /stitch/i.test(o.title)))
    expect(stitched.length).toBeGreaterThan(0)
    for (const p of stitched) {
      const garment = p.category.map((c) => c.slug).join(' ') + p.name.toLowerCase()
      expect(garment, `${p.sku} "${p.name}"`).toMatch(/saree|lehenga|blouse/)
    }
    // Every garment with custom options still has one the shopper must choose or may add.
    expect(listed.filter((p) => p.custom_options.length > 0).length).toBeGreaterThan(stitched.length)
  })

  it('sells gift cards, services and downloads without a designer', () => {
    const gifts = listed.filter((p) => p.type_id === 'virtual' || p.type_id === 'downloadable')
    expect(gifts.some((p) => /gift card/i.test(p.name))).toBe(true)
    for (const p of gifts) {
      expect(p.designer, p.name).toBeNull()
      expect(p.designer_name, p.name).toBeNull()
    }
  })

  it('gives every garment its fabric, care and a size chart with measurements for its sizes', () => {
    const guides = new Map(
      cat.sizeGuides.map((g) => [g.code, g.doc as { columns: string[]; rows: string[][] }]),
    )
    const sizeLabel = new Map(
      cat.attributes.find((a) => a.attribute_code === 'size')?.options.map((o) => [Number(o.value), o.label]),
    )
    const garments = listed.filter((p) => p.type_id === 'configurable')
    const charts = new Set<string>()
    for (const p of garments) {
      const doc = p as Product & { fabric?: string; care?: string; size_guide?: string }
      expect(doc.fabric, p.sku).toMatch(/\w{3,}/)
      expect(doc.care, p.sku).toMatch(/wash|clean/i)
      expect(text(p.description ?? '')).toContain(doc.fabric as string)
      const guide = guides.get(doc.size_guide ?? '')
      expect(guide, `${p.sku} size guide ${doc.size_guide}`).toBeDefined()
      if (!guide) continue
      charts.add(JSON.stringify(guide.columns))
      expect(guide.columns.length).toBeGreaterThanOrEqual(3)
      for (const row of guide.rows) {
        expect(row.length).toBe(guide.columns.length)
        for (const cell of row.slice(1))
          expect(cell, `${doc.size_guide} ${row[0]}`).toMatch(/^\d+(\.\d)? \(\d+ cm\)$/)
      }
      const labels = guide.rows.map((r) => r[0])
      for (const s of p.size_options ?? []) {
        const label = sizeLabel.get(s)
        if (label !== 'Free Size') expect(labels, `${p.sku} size ${label}`).toContain(label)
      }
    }
    // Garment types are measured differently (a kurta is not a sherwani).
    expect(charts.size).toBeGreaterThanOrEqual(6)
  })

  it('shows every product in at least three distinct views, the second one on hover', () => {
    for (const p of listed) {
      const images = new Set(p.media_gallery.map((m) => m.image))
      const views = new Set([...images].map((i) => /-([bdf])\.svg$/.exec(i)?.[1] ?? 'front'))
      expect(views.size, `${p.sku} ${[...images].join(' ')}`).toBeGreaterThanOrEqual(3)
      expect(p.hover_image, p.sku).toBe(p.media_gallery[1]?.image)
      expect(p.hover_image).not.toBe(p.image)
    }
  })

  it('draws each variant in its own colour', () => {
    for (const p of listed.filter((x) => x.type_id === 'configurable')) {
      for (const child of p.configurable_children) {
        expect(child.image, child.sku).toContain(`-${slugOf.get(Number(child.color))}`)
        expect(p.media_gallery.map((m) => m.image)).toContain(child.image)
      }
    }
  })

  it('describes garments in more than one template, at length', () => {
    const garments = listed.filter((p) => p.type_id === 'configurable')
    // The first sentence with the product's own words taken out is the template it came from.
    const templates = new Set(
      garments.map((p) => {
        const words = [p.designer_name ?? '', ...p.name.split(' ')].filter((w) => w.length > 2)
        let first = text(p.description ?? '').split('. ')[0] ?? ''
        for (const w of words) first = first.split(w).join('').split(w.toLowerCase()).join('')
        return first
      }),
    )
    expect(templates.size).toBeGreaterThanOrEqual(15)
    for (const p of garments) expect(text(p.description ?? '').length, p.sku).toBeGreaterThan(250)
  })
})

describe('demo catalogue: reviews', () => {
  it('rates in stars with varied text, and the products carry their approved average', () => {
    const stars = cat.reviews.map((r) => (r.ratings as Array<{ value: number }>)[0]?.value ?? 0)
    for (const s of stars) expect(s).toBeGreaterThanOrEqual(1)
    for (const s of stars) expect(s).toBeLessThanOrEqual(5)
    expect(new Set(stars).size).toBeGreaterThanOrEqual(3)
    const details = cat.reviews.map((r) => r.detail)
    expect(new Set(details).size).toBeGreaterThan(details.length / 3)
    for (const p of listed) {
      const approved = cat.reviews.filter((r) => r.product_id === p.id && r.review_status === 1)
      const doc = p as Product & { rating_summary?: number | null; review_count?: number }
      expect(doc.review_count, p.sku).toBe(approved.length)
      if (approved.length === 0) {
        expect(doc.rating_summary ?? null).toBeNull()
        continue
      }
      const avg =
        approved.reduce((s, r) => s + ((r.ratings as Array<{ value: number }>)[0]?.value ?? 0), 0) /
        approved.length
      expect(doc.rating_summary).toBeCloseTo(avg, 1)
    }
  })
})

describe('demo catalogue: content and stores', () => {
  const editorial = [
    'about-us',
    'magazine',
    'press',
    'covers',
    'past-collections',
    'about-us-author',
    'stockists',
    'contact',
    'ode-to-handloom',
    'ode-to-chikankari',
    'ode-to-banaras',
  ]

  it('has real text on every editorial page, none of it a shared template sentence', () => {
    const sentencesByPage = new Map<string, Set<string>>()
    for (const id of editorial) {
      const page = cat.cmsPages.find((p) => p.identifier === id)
      expect(page, id).toBeDefined()
      const body = text(page?.content ?? '')
      expect(body.length, `${id}: ${body}`).toBeGreaterThanOrEqual(400)
      sentencesByPage.set(id, new Set(body.split(/(?<=[.!?])\s+/).filter((s) => s.length > 30)))
    }
    const owners = new Map<string, string>()
    for (const [id, sentences] of sentencesByPage) {
      for (const s of sentences) {
        expect(owners.get(s), `"${s}" is on ${id} and ${owners.get(s)}`).toBeUndefined()
        owners.set(s, id)
      }
    }
  })

  it('introduces every category in its own words, not a template around its name', () => {
    const shown = cat.categories.filter((c) => c.id !== 2 && c.is_active)
    const templates = new Set(
      shown.map((c) =>
        text(c.description ?? '')
          .toLowerCase()
          .split(c.name.toLowerCase())
          .join(''),
      ),
    )
    expect(templates.size).toBe(shown.length)
  })

  it('gives Contact and the common config the one support e-mail and phone', () => {
    const contact = cat.cmsPages.find((p) => p.identifier === 'contact')?.content ?? ''
    expect(contact).toContain(SUPPORT_EMAIL)
    expect(contact).toContain(SUPPORT_PHONE)
    expect(contact).not.toMatch(/stories of Indian craft/)
    const config = cat.content['common-config'] as { support_email: string; support_phone: string }
    expect(config.support_email).toBe(SUPPORT_EMAIL)
    expect(config.support_phone).toBe(SUPPORT_PHONE)
    const block = cat.cmsBlocks.find((b) => b.identifier === 'contact-details')?.content ?? ''
    expect(block).toContain(SUPPORT_EMAIL)
    expect(block).toContain(SUPPORT_PHONE)
    expect(JSON.stringify(cat)).not.toMatch(/@example\.com/)
  })

  it('lists stores with full addresses, their own phone and e-mail, hours and a map image', () => {
    expect(cat.stores.length).toBeGreaterThanOrEqual(4)
    const phones = new Set<string>()
    for (const s of cat.stores) {
      expect(s.email, s.code).toMatch(/^[a-z]+@[a-z-]+\.[a-z]+$/)
      expect(s.email).not.toMatch(/example\.com/)
      expect(s.address.join(', '), s.code).toMatch(/\b\d{6}\b/)
      expect(s.phone, s.code).toMatch(/^\+91 \d{2,3} \d{3,4} \d{4}$/)
      phones.add(s.phone as string)
      expect(s.hours.length, s.code).toBeGreaterThan(0)
      expect(s.hours.join(' ')).toMatch(/\d{2}:\d{2}/)
      expect((s as { map_image?: string }).map_image, s.code).toMatch(/^\/b\/map-[a-z-]+\.svg$/)
    }
    expect(phones.size).toBe(cat.stores.length)
  })
})
