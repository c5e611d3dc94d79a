/**
 * The words of the demo catalogue: unique product names, descriptions per garment, size charts
 * with measurements per garment type. Names never carry a colour their variants lack: a name is a
 * collection word (MOTIFS) + the fabric + the garment, and only when that is taken is the lead
 * colour added.
 */
import type { ColorDef } from '../../../worker/pages/images/palette'
import type { Ctx } from './context'
import { APPAREL_SIZES, GARMENTS, type GarmentDef } from './data'
import { type FabricSpec, MOTIFS } from './fabrics'
import type { Rng } from './prng'

/**
 * A name no other product of this catalogue has: the first free of motif + fabric + garment
 * (starting at motif `start`), then motif + colour + fabric + garment with one of the product's
 * own colours, then with two of them, and at last the number of the piece.
 */
export function uniqueName(
  ctx: Ctx,
  start: number,
  fabric: string,
  label: string,
  colors: readonly ColorDef[],
  id: number,
): string {
  const n = MOTIFS.length
  // How many names each stem (what follows the motif) already has: a full stem is skipped
  // without trying its motifs, which keeps large catalogues fast.
  const tryStem = (stem: string): string | null => {
    if ((ctx.stems.get(stem) ?? 0) >= n) return null
    for (let k = 0; k < n; k++) {
      const name = `${MOTIFS[(start + k) % n]} ${stem}`
      if (ctx.names.has(name)) continue
      ctx.names.add(name)
      ctx.stems.set(stem, (ctx.stems.get(stem) ?? 0) + 1)
      return name
    }
    return null
  }
  const plain = tryStem(`${fabric} ${label}`)
  if (plain) return plain
  for (const c of colors) {
    const coloured = tryStem(`${c.label} ${fabric} ${label}`)
    if (coloured) return coloured
  }
  // Large catalogues: two of the product's own colours ("Noor Wine and Gold Banarasi Silk Saree").
  for (let a = 0; a < colors.length; a++) {
    for (let b = a + 1; b < colors.length; b++) {
      const pair = tryStem(
        `${(colors[a] as ColorDef).label} and ${(colors[b] as ColorDef).label} ${fabric} ${label}`,
      )
      if (pair) return pair
    }
  }
  const last = `${MOTIFS[start % n]} ${fabric} ${label} No. ${id}`
  ctx.names.add(last)
  return last
}

/** Openings per garment: {f} is the fabric (lower case), {d} the designer. */
const OPENINGS: Readonly<Record<string, readonly string[]>> = {
  saree: [
    'A {f} saree that falls in soft pleats from the shoulder, with a pallu weighted to sit where you put it. Designed by {d} for the wedding season and the long dinners after it.',
    'Six metres of {f}, designed by {d} to be worn as your grandmother wore hers, or with a cropped shirt and trainers.',
    'An heirloom-in-waiting: a {f} saree by {d}, with a border that frames the drape and a pallu worth turning around for.',
  ],
  lehenga: [
    'A {f} lehenga by {d} with a full, twelve-panel skirt that swirls when you turn, a fitted choli and a sheer dupatta edged to match.',
    'Made for the sangeet and the pheras: {d} cuts this {f} lehenga with a can-can layer so the skirt holds its shape all night.',
  ],
  kurta: [
    'An everyday {f} kurta by {d}: straight cut, side slits, a keyhole neckline and pockets in both side seams.',
    'A {f} kurta with three-quarter sleeves and a gently flared hem, designed by {d} to go from desk to dinner.',
    'Cut long and easy by {d}, this {f} kurta pairs with straight pants or an old pair of jeans.',
  ],
  dress: [
    'A {f} midi dress by {d} with a V-neck, a self-tie waist and a skirt that skims the knee.',
    'A day-to-evening dress in {f}: {d} gives it a square neck, puffed sleeves and hidden pockets.',
  ],
  anarkali: [
    'A floor-length {f} anarkali by {d}: a fitted bodice and twenty-four kalis that open into a full circle.',
    'A {f} anarkali with a churidar and a light dupatta, designed by {d} for mehendi afternoons.',
  ],
  shirt: [
    'A {f} shirt by {d} with a band collar, a curved hem and mother-of-pearl buttons.',
    'A relaxed {f} shirt, designed by {d} to be worn open over a tee or buttoned up with trousers.',
  ],
  sherwani: [
    'A {f} sherwani by {d}, tailored close through the chest with a high collar, hand-finished buttons and a matching churidar.',
    'For the groom or his brothers: a {f} sherwani by {d}, cut long with side vents and a silk lining.',
  ],
  jacket: [
    'A {f} jacket by {d} with a standing collar, welt pockets and a clean, close fit.',
    'A {f} jacket that layers over a kurta or a shirt; {d} cuts it short enough to show the hem beneath.',
  ],
  'mens-kurta': [
    'A {f} kurta for men by {d}: a mandarin collar, a concealed placket and side pockets.',
    'A straight {f} kurta by {d}, long enough for a churidar, short enough for jeans.',
  ],
  tee: [
    'A {f} tee by {d} with a ribbed crew neck, a boxy fit and dropped shoulders.',
    'The tee we reach for first: {f}, a slightly longer back hem and a neckline that keeps its shape. By {d}.',
  ],
  performance: [
    'A {f} track jacket by {d} with a full zip, thumb loops and a zipped back pocket for keys.',
    'Made to move: a {f} track jacket by {d} with raglan sleeves and reflective tape at the cuffs.',
  ],
}

