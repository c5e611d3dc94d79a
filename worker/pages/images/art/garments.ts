/**
 * Garments drawn as art rather than clip-art: each silhouette has curved panels (filled in the
 * product colour, covered by its textile and shaded by a side light), fold lines where the cloth
 * drapes, front-only details (plackets, buttons, necklines) and the line of its hem, where zari and
 * brocade pieces get a woven gold border. Everything is in a 300 × 450 box; `garmentArt` returns
 * the defs and the group so product images and banners can place it anywhere.
 */
import type { Silhouette, Textile, View } from '../palette'
import { isLight, mix, shade } from './colour'
import { borderPattern, hasBorder, textilePattern } from './textiles'

interface Shape {
  /** Filled panels; the first is the main one, the others a shade deeper (blouse, pallu, collar). */
  panels: string[]
  /** Where the cloth folds (drawn as shadow with a highlight beside it). */
  folds: string
  /** Front-only details (stroked). */
  trim?: string
  /** Small round details on the front (buttons, stones), as "x,y" pairs. */
  dots?: string
  /** Outline-only parts (handles, chains). */
  strokes?: string
  /** The y of the hem: the border band sits just above it; the detail view looks at it. */
  hem: number
  /** Edges that carry the border as a gold line (a pallu's edge). */
  edge?: string
  /** Whether it is a worn garment (drawn on a figure in the 'figure' view). */
  worn: boolean
}

