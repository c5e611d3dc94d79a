/**
 * Campaign pictures composed from the garment art: hero and category banners (garments on figures
 * under a Mughal arch, in a deep jewel-tone setting, with the title set in a serif), and the static
 * street map of a store. Every choice comes from a hash of the name, so a banner never changes.
 */
import { COLORS, type Silhouette, type Textile } from '../palette'
import { hash, mix, shade } from './colour'
import { figureUnder, garmentArt } from './garments'

/** Settings a campaign can be shot in (deep grounds that carry gold and light garments). */
const GROUNDS = ['#4a0f1c', '#14213d', '#0f3d3a', '#3b1e4a', '#5a3a12', '#2d2a26', '#6b1e2e', '#1f3b2c']
/** Garment colours that read on those grounds. */
const HEROES = ['ivory', 'gold', 'peach', 'pink', 'red', 'mustard', 'teal', 'fuchsia', 'beige', 'white']
const HEX = new Map(COLORS.map((c) => [c.slug, c.hex]))

/** What a banner shows, by the words of its name (first match wins). */
const CASTS: Array<[RegExp, Array<[Silhouette, Textile]>]> = [
  [
    /saree/,
    [
      ['saree', 'zari'],
      ['saree', 'bandhani'],
      ['saree', 'block'],
    ],
  ],
  [
    /lehenga|bridal|wedding/,
    [
      ['lehenga', 'zari'],
      ['lehenga', 'chikankari'],
      ['anarkali', 'zari'],
    ],
  ],
  [
    /sherwani|groom/,
    [
      ['sherwani', 'brocade'],
      ['sherwani', 'zari'],
      ['jacket', 'plain'],
    ],
  ],
  [
    /anarkali/,
    [
      ['anarkali', 'chikankari'],
      ['anarkali', 'zari'],
    ],
  ],
  [
    /dress/,
    [
      ['dress', 'block'],
      ['dress', 'plain'],
    ],
  ],
  [
    /kurta/,
    [
      ['kurta', 'chikankari'],
      ['kurta', 'block'],
      ['kurta', 'bandhani'],
    ],
  ],
  [
    /shirt/,
    [
      ['shirt', 'ikat'],
      ['shirt', 'plain'],
    ],
  ],
  [
    /jacket|performance/,
    [
      ['jacket', 'tweed'],
      ['jacket', 'quilted'],
    ],
  ],
  [
    /tee/,
    [
      ['tee', 'plain'],
      ['tee', 'plain'],
    ],
  ],
  [/jewel|earring|otw/, [['jewel', 'plain']]],
  [
    /bag|potli|gift|sale|strip/,
    [
      ['bag', 'brocade'],
      ['jewel', 'plain'],
    ],
  ],
  [
    /men\b|menswear/,
    [
      ['sherwani', 'brocade'],
      ['kurta', 'plain'],
      ['jacket', 'tweed'],
    ],
  ],
  [
    /women|festive|new|ready|edit|home|head|search|popup|celeb|cover|welcome/,
    [
      ['lehenga', 'zari'],
      ['saree', 'zari'],
      ['anarkali', 'chikankari'],
    ],
  ],
]

