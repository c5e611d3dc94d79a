/**
 * Generated catalogue images (never fetched): pure, deterministic functions from an image path to
 * SVG text. Garments are drawn with shading, folds and their textile (art/garments.ts,
 * art/textiles.ts); banners and store maps are composed from the same art (art/scenes.ts).
 *
 * Paths understood:
 *   /p/{silhouette}-{colour}[-{textile}][-{view}].svg
 *       a garment in a colour; textile one of palette TEXTILES (omitted: plain); view b (back, the
 *       hover image), d (a close crop of the fabric) or f (on a figure), omitted for the front.
 *       e.g. /p/kurta-red.svg, /p/saree-teal-zari-b.svg, /p/kurta-ivory-chikankari-d.svg
 *   /b/{kind}-{name}.svg    a campaign banner (kind: cat, home, product, celeb, store, popup, head,
 *                           otw, search, strip) or, for kind map, a store's street map
 *   /placeholder.svg        the placeholder (the image of a product without one, 'no_selection')
 */
import { figureUnder, garmentArt, HANGER, viewBox } from './art/garments'
import { bannerSvg, mapSvg } from './art/scenes'
import {
  COLORS,
  SILHOUETTES,
  type Silhouette,
  TEXTILES,
  type Textile,
  VIEW_SUFFIX,
  type View,
} from './palette'

const HEX_BY_SLUG = new Map(COLORS.map((c) => [c.slug, c.hex]))
const VIEW_BY_SUFFIX = new Map(Object.entries(VIEW_SUFFIX).map(([view, suffix]) => [suffix, view as View]))

/** The studio backdrop: a warm paper wall lit from the upper right, and a floor shadow. */
const BACKDROP =
  '<radialGradient id="w" cx=".65" cy=".25" r=".9"><stop offset="0" stop-color="#fbf8f3"/><stop offset="1" stop-color="#e9e1d4"/></radialGradient>'

function frame(width: number, height: number, box: string, defs: string, body: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="${box}" preserveAspectRatio="xMidYMid meet"><defs>${BACKDROP}${defs}</defs><rect x="-300" y="-300" width="900" height="1050" fill="url(#w)"/>${body}</svg>`
}

/** A garment in a colour and textile, in one view. */
function garmentSvg(
  silhouette: Silhouette,
  hex: string,
  textile: Textile,
  view: View,
  width: number,
  height: number,
): string {
  const art = garmentArt(silhouette, hex, textile, view)
  const floor = `<ellipse cx="150" cy="${Math.min(440, art.hem + 14)}" rx="${art.worn ? 100 : 80}" ry="9" fill="#000" opacity=".09"/>`
  if (view === 'figure') {
    // On figure: a jharokha arch behind, the garment worn (an accessory: set on a plinth).
    const arch =
      '<path d="M40 450V170Q40 70 150 44Q260 70 260 170V450" fill="#efe4d2" stroke="#d8c7a8" stroke-width="2"/>'
    const stage = art.worn
      ? figureUnder(art.hem)
      : `<path d="M60 ${art.hem + 4}h180v60H60z" fill="#e2d5bf"/><path d="M60 ${art.hem + 4}h180" stroke="#c9b794" stroke-width="3"/>`
    return frame(width, height, '0 0 300 450', art.defs, `${arch}${floor}${stage}${art.body}`)
  }
  if (view === 'back' && !art.worn) {
    // An object seen from behind reads as the same object: show it turned a little instead.
    return frame(
      width,
      height,
      '0 0 300 450',
      art.defs,
      `${floor}<g transform="rotate(-8 150 260)">${art.body}</g>`,
    )
  }
  const hanger = art.worn && view !== 'detail' ? HANGER : ''
  return frame(width, height, viewBox(silhouette, textile, view), art.defs, `${floor}${hanger}${art.body}`)
}

/** The placeholder: a neutral hanger. */
function placeholderSvg(width: number, height: number): string {
  return frame(
    width,
    height,
    '0 0 300 450',
    '',
    '<path d="M150 150a18 18 0 1 1 18 18v14l95 60H37l95-60" fill="none" stroke="#b9b2a7" stroke-width="8" stroke-linecap="round" stroke-linejoin="round"/>',
  )
}

const BANNER_KINDS = [
  'cat',
  'home',
  'product',
  'celeb',
  'store',
  'popup',
  'head',
  'otw',
  'search',
  'strip',
  'map',
] as const

/** Renders the SVG for an image path at a size, or null when the path names no known image. */
export function renderImage(path: string, width: number, height: number): string | null {
  if (path === '/placeholder.svg') return placeholderSvg(width, height)
  const product = /^\/p\/([a-z]+(?:-[a-z]+){1,3})\.svg$/.exec(path)
  if (product) {
    const [silhouette = '', colour = '', ...rest] = (product[1] ?? '').split('-')
    const hex = HEX_BY_SLUG.get(colour)
    if (!SILHOUETTES.includes(silhouette as Silhouette) || !hex) return null
    let textile: Textile = 'plain'
    let view: View = 'front'
    // Optional parts in order: a textile, then a one-letter view.
    for (const [k, part] of rest.entries()) {
      const asView = VIEW_BY_SUFFIX.get(part)
      if (asView && part !== '' && k === rest.length - 1) view = asView
      else if (k === 0 && TEXTILES.includes(part as Textile) && part !== 'plain') textile = part as Textile
      else return null
    }
    return garmentSvg(silhouette as Silhouette, hex, textile, view, width, height)
  }
  const banner = /^\/b\/([a-z]+)-([a-z0-9-]{1,80})\.svg$/.exec(path)
  if (banner && (BANNER_KINDS as readonly string[]).includes(banner[1] ?? '')) {
    if (banner[1] === 'map') return mapSvg(banner[2] ?? '', width, height)
    return bannerSvg(`${banner[1]}-${banner[2]}`, width, height)
  }
  return null
}