const SHAPES: Record<Silhouette, Shape> = {
  saree: {
    panels: [
      'M110 98Q150 92 190 98Q200 262 216 406Q150 420 84 406Q100 262 110 98Z',
      'M124 56Q150 66 176 56L188 66L192 100L108 100L112 66Z',
      'M198 118Q160 100 120 56L140 50Q170 84 206 106ZM120 56Q100 130 102 262Q88 270 74 258Q72 130 110 54Z',
    ],
    folds: 'M138 128Q134 270 128 408M150 126Q150 270 148 412M162 128Q166 270 170 410M176 128Q186 270 196 408',
    edge: 'M206 106Q170 84 140 50M74 258Q72 130 110 54',
    hem: 408,
    worn: true,
  },
  lehenga: {
    panels: [
      'M108 124Q150 114 192 124Q240 270 268 406Q150 428 32 406Q60 270 108 124Z',
      'M122 56Q150 64 178 56L192 70L194 110Q150 118 106 110L108 70Z',
      'M178 56Q232 92 248 204L232 210Q214 112 170 62Z',
    ],
    folds:
      'M130 132Q110 280 86 410M150 130Q150 280 150 416M170 132Q190 280 214 410M118 132Q80 280 56 404M182 132Q220 280 244 404',
    hem: 410,
    worn: true,
  },
  kurta: {
    panels: [
      'M128 54Q150 72 172 54L196 62Q214 70 222 96L238 186L212 194L192 124Q196 250 208 398Q150 410 92 398Q104 250 108 124L88 194L62 186L78 96Q86 70 104 62Z',
    ],
    folds:
      'M128 140Q124 270 116 392M172 150Q178 280 186 394M150 120Q152 260 150 402M214 110L228 180M86 110L72 180',
    trim: 'M150 68V94M104 330L100 398M196 330L200 398',
    hem: 400,
    worn: true,
  },
  dress: {
    panels: [
      'M130 54Q150 70 170 54L186 58Q192 90 186 120Q184 140 180 150Q226 280 244 398Q150 414 56 398Q74 280 120 150Q116 140 114 120Q108 90 114 58Z',
      'M114 58Q96 62 92 88Q104 98 116 92ZM186 58Q204 62 208 88Q196 98 184 92Z',
    ],
    folds:
      'M132 156Q116 280 96 398M150 156Q150 280 150 404M168 156Q184 280 204 398M124 156Q96 280 74 394M176 156Q204 280 226 394',
    trim: 'M118 148Q150 156 182 148M150 152L138 176M150 152L162 178',
    hem: 400,
    worn: true,
  },
  anarkali: {
    panels: [
      'M128 54Q150 70 172 54L194 62Q208 70 214 96L226 200L206 204L192 120Q190 140 186 150Q252 280 276 404Q150 426 24 404Q48 280 114 150Q110 140 108 120L94 204L74 200L86 96Q92 70 106 62Z',
    ],
    folds:
      'M134 156Q118 280 92 408M150 156Q150 280 150 414M166 156Q182 280 208 408M124 156Q86 280 54 404M176 156Q214 280 246 404M116 156Q66 280 36 400M184 156Q234 280 264 400',
    trim: 'M112 148Q150 160 188 148M140 62Q150 90 160 62',
    hem: 406,
    worn: true,
  },
  shirt: {
    panels: [
      'M112 60L136 50L150 66L164 50L188 60L232 84Q240 130 236 176L206 170L200 150L202 380Q150 396 98 380L100 150L94 170L64 176Q60 130 68 84Z',
    ],
    folds: 'M124 110Q120 250 118 380M176 110Q180 250 182 380M214 96L220 166M86 96L80 166',
    trim: 'M150 66V388M136 50L150 74L164 50M166 120H188V140H166',
    dots: '150,100 150,140 150,180 150,220 150,260 150,300 150,340',
    hem: 384,
    worn: true,
  },
  jacket: {
    panels: [
      'M114 58L134 52Q150 60 166 52L186 58L226 80Q236 140 236 300L212 304L204 150L206 384L94 384L96 150L88 304L64 300Q64 140 74 80Z',
      'M134 52Q150 60 166 52V42Q150 50 134 42Z',
    ],
    folds: 'M122 120Q118 250 120 380M178 120Q182 250 180 380M222 110L226 290M78 110L74 290',
    trim: 'M150 58V384M108 300H134M166 300H192M168 130H188',
    dots: '150,90 150,130 150,170 150,210 150,250 150,290',
    hem: 384,
    worn: true,
  },
  sherwani: {
    panels: [
      'M118 56Q150 64 182 56L222 78Q234 140 238 300L214 304L204 140Q208 260 214 404L86 404Q92 260 96 140L86 304L62 300Q66 140 78 78Z',
      'M132 56Q150 64 168 56V44Q150 52 132 44Z',
    ],
    folds:
      'M124 120Q118 270 112 402M176 120Q182 270 188 402M150 200Q150 300 150 404M222 110L228 290M78 110L72 290',
    trim: 'M150 62V404M96 360L100 404M204 360L200 404',
    dots: '150,84 150,114 150,144 150,174 150,204 150,234 150,264',
    hem: 404,
    worn: true,
  },
  tee: {
    panels: [
      'M100 80L130 66Q150 80 170 66L200 80L256 112L238 156L202 142L204 360Q150 368 96 360L98 142L62 156L44 112Z',
    ],
    folds: 'M126 150Q122 260 120 360M174 150Q178 260 180 360M220 110L230 146M80 110L70 146',
    trim: 'M130 66Q150 88 170 66M62 150L238 150',
    hem: 362,
    worn: true,
  },
  bag: {
    panels: [
      'M88 190Q150 176 212 190L232 372Q150 392 68 372Z',
      'M96 204Q150 190 204 204L206 226Q150 212 94 226Z',
    ],
    folds: 'M120 236Q118 300 112 376M180 236Q182 300 188 376',
    strokes: 'M118 192Q150 96 182 192',
    dots: '150,214',
    hem: 374,
    worn: false,
  },
  jewel: {
    panels: [
      'M82 170Q110 104 138 170Q110 180 82 170ZM162 170Q190 104 218 170Q190 180 162 170Z',
      'M110 96A12 12 0 1 0 110.1 96ZM190 96A12 12 0 1 0 190.1 96Z',
    ],
    folds: 'M98 160Q110 130 124 160M178 160Q190 130 204 160',
    strokes: 'M110 96Q100 70 110 60Q120 56 122 70M190 96Q180 70 190 60Q200 56 202 70',
    dots: '86,184 98,188 110,190 122,188 134,184 166,184 178,188 190,190 202,188 214,184',
    hem: 190,
    worn: false,
  },
  voucher: {
    panels: [
      'M60 160H240Q250 160 250 170V290Q250 300 240 300H60Q50 300 50 290V170Q50 160 60 160Z',
      'M140 160H160V300H140Z',
    ],
    folds: 'M50 226H250',
    strokes: 'M150 160Q120 120 132 112Q146 110 150 160Q154 110 168 112Q180 120 150 160',
    hem: 300,
    worn: false,
  },
  book: {
    panels: ['M74 90H222Q230 90 230 98V360H82Q74 360 74 352Z', 'M74 90H96V360H82Q74 360 74 352Z'],
    folds: 'M112 150H206M112 176H206M120 280H198',
    trim: 'M128 210H190V250H128Z',
    hem: 360,
    worn: false,
  },
}

/** The panels of a shape as one path (for the textile and the shading over all of them). */
const allPanels = (s: Shape) => s.panels.join('')

