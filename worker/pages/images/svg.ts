/**
 * Generated catalogue images (never fetched): SVG garment silhouettes in a product colour,
 * banners with a title, and the placeholder. Pure functions from a path to SVG text (< 3 KB).
 *
 * Paths understood:
 *   /p/{silhouette}-{colour}.svg      front view of a garment in a colour (e.g. /p/kurta-red.svg)
 *   /p/{silhouette}-{colour}-b.svg    the same garment, detail/back view (hover image)
 *   /b/{kind}-{name}.svg              a banner (kind: cat, home, product, celeb, store, popup, head, otw, search, strip)
 *   /placeholder.svg                  the placeholder (the image of a product without one, 'no_selection')
 */
import { COLORS, SILHOUETTES, type Silhouette } from './palette'

/** Silhouette drawings in a 300×450 box (one or more paths). */
const SHAPES: Record<Silhouette, string> = {
  saree:
    'M120 60h60l12 40-10 20 40 290H78l40-290-10-20z|M180 60l40 30 20 120-30 10-22-90z|M120 150l140 40-10 30-130-40z',
  lehenga: 'M115 60h70l10 70h-90z|M105 140h90l75 270H30z',
  kurta: 'M110 55h80l45 25 20 100-30 8-20-70 5 282H110l5-282-20 70-30-8 20-100z',
  dress: 'M120 55h60l5 40 10 60 70 255H35l70-255 10-60z|M120 55l-20 35 15 10zM180 55l20 35-15 10z',
  shirt:
    'M110 60l25-10 15 20 15-20 25 10 50 30-15 70-30-10v250H105V150l-30 10-15-70z|M150 70v320|M135 50l15 25 15-25',
  jacket: 'M110 60l20-10 20 40 20-40 20 10 45 30-5 300H70l-5-300z|M150 90v300|M150 90l-25 80M150 90l25 80',
  anarkali: 'M120 55h60l30 30 10 90-20 5-15-60v30l90 260H25l90-260v-30l-15 60-20-5 10-90z',
  sherwani:
    'M115 55h70l40 25 15 110-25 5-15-75v290H115V120l-15 75-25-5 15-110z|M150 60v350|M140 60h20v15h-20z',
  tee: 'M100 80l30-15h40l30 15 60 35-20 45-40-15v200H100V145l-40 15-20-45z|M130 65q20 25 40 0',
  bag: 'M90 180h120l20 200H70z|M120 180q30-80 60 0|M80 210h140',
  jewel:
    'M150 60q-70 120 0 200q70-80 0-200z|M150 270a35 35 0 1 0 .1 0z|M110 330a14 14 0 1 0 .1 0zM190 330a14 14 0 1 0 .1 0z',
  voucher: 'M40 150h220v150H40z|M40 200h220|M150 150v150',
  book: 'M70 90h150l10 10v260H80l-10-10z|M90 90v270|M110 150h90M110 180h90',
}

const HEX_BY_SLUG = new Map(COLORS.map((c) => [c.slug, c.hex]))

/** Darkens (negative) or lightens (positive) a #rrggbb colour. */
function shade(hex: string, amount: number): string {
  const n = Number.parseInt(hex.slice(1), 16)
  const f = (v: number) => Math.max(0, Math.min(255, Math.round(v + amount * 255)))
  const r = f(n >> 16)
  const g = f((n >> 8) & 255)
  const b = f(n & 255)
  return `#${((1 << 24) | (r << 16) | (g << 8) | b).toString(16).slice(1)}`
}

function frame(width: number, height: number, body: string, bg = '#f4f1ec'): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 300 450" preserveAspectRatio="xMidYMid meet"><rect x="-300" y="-300" width="900" height="1050" fill="${bg}"/>${body}</svg>`
}

/** A garment silhouette in a colour (back/detail view when `back`). */
function garmentSvg(
  silhouette: Silhouette,
  hex: string,
  width: number,
  height: number,
  back = false,
): string {
  const stroke = shade(hex, hex === '#000000' ? 0.35 : -0.25)
  const paths = SHAPES[silhouette]
    .split('|')
    .map(
      (d, k) =>
        `<path d="${d}" fill="${k === 0 ? hex : shade(hex, -0.08)}" stroke="${stroke}" stroke-width="3" stroke-linejoin="round"/>`,
    )
    .join('')
  const pattern = back
    ? `<defs><pattern id="d" width="18" height="18" patternUnits="userSpaceOnUse"><circle cx="9" cy="9" r="2.5" fill="${stroke}" opacity=".5"/></pattern></defs>`
    : ''
  const overlay = back
    ? `<g transform="translate(300 0) scale(-1 1)">${paths}</g><rect width="300" height="450" fill="url(#d)" opacity=".35"/>`
    : paths
  return frame(
    width,
    height,
    `${pattern}${overlay}<ellipse cx="150" cy="425" rx="90" ry="8" fill="#000" opacity=".08"/>`,
  )
}

/** The placeholder: a neutral hanger. */
function placeholderSvg(width: number, height: number): string {
  return frame(
    width,
    height,
    '<path d="M150 150a18 18 0 1 1 18 18v14l95 60H37l95-60" fill="none" stroke="#b9b2a7" stroke-width="8" stroke-linecap="round" stroke-linejoin="round"/>',
    '#ece8e1',
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
] as const

function hash(s: string): number {
  let h = 2166136261
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619)
  return h >>> 0
}

/** A banner: a two-colour gradient with the title derived from the (validated) name. */
function bannerSvg(name: string, width: number, height: number): string {
  const h = hash(name)
  const c1 = COLORS[h % COLORS.length]?.hex ?? '#800000'
  const c2 = COLORS[(h >> 8) % COLORS.length]?.hex ?? '#d4af37'
  const title = name
    .split('-')
    .slice(1)
    .filter((w) => w !== 'mobile' && w !== 'tile')
    .join(' ')
    .toUpperCase()
    .slice(0, 40)
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><defs><linearGradient id="g" x2="1" y2="1"><stop offset="0" stop-color="${c1}"/><stop offset="1" stop-color="${c2}"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><circle cx="${width * 0.85}" cy="${height * 0.2}" r="${Math.min(width, height) * 0.3}" fill="#fff" opacity=".12"/><rect y="36%" width="100%" height="28%" fill="#000" opacity=".28"/><text x="50%" y="50%" dominant-baseline="middle" text-anchor="middle" font-family="Georgia,serif" font-size="${Math.max(12, Math.round(Math.min(width / 14, height / 5)))}" fill="#fff" stroke="#000" stroke-opacity=".25" stroke-width="1">${title}</text></svg>`
}

/** Renders the SVG for an image path at a size, or null when the path names no known image. */
export function renderImage(path: string, width: number, height: number): string | null {
  if (path === '/placeholder.svg') return placeholderSvg(width, height)
  const product = /^\/p\/([a-z]+)-([a-z]+)(-b)?\.svg$/.exec(path)
  if (product) {
    const silhouette = product[1] as Silhouette
    const hex = HEX_BY_SLUG.get(product[2] ?? '')
    if (!SILHOUETTES.includes(silhouette) || !hex) return null
    return garmentSvg(silhouette, hex, width, height, Boolean(product[3]))
  }
  const banner = /^\/b\/([a-z]+)-([a-z0-9-]{1,80})\.svg$/.exec(path)
  if (banner && (BANNER_KINDS as readonly string[]).includes(banner[1] ?? '')) {
    return bannerSvg(`${banner[1]}-${banner[2]}`, width, height)
  }
  return null
}
