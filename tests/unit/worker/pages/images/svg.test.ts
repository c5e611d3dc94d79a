// The generated images: every image the demo catalogue names renders at every catalogue image size,
// every garment in every colour, textile and view renders, small enough for a listing, and the same
// bytes every time.
import { describe, expect, it } from 'vitest'
import { generateCatalogue } from '../../../../../scripts/catalogue/seed/generate'
import { IMAGE_SIZES } from '../../../../../shared/config/images'
import { COLORS, SILHOUETTES, TEXTILES, VIEW_SUFFIX } from '../../../../../worker/pages/images/palette'
import { renderImage } from '../../../../../worker/pages/images/svg'

const cat = generateCatalogue()

function cataloguePaths(): Set<string> {
  const paths = new Set<string>()
  const add = (v: unknown) => {
    if (typeof v === 'string' && v.startsWith('/')) paths.add(v)
  }
  for (const p of cat.products) {
    for (const v of [p.image, p.hover_image, p.thumbnail, p.small_image, p.product_banner, p.celeb_image])
      add(v)
    for (const m of p.media_gallery) add(m.image)
    for (const ch of p.configurable_children) add(ch.image)
  }
  for (const c of cat.categories)
    for (const v of [c.category_banner, c.custom_image, c.mobile_image, c.desktop_image]) add(v)
  for (const s of cat.stores) {
    add(s.image)
    add((s as { map_image?: string }).map_image)
  }
  const text = JSON.stringify([cat.content, cat.cmsPages, cat.searchContent])
  for (const m of text.matchAll(/(\/[bp]\/[a-z0-9-]+\.svg)/g)) add(m[1])
  return paths
}

const wellFormed = (svg: string, width: number, height: number) => {
  expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true)
  expect(svg.endsWith('</svg>')).toBe(true)
  expect(svg).toContain(`width="${width}" height="${height}"`)
  // Balanced elements: every opened non-self-closed tag is closed.
  const opened = (svg.match(/<[a-zA-Z][^>]*[^/]>/g) ?? []).length
  const closed = (svg.match(/<\/[a-zA-Z]+>/g) ?? []).length
  expect(opened).toBe(closed)
  expect(svg).not.toMatch(/NaN|undefined|Infinity/)
}

describe('generated catalogue images', () => {
  it('renders every image the demo catalogue names at every catalogue size', () => {
    const paths = cataloguePaths()
    expect(paths.size).toBeGreaterThan(100)
    for (const path of paths) {
      for (const { width, height } of Object.values(IMAGE_SIZES)) {
        const svg = renderImage(path, width, height)
        expect(svg, `${path} at ${width}x${height}`).not.toBeNull()
        wellFormed(svg as string, width, height)
      }
    }
  })

  it('draws every garment in every colour, textile and view, each view a different picture', () => {
    const { width, height } = IMAGE_SIZES.listing
    for (const sil of SILHOUETTES) {
      for (const colour of COLORS) {
        for (const textile of TEXTILES) {
          const seen = new Set<string>()
          for (const suffix of Object.values(VIEW_SUFFIX)) {
            const path = `/p/${sil}-${colour.slug}${textile === 'plain' ? '' : `-${textile}`}${suffix ? `-${suffix}` : ''}.svg`
            const svg = renderImage(path, width, height)
            expect(svg, path).not.toBeNull()
            expect(svg, path).toContain(colour.hex)
            seen.add(svg as string)
          }
          expect(seen.size, `${sil} ${colour.slug} ${textile}`).toBe(Object.keys(VIEW_SUFFIX).length)
        }
      }
    }
  })

  it('draws each textile differently', () => {
    const pictures = new Set(TEXTILES.map((t) => renderImage(`/p/kurta-teal-${t}.svg`, 600, 744) ?? ''))
    // 'plain' is also the default, so '/p/kurta-teal-plain.svg' is not a path: compare the rest.
    expect(renderImage('/p/kurta-teal-plain.svg', 600, 744)).toBeNull()
    expect(pictures.size).toBe(TEXTILES.length)
  })

  it('keeps tile and listing images small, and renders the same bytes every time', () => {
    let largest = 0
    for (const path of cataloguePaths()) {
      for (const size of [IMAGE_SIZES.tile, IMAGE_SIZES.listing]) {
        const svg = renderImage(path, size.width, size.height) as string
        const bytes = new TextEncoder().encode(svg).length
        largest = Math.max(largest, bytes)
        if (path.startsWith('/p/')) expect(bytes, path).toBeLessThan(8 * 1024)
        else expect(bytes, path).toBeLessThan(12 * 1024)
        expect(renderImage(path, size.width, size.height)).toBe(svg)
      }
    }
    expect(largest).toBeGreaterThan(0)
  })

  it('names no image it cannot draw and refuses paths that are not in the scheme', () => {
    for (const bad of [
      '/p/kurta-plaid.svg',
      '/p/robot-red.svg',
      '/p/kurta-red-b-zari.svg',
      '/p/kurta-red-zari-zari.svg',
      '/p/kurta-red-x.svg',
      '/p/kurta-red-.svg',
      '/p/kurta-red-zari-b-d.svg',
      '/b/evil-x.svg',
      '/b/map-.svg',
      '/b/cat-<script>.svg',
    ]) {
      expect(renderImage(bad, 600, 744), bad).toBeNull()
    }
  })

  it('draws a store map with the store area named and the pin in the middle', () => {
    const svg = renderImage('/b/map-mumbai-colaba.svg', 400, 600) as string
    expect(svg).toContain('COLABA')
    expect(svg).toContain('MUMBAI')
    expect(renderImage('/b/map-jaipur-c-scheme.svg', 400, 600)).not.toBe(svg)
  })
})
