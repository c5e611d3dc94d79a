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

/** A banner of `width` × `height` for a (validated) name such as 'cat-sarees' or 'home-festive-edit'. */
export function bannerSvg(name: string, width: number, height: number): string {
  const h = hash(name)
  const [kind = '', ...rest] = name.split('-')
  const words = rest.filter((w) => w !== 'mobile' && w !== 'tile')
  const title = words.join(' ').toUpperCase().slice(0, 40)
  const ground = GROUNDS[h % GROUNDS.length] as string
  const cast = castOf(`${kind} ${words.join(' ')}`)
  const wide = width / height > 1.2
  // Figures: as many as fit (1–3), each 300 × 450 art scaled to most of the height.
  const count = Math.max(1, Math.min(cast.length, wide ? 3 : width / height > 0.8 ? 2 : 1))
  const scale = Math.min(
    (height * (wide ? 0.86 : 0.7)) / 450,
    (width * (wide ? 0.55 : 0.9)) / (300 * count * 0.8),
  )
  const step = 300 * scale * 0.78
  const x0 = wide
    ? width - step * count - 300 * scale * 0.18
    : (width - step * count - 300 * scale * 0.22) / 2
  const y0 = height - 450 * scale - height * 0.02
  let defs = ''
  let figures = ''
  for (let k = 0; k < count; k++) {
    const [sil, textile] = cast[(k + (h >>> 4)) % cast.length] as [Silhouette, Textile]
    const colour = HEX.get(HEROES[(h >>> (k * 3 + 6)) % HEROES.length] ?? 'ivory') ?? '#fffff0'
    const art = garmentArt(sil, colour, textile, 'front', `f${k}`)
    defs += art.defs
    const lift = k === 1 && count === 3 ? -height * 0.03 : 0
    figures += `<g transform="translate(${(x0 + k * step).toFixed(1)} ${(y0 + lift).toFixed(1)}) scale(${scale.toFixed(3)})">${art.worn ? figureUnder(art.hem) : ''}${art.body}</g>`
  }
  const archW = Math.min(width * (wide ? 0.5 : 0.86), step * count + 300 * scale * 0.3)
  const archX = wide ? width - archW - width * 0.03 : (width - archW) / 2
  const archTop = height * 0.08
  const arch = `<path d="M${archX} ${height}V${archTop + archW * 0.45}Q${archX} ${archTop + archW * 0.1} ${archX + archW / 2} ${archTop}Q${archX + archW} ${archTop + archW * 0.1} ${archX + archW} ${archTop + archW * 0.45}V${height}Z" fill="${mix(ground, '#f3e3c3', 0.16)}" stroke="#d9b44a" stroke-opacity=".55" stroke-width="${Math.max(1, width / 400)}"/>`
  const size = Math.max(12, Math.round(Math.min(width / (wide ? 16 : 11), height / 6)))
  const tx = wide ? width * 0.06 : width / 2
  const anchor = wide ? 'start' : 'middle'
  const ty = wide ? height * 0.48 : height * 0.14
  const text = `<text x="${tx}" y="${ty}" text-anchor="${anchor}" font-family="Georgia,'Cormorant Garamond',serif" font-size="${size}" fill="#fbf3e4" letter-spacing="${(size * 0.08).toFixed(1)}">${esc(title)}</text><text x="${tx}" y="${ty + size * 0.95}" text-anchor="${anchor}" font-family="Georgia,serif" font-size="${Math.max(8, Math.round(size * 0.36))}" fill="#d9b44a" letter-spacing="${(size * 0.12).toFixed(1)}">ODE ATELIER</text>`
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><defs><radialGradient id="bg" cx=".7" cy=".3" r="1"><stop offset="0" stop-color="${shade(ground, 0.18)}"/><stop offset="1" stop-color="${shade(ground, -0.35)}"/></radialGradient>${defs}</defs><rect width="${width}" height="${height}" fill="url(#bg)"/>${arch}${figures}<rect y="${height * 0.96}" width="${width}" height="${height * 0.04}" fill="#000" opacity=".25"/>${text}</svg>`
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