const FITS: Readonly<Record<string, string>> = {
  saree: 'Length 5.5 m plus an unstitched 0.8 m blouse piece',
  lehenga: 'Semi-stitched: the skirt waist can be taken in or let out by 2 inches',
  kurta: 'Regular fit; length 44 inches on size M',
  dress: 'Relaxed fit; length 46 inches on size M',
  anarkali: 'Fitted bodice; length 54 inches on size M',
  shirt: 'Relaxed fit; the model is 6 ft and wears M',
  sherwani: 'Tailored fit; length 42 inches on size M',
  jacket: 'Slim fit; length 28 inches on size M',
  'mens-kurta': 'Regular fit; length 41 inches on size M',
  tee: 'Boxy fit; size down for a closer fit',
  performance: 'Athletic fit; length 27 inches on size M',
}

const lowerFirst = (s: string) => s.replace(/^[A-Z](?=[a-z])/, (c) => c.toLowerCase())
const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/** The list of colours in prose ("maroon, gold and teal"). */
export function colourList(colors: readonly ColorDef[]): string {
  const names = colors.map((c) => c.label.toLowerCase())
  return names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
}

/** The product description (HTML) of a configurable garment. */
export function garmentDescription(
  rng: Rng,
  g: GarmentDef,
  fabric: string,
  spec: FabricSpec,
  designer: string,
  colors: readonly ColorDef[],
): string {
  const opening = rng
    .pick(OPENINGS[g.key] ?? OPENINGS.kurta ?? [''])
    .replace('{f}', lowerFirst(fabric))
    .replace('{d}', designer)
  return [
    `<p>${escapeHtml(opening)}</p>`,
    `<p>${escapeHtml(spec.craft)} Available in ${colourList(colors)}.</p>`,
    '<ul>',
    `<li>Fabric: ${escapeHtml(spec.material)}</li>`,
    `<li>Fit: ${escapeHtml(FITS[g.key] ?? 'Regular fit')}</li>`,
    `<li>Care: ${escapeHtml(spec.care)}</li>`,
    '</ul>',
  ].join('')
}

/** Body measurements in inches per size (XS to XXL), per garment type, with the columns they fill. */
const CHARTS: Readonly<Record<string, { columns: string[]; xs: number[]; step: number[] }>> = {
  saree: { columns: ['Bust', 'Under-bust', 'Blouse length'], xs: [32, 27, 13.5], step: [2, 2, 0.5] },
  lehenga: { columns: ['Bust', 'Waist', 'Hip', 'Skirt length'], xs: [32, 25, 35, 40], step: [2, 2, 2, 0.5] },
  kurta: { columns: ['Bust', 'Waist', 'Hip', 'Kurta length'], xs: [32, 26, 35, 43], step: [2, 2, 2, 0.5] },
  dress: { columns: ['Bust', 'Waist', 'Hip', 'Dress length'], xs: [32, 26, 35, 45], step: [2, 2, 2, 0.5] },
  anarkali: { columns: ['Bust', 'Waist', 'Anarkali length'], xs: [32, 26, 53], step: [2, 2, 0.5] },
  shirt: {
    columns: ['Chest', 'Waist', 'Shoulder', 'Sleeve', 'Length'],
    xs: [36, 30, 16.5, 24, 28.5],
    step: [2, 2, 0.5, 0.5, 0.5],
  },
  sherwani: {
    columns: ['Chest', 'Waist', 'Shoulder', 'Sherwani length'],
    xs: [36, 30, 16.5, 41],
    step: [2, 2, 0.5, 0.5],
  },
  jacket: {
    columns: ['Chest', 'Waist', 'Shoulder', 'Length'],
    xs: [36, 30, 16.5, 27],
    step: [2, 2, 0.5, 0.5],
  },
  'mens-kurta': { columns: ['Chest', 'Shoulder', 'Kurta length'], xs: [36, 16.5, 40], step: [2, 0.5, 0.5] },
  tee: { columns: ['Chest', 'Shoulder', 'Length'], xs: [36, 17, 26.5], step: [2, 0.5, 0.5] },
  performance: { columns: ['Chest', 'Waist', 'Sleeve'], xs: [36, 30, 24], step: [2, 2, 0.5] },
}

const fmt = (inches: number) => `${inches} (${Math.round(inches * 2.54)} cm)`

/** A size chart per garment type (sarees: the blouse the stitching option makes). */
export function buildSizeGuides() {
  const withGuide = [...GARMENTS.filter((g) => !g.freeSize), ...GARMENTS.filter((g) => g.freeSize)]
  return withGuide.map((g, k) => {
    const chart = CHARTS[g.key] ?? (CHARTS.kurta as NonNullable<(typeof CHARTS)[string]>)
    const title = g.freeSize
      ? `${g.label} blouse size guide`
      : `${g.key === 'mens-kurta' ? "Men's kurta" : g.label} size guide`
    return {
      id: k + 1,
      code: g.key,
      doc: {
        id: k + 1,
        code: g.key,
        title,
        unit: 'in',
        columns: ['Size', ...chart.columns],
        rows: APPAREL_SIZES.map((s, n) => [
          s.label,
          ...chart.xs.map((x, c) => fmt(x + n * (chart.step[c] ?? 0))),
        ]),
        note: g.freeSize
          ? 'The saree is free size. Blouse measurements in inches (centimetres); choose stitching to have the blouse piece made to your size.'
          : 'Body measurements in inches (centimetres); lengths are garment lengths from the shoulder. Between sizes? Choose the larger size.',
      },
    }
  })
}
