// The demo's home banners as a shopper sees them: each picture the home page asks for, cropped the
// way the page shows it (object-fit: cover in a box of a fixed aspect ratio), shows its figures
// whole, and the phone pictures (shown whole) end without a darker strip along their bottom edge.
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { generateCatalogue } from '../../../../../scripts/catalogue/seed/generate'
import { IMAGE_SIZES } from '../../../../../shared/config/images'
import { renderImage } from '../../../../../worker/pages/images/svg'

interface Banner {
  image: string
  mobile_image?: string | null
}
interface HomeContent {
  head_image: Banner
  banners: { main: Banner[]; small: Banner[]; product: Banner[] }
}

const home = (generateCatalogue().content as unknown as { home: HomeContent }).home

// The renditions the home page requests: the 'policy' size for wide screens, the gallery size for
// phones (worker/pages/home/route.tsx), and the boxes its CSS shows them in.
const DESKTOP = IMAGE_SIZES.policy
const PHONE = IMAGE_SIZES.gallery
const HERO_WIDE = 12 / 5
const SMALL = 4 / 3
const PRODUCT_WIDE = 3 / 1

interface Rect {
  x: number
  y: number
  w: number
  h: number
}

/** The part of a `width` × `height` picture a box of `aspect` (w/h) shows with object-fit: cover. */
function coverCrop(width: number, height: number, aspect: number): Rect {
  if (width / height > aspect) {
    const w = height * aspect
    return { x: (width - w) / 2, y: 0, w, h: height }
  }
  const h = width / aspect
  return { x: 0, y: (height - h) / 2, w: width, h }
}

/** The figures of a banner: each one's 300 × 450 drawing box, placed in the picture. */
function figureBoxes(svg: string): Rect[] {
  return [
    ...svg.matchAll(/<g class="figure" transform="translate\(([-\d.]+) ([-\d.]+)\) scale\(([\d.]+)\)">/g),
  ].map((m) => {
    const [x, y, s] = [Number(m[1]), Number(m[2]), Number(m[3])]
    return { x, y, w: 300 * s, h: 450 * s }
  })
}

const within = (a: Rect, b: Rect) =>
  a.x >= b.x - 0.5 && a.y >= b.y - 0.5 && a.x + a.w <= b.x + b.w + 0.5 && a.y + a.h <= b.y + b.h + 0.5

/** Every picture the home page shows, at the size it requests and the aspect ratios it shows it in. */
function shown(): Array<{ path: string; width: number; height: number; aspects: number[] }> {
  const out: Array<{ path: string; width: number; height: number; aspects: number[] }> = []
  const add = (b: Banner, aspects: number[]) => {
    out.push({ path: b.image, ...DESKTOP, aspects })
    if (b.mobile_image) out.push({ path: b.mobile_image, ...PHONE, aspects: [PHONE.width / PHONE.height] })
  }
  // A hero slide without a phone picture shows its wide one in the phone box.
  for (const b of [home.head_image, ...home.banners.main])
    add(b, b.mobile_image ? [HERO_WIDE] : [HERO_WIDE, PHONE.width / PHONE.height])
  for (const b of home.banners.small) add(b, [SMALL])
  for (const b of home.banners.product) add(b, [PRODUCT_WIDE, SMALL])
  return out
}

describe('home banners as the page shows them', () => {
  it('asks for the head image and the hero banners in both renditions', () => {
    const paths = shown().map((s) => s.path)
    expect(paths).toContain(home.head_image.image)
    expect(paths).toContain(home.head_image.mobile_image)
    expect(paths.length).toBeGreaterThanOrEqual(8)
  })

  it('shows every figure whole in every crop the page makes', () => {
    for (const { path, width, height, aspects } of shown()) {
      const svg = renderImage(path, width, height) as string
      const figures = figureBoxes(svg)
      expect(figures.length, path).toBeGreaterThan(0)
      for (const aspect of aspects) {
        const crop = coverCrop(width, height, aspect)
        for (const f of figures)
          expect(within(f, crop), `${path} at ${width}x${height} shown ${aspect.toFixed(2)}:1`).toBe(true)
        // And big enough to read as the subject: at least two fifths of the height shown.
        const tallest = Math.max(...figures.map((f) => f.h))
        expect(tallest / crop.h, `${path} figure size`).toBeGreaterThan(0.4)
      }
    }
  })

  it('ends the phone pictures without a darker strip along the bottom edge', async () => {
    for (const { path, width, height } of shown().filter((s) => s.width === PHONE.width)) {
      const svg = renderImage(path, width, height) as string
      const { data, info } = await sharp(Buffer.from(svg))
        .removeAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true })
      const rowLuma = (y: number) => {
        let sum = 0
        for (let x = 0; x < info.width; x++) {
          const i = (y * info.width + x) * info.channels
          sum += 0.2126 * (data[i] ?? 0) + 0.7152 * (data[i + 1] ?? 0) + 0.0722 * (data[i + 2] ?? 0)
        }
        return sum / info.width
      }
      const mean = (from: number, to: number) => {
        let sum = 0
        for (let y = from; y < to; y++) sum += rowLuma(y)
        return sum / (to - from)
      }
      // The picture's ground: the median brightness of all its pixels (figures and lettering
      // cover well under half of it).
      const all: number[] = []
      for (let i = 0; i < data.length; i += info.channels)
        all.push(0.2126 * (data[i] ?? 0) + 0.7152 * (data[i + 1] ?? 0) + 0.0722 * (data[i + 2] ?? 0))
      all.sort((p, q) => p - q)
      const ground = all[Math.floor(all.length / 2)] ?? 0
      const band = Math.round(info.height * 0.05)
      const bottom = mean(info.height - band, info.height)
      expect(bottom / ground, `${path}: the bottom ${band} px against the ground`).toBeGreaterThan(0.9)
    }
  })
})