/** The defs and drawing of a garment; `p` prefixes every id so several can share one SVG. */
export function garmentArt(
  silhouette: Silhouette,
  hex: string,
  textile: Textile,
  view: View,
  p = '',
): { defs: string; body: string; hem: number; worn: boolean } {
  const s = SHAPES[silhouette]
  const light = isLight(hex)
  const outline = light ? shade(hex, -0.3) : shade(hex, -0.45)
  const fold = light ? shade(hex, -0.22) : shade(hex, -0.5)
  const bordered = hasBorder(textile) && s.worn
  const id = (x: string) => `${p}${x}`
  const defs = [
    textilePattern(textile, hex, view === 'detail' ? 0.7 : 1).replace('id="t"', `id="${id('t')}"`),
    bordered ? borderPattern(hex).replace('id="zb"', `id="${id('zb')}"`) : '',
    `<linearGradient id="${id('s')}"><stop offset="0" stop-color="#fff" stop-opacity=".24"/><stop offset=".45" stop-color="#fff" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="${light ? '.16' : '.3'}"/></linearGradient>`,
    bordered ? `<clipPath id="${id('c')}"><path d="${s.panels[0]}"/></clipPath>` : '',
  ].join('')
  const panels = s.panels
    .map(
      (d, k) =>
        `<path d="${d}" fill="${k === 0 ? hex : mix(hex, light ? '#000' : '#fff', light ? 0.07 : 0.06)}" stroke="${outline}" stroke-width="1.6" stroke-linejoin="round"/>`,
    )
    .join('')
  const all = allPanels(s)
  const front = view !== 'back'
  const gold = '#d9b44a'
  const body = [
    s.strokes
      ? `<path d="${s.strokes}" fill="none" stroke="${s.worn ? outline : gold}" stroke-width="5" stroke-linecap="round"/>`
      : '',
    panels,
    `<path d="${all}" fill="url(#${id('t')})"/>`,
    bordered
      ? `<rect x="0" y="${s.hem - 20}" width="300" height="34" fill="url(#${id('zb')})" clip-path="url(#${id('c')})"/>`
      : '',
    bordered && s.edge ? `<path d="${s.edge}" fill="none" stroke="${gold}" stroke-width="6"/>` : '',
    `<path d="${s.folds}" fill="none" stroke="${fold}" stroke-width="2.4" stroke-linecap="round" opacity=".55"/>`,
    `<path d="${s.folds}" transform="translate(3 0)" fill="none" stroke="#fff" stroke-width="1.4" stroke-linecap="round" opacity=".18"/>`,
    `<path d="${all}" fill="url(#${id('s')})"/>`,
    front && s.trim ? `<path d="${s.trim}" fill="none" stroke="${outline}" stroke-width="1.6"/>` : '',
    front && s.dots
      ? s.dots
          .split(' ')
          .map((xy) => {
            const [x, y] = xy.split(',')
            return `<circle cx="${x}" cy="${y}" r="${s.worn ? 3 : 4}" fill="${gold}" stroke="${outline}" stroke-width=".8"/>`
          })
          .join('')
      : '',
  ].join('')
  // The back is the same cut seen from behind: mirrored, without the front's details.
  const placed = front ? body : `<g transform="translate(300 0) scale(-1 1)">${body}</g>`
  return { defs, body: placed, hem: s.hem, worn: s.worn }
}

/**
 * A figure (head, neck and feet in a warm skin tone) for a garment to be worn on; below a short
 * garment (a tee, a shirt, a jacket) it wears dark trousers.
 */
export function figureUnder(hem: number): string {
  const skin = '#b98466'
  const hair = '#2a1c17'
  const short = hem < 395
  const legs = short
    ? `<path d="M118 ${hem - 6}H182L178 432H156L150 ${hem + 34}L144 432H122Z" fill="#2f3437"/>`
    : ''
  const footY = short ? 436 : hem + 10
  const feet =
    footY < 446
      ? `<ellipse cx="138" cy="${footY}" rx="10" ry="5" fill="${skin}"/><ellipse cx="162" cy="${footY}" rx="10" ry="5" fill="${skin}"/>`
      : ''
  return `${legs}<path d="M143 36h14v24h-14z" fill="${shade(skin, -0.12)}"/><ellipse cx="150" cy="28" rx="14" ry="17" fill="${skin}"/><path d="M136 26Q136 8 150 8Q166 8 166 26Q160 16 150 16Q140 16 136 26Z" fill="${hair}"/><circle cx="164" cy="14" r="7" fill="${hair}"/>${feet}`
}

/** A wooden hanger behind a garment shown flat (only its hook shows above the collar). */
export const HANGER =
  '<path d="M150 56V42a9 9 0 1 1 9-9" fill="none" stroke="#9a9186" stroke-width="3" stroke-linecap="round"/><path d="M110 70L150 56L190 70" fill="none" stroke="#a27b4f" stroke-width="6" stroke-linecap="round"/>'

/** The box a view shows: the whole piece, or a close crop of the fabric (at the hem when it is bordered). */
export function viewBox(silhouette: Silhouette, textile: Textile, view: View): string {
  if (view !== 'detail') return '0 0 300 450'
  const s = SHAPES[silhouette]
  if (!s.worn) return `70 ${s.hem - 180} 160 240`
  const y = hasBorder(textile) ? s.hem - 150 : 170
  return `95 ${y} 110 165`
}