function castOf(words: string): Array<[Silhouette, Textile]> {
  for (const [re, cast] of CASTS) if (re.test(words)) return cast
  return [
    ['saree', 'zari'],
    ['kurta', 'block'],
    ['sherwani', 'brocade'],
  ]
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/**
 * The home page shows a desktop banner (a `head` or `home` banner without `-mobile`) at a portrait
 * catalogue size cropped by CSS to a 12:5 band across its middle (a product banner to 3:1, the
 * small ones to 4:3). Such a banner is therefore composed inside that band, with its figures in the
 * band's middle 80 % (the 3:1 crop), and the ground simply continues above and below it: every
 * crop shows whole figures. Phone banners (`-mobile`) and other kinds are shown whole.
 */
const HERO_BAND = 5 / 12
const SAFE_BAND = 0.8
/** How much higher the middle one of three figures stands (further back), as a share of the stage. */
const LIFT = 0.03

interface Stage {
  y: number
  w: number
  h: number
}

/** Where a banner's picture is composed within its canvas. */
function stageOf(kind: string, mobile: boolean, width: number, height: number): Stage {
  const cropped = (kind === 'head' || kind === 'home') && !mobile && width * HERO_BAND < height
  if (!cropped) return { y: 0, w: width, h: height }
  const h = width * HERO_BAND
  return { y: (height - h) / 2, w: width, h }
}

/** A banner of `width` × `height` for a (validated) name such as 'cat-sarees' or 'home-festive-edit'. */
export function bannerSvg(name: string, width: number, height: number): string {
  const h = hash(name)
  const [kind = '', ...rest] = name.split('-')
  const mobile = rest.includes('mobile')
  const words = rest.filter((w) => w !== 'mobile' && w !== 'tile')
  const title = words.join(' ').toUpperCase().slice(0, 40)
  const ground = GROUNDS[h % GROUNDS.length] as string
  const cast = castOf(`${kind} ${words.join(' ')}`)
  const stage = stageOf(kind, mobile, width, height)
  const { w: sw, h: sh } = stage
  const wide = sw / sh > 1.2
  // Figures: as many as fit (1–3), each 300 × 450 art scaled to most of the stage's height. On a
  // wide stage they stand in its middle band (right-hand side, the title on the left); on a
  // portrait one they stand above the bottom tenth, where the page sets the banner's caption.
  const count = Math.max(1, Math.min(cast.length, wide ? 3 : sw / sh > 0.8 ? 2 : 1))
  const scale = Math.min(
    (sh * (wide ? SAFE_BAND - LIFT : 0.64)) / 450,
    (sw * (wide ? 0.55 : 0.9)) / (300 * count * 0.8),
  )
  const step = 300 * scale * 0.78
  // The group's width: the figures overlap a little, the last one shows its whole 300-wide box.
  const groupW = step * (count - 1) + 300 * scale
  const x0 = wide ? sw * 0.98 - groupW : (sw - groupW) / 2
  const y0 = wide ? stage.y + sh * (1 - (1 - SAFE_BAND) / 2) - 450 * scale : height - 450 * scale - sh * 0.1
  let defs = ''
  let figures = ''
  for (let k = 0; k < count; k++) {
    const [sil, textile] = cast[(k + (h >>> 4)) % cast.length] as [Silhouette, Textile]
    const colour = HEX.get(HEROES[(h >>> (k * 3 + 6)) % HEROES.length] ?? 'ivory') ?? '#fffff0'
    const art = garmentArt(sil, colour, textile, 'front', `f${k}`)
    defs += art.defs
    // The middle one of three stands a little further back (higher), still inside the band.
    const lift = k === 1 && count === 3 ? -sh * LIFT : 0
    const feet = Math.min(446, art.worn ? art.hem + 14 : art.hem + 6)
    figures += `<g class="figure" transform="translate(${(x0 + k * step).toFixed(1)} ${(y0 + lift).toFixed(1)}) scale(${scale.toFixed(3)})"><ellipse cx="150" cy="${feet}" rx="${art.worn ? 96 : 70}" ry="8" fill="#000" opacity=".18"/>${art.worn ? figureUnder(art.hem) : ''}${art.body}</g>`
  }
  const archW = Math.min(sw * (wide ? 0.6 : 0.86), groupW * 0.96)
  const archX = x0 + (groupW - archW) / 2
  const archTop = stage.y + sh * (wide ? 0.04 : 0.08)
  const shoulder = archTop + Math.min(archW * 0.45, sh * 0.3)
  // The arch stands on the canvas's bottom edge, so it continues below a cropped stage; the
  // figures stand on its lit floor, which runs from their feet to that edge.
  const archFill = mix(ground, '#f3e3c3', 0.16)
  const line = Math.max(1, width / 400)
  const floorY = y0 + 428 * scale
  const arch = `<path d="M${archX} ${height}V${shoulder}Q${archX} ${archTop + (shoulder - archTop) * 0.22} ${archX + archW / 2} ${archTop}Q${archX + archW} ${archTop + (shoulder - archTop) * 0.22} ${archX + archW} ${shoulder}V${height}Z" fill="${archFill}" stroke="#d9b44a" stroke-opacity=".55" stroke-width="${line}"/><path d="M${archX} ${floorY.toFixed(1)}H${archX + archW}V${height}H${archX}Z" fill="url(#floor)"/><path d="M${archX} ${floorY.toFixed(1)}H${archX + archW}" stroke="#d9b44a" stroke-opacity=".55" stroke-width="${line}"/>`
  // The title: on a wide stage one word a line in the space left of the figures, on a portrait
  // one a single line across the top; either way sized so its longest line fits that space (a
  // capital with its letter spacing is taken as 0.82 em wide).
  const lines = wide ? title.split(' ') : [title]
  const longest = Math.max(1, ...lines.map((l) => l.length))
  const room = wide ? x0 - sw * 0.1 : sw * 0.9
  const size = Math.max(
    10,
    Math.round(
      Math.min(sw / (wide ? 16 : 11), sh / (wide ? 4 + lines.length * 2 : 6), room / (longest * 0.82)),
    ),
  )
  const tx = wide ? sw * 0.06 : sw / 2
  const anchor = wide ? 'start' : 'middle'
  const lead = size * 1.1
  const ty = stage.y + (wide ? sh * 0.5 - (lead * (lines.length - 1)) / 2 : sh * 0.14)
  const sub = ty + lead * (lines.length - 1) + size * 0.95
  const tspans = lines
    .map((l, i) => `<tspan x="${tx}" dy="${i === 0 ? 0 : lead.toFixed(1)}">${esc(l)}</tspan>`)
    .join('')
  const text = `<text x="${tx}" y="${ty.toFixed(1)}" text-anchor="${anchor}" font-family="Georgia,'Cormorant Garamond',serif" font-size="${size}" fill="#fbf3e4" letter-spacing="${(size * 0.08).toFixed(1)}">${tspans}</text><text x="${tx}" y="${sub.toFixed(1)}" text-anchor="${anchor}" font-family="Georgia,serif" font-size="${Math.max(8, Math.round(size * 0.36))}" fill="#d9b44a" letter-spacing="${(size * 0.12).toFixed(1)}">ODE ATELIER</text>`
  // The ground is lit from the upper right and falls off evenly to the edges (no darker strip
  // along any edge).
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><defs><radialGradient id="bg" cx=".7" cy=".35" r=".9"><stop offset="0" stop-color="${shade(ground, 0.18)}"/><stop offset="1" stop-color="${shade(ground, -0.2)}"/></radialGradient><linearGradient id="floor" x2="0" y2="1"><stop offset="0" stop-color="${mix(archFill, '#f3e3c3', 0.16)}"/><stop offset="1" stop-color="${archFill}"/></linearGradient>${defs}</defs><rect width="${width}" height="${height}" fill="url(#bg)"/>${arch}${figures}${text}</svg>`
}

/** A static street map around a store (a stylised plan, not survey data), with its pin and name. */
export function mapSvg(code: string, width: number, height: number): string {
  const h = hash(code)
  const r = (n: number) => {
    // A small sequence of stable numbers from the code.
    let x = (h ^ Math.imul(n + 1, 0x9e3779b1)) >>> 0
    x = Math.imul(x ^ (x >>> 15), 0x2c1b3c6d) >>> 0
    return (x % 1000) / 1000
  }
  const W = 300
  const H = 450
  const angle = Math.round(r(1) * 40 - 20)
  let streets = ''
  for (let k = 0; k < 7; k++) streets += `M-200 ${-200 + k * 110 + r(k + 10) * 40}H500`
  for (let k = 0; k < 6; k++) streets += `M${-200 + k * 120 + r(k + 20) * 40} -200V650`
  const water =
    r(2) < 0.5
      ? `<path d="M0 ${H * 0.72}Q${W * 0.4} ${H * 0.66} ${W} ${H * 0.8}V${H}H0Z" fill="#b9d3dc"/>`
      : `<path d="M0 0H${W * 0.22}Q${W * 0.3} ${H * 0.4} ${W * 0.16} ${H}H0Z" fill="#b9d3dc"/>`
  const parks = [0, 1, 2]
    .map(
      (k) =>
        `<rect x="${(r(k + 30) * 220).toFixed(0)}" y="${(r(k + 40) * 360).toFixed(0)}" width="${(40 + r(k + 50) * 50).toFixed(0)}" height="${(30 + r(k + 60) * 50).toFixed(0)}" rx="6" fill="#cfe3c1"/>`,
    )
    .join('')
  const area = code.split('-').slice(1).join(' ').toUpperCase() || code.toUpperCase()
  const city = (code.split('-')[0] ?? '').toUpperCase()
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${W} ${H}" preserveAspectRatio="xMidYMid slice"><rect width="${W}" height="${H}" fill="#f1ece2"/>${parks}<g transform="rotate(${angle} 150 225)"><path d="${streets}" stroke="#fff" stroke-width="7" fill="none"/><path d="M-200 ${225 + angle}H500M${150 - angle} -200V650" stroke="#f6d79a" stroke-width="12" fill="none"/><path d="M-200 ${225 + angle}H500M${150 - angle} -200V650" stroke="#e2b75f" stroke-width="1" fill="none"/></g>${water}<g transform="translate(150 205)"><ellipse cy="26" rx="10" ry="4" fill="#000" opacity=".2"/><path d="M0 24C-6 12-16 4-16-8A16 16 0 1 1 16-8C16 4 6 12 0 24Z" fill="#7a1630" stroke="#fff" stroke-width="2"/><circle cy="-8" r="5.5" fill="#fff"/></g><rect x="40" y="370" width="220" height="50" rx="6" fill="#fff" opacity=".92"/><text x="150" y="392" text-anchor="middle" font-family="Georgia,serif" font-size="15" fill="#2d2a26">${esc(area)}</text><text x="150" y="410" text-anchor="middle" font-family="Arial,sans-serif" font-size="10" letter-spacing="2" fill="#7a1630">${esc(city)} · ODE ATELIER</text></svg>`
}
