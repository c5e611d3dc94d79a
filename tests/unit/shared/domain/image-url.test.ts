import { describe, expect, it } from 'vitest'
import { imageUrl, isPlaceholderImage } from '../../../../shared/domain/image-url'
import { renderImage } from '../../../../worker/pages/images/svg'

/** Splits '/img/{w}/{h}{path}' into its parts (null for anything else). */
function parseImageRoute(url: string): { width: number; height: number; path: string } | null {
  const m = /^\/img\/(\d+)\/(\d+)(\/.*)$/.exec(url)
  return m ? { width: Number(m[1]), height: Number(m[2]), path: m[3] as string } : null
}

describe('imageUrl: a catalogue image path at a size from the list', () => {
  it.each([
    ['a product image', '/p/kurta-red.svg', 310, 300, '/img/310/300/p/kurta-red.svg'],
    ['a banner', '/b/cat-sarees.svg', 600, 744, '/img/600/744/b/cat-sarees.svg'],
    ['a path without its leading slash', 'p/kurta-red.svg', 150, 150, '/img/150/150/p/kurta-red.svg'],
    ['surrounding whitespace', '  /p/kurta-red.svg \n', 150, 150, '/img/150/150/p/kurta-red.svg'],
    ['fractional sizes rounded', '/p/kurta-red.svg', 280.4, 418.6, '/img/280/419/p/kurta-red.svg'],
  ])('%s', (_name, path, width, height, expected) => {
    expect(imageUrl(path, width, height)).toBe(expected)
  })

  it.each([
    ['http', 'http://cdn.example.com/a.jpg'],
    ['https', 'https://cdn.example.com/a.jpg'],
    ['upper-case scheme', 'HTTPS://cdn.example.com/a.jpg'],
  ])('returns an absolute %s URL unchanged', (_name, url) => {
    expect(imageUrl(url, 310, 300)).toBe(url)
    expect(imageUrl(`  ${url} `, 310, 300)).toBe(url)
  })

  it.each([
    ['a relative path that merely contains a URL', 'p/https://cdn.example.com/a.jpg'],
    ['a protocol-relative URL', '//cdn.example.com/a.jpg'],
    ['another scheme', 'ftp://cdn.example.com/a.jpg'],
  ])('routes %s through the image route (never an off-site URL)', (_name, path) => {
    const route = parseImageRoute(imageUrl(path, 310, 300))
    expect(route).not.toBeNull()
    expect(route?.path.startsWith('/')).toBe(true)
  })

  it.each([
    ['null', null],
    ['undefined', undefined],
    ['empty', ''],
    ['blank', '   '],
    ["Magento's no_selection marker", 'no_selection'],
    ['a path containing no_selection', '/p/no_selection/kurta.svg'],
  ])('%s gives the placeholder, which the image route renders at that size', (_name, path) => {
    expect(isPlaceholderImage(path)).toBe(true)
    const route = parseImageRoute(imageUrl(path, 310, 300))
    expect(route).toMatchObject({ width: 310, height: 300 })
    const svg = renderImage(route?.path ?? '', 310, 300)
    expect(svg).toContain('<svg')
    expect(svg).toContain('width="310"')
  })

  it.each(['/p/kurta-red.svg', ' /p/kurta-red.svg', 'https://cdn.example.com/a.jpg'])(
    '%j is a real image, not the placeholder',
    (path) => {
      expect(isPlaceholderImage(path)).toBe(false)
      expect(imageUrl(path, 10, 10)).not.toBe(imageUrl(null, 10, 10))
    },
  )
})
