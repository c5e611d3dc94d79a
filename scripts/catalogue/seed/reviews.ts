/**
 * Product reviews of the first 60 products: approved, pending (status 2) and some rejected (3),
 * each with a 1–5 star rating and text that fits the rating and the product. Every reviewed
 * product's document carries the average and count of its approved ratings.
 */
import type { Product, Review } from '../../../shared/schemas/catalog'
import { addDays } from './context'
import type { Rng } from './prng'
import { GENERATED_AT } from './types'

/** The name of the one rating a review carries (stars, 1–5). */
const RATING_NAME = 'Rating'

/** Titles and texts by star rating; {p} is the product's garment word (saree, kurta, bag, ...). */
const BY_STARS: Readonly<Record<number, { titles: readonly string[]; texts: readonly string[] }>> = {
  5: {
    titles: [
      'Worth every rupee',
      'An heirloom already',
      'Better than the pictures',
      'Compliments all evening',
      'Perfect',
    ],
    texts: [
      'Wore this {p} to my cousin’s wedding and three aunts asked where it was from. The fabric feels even richer in person.',
      'The finish inside is as neat as outside, which tells you everything. Arrived beautifully packed, with a handwritten card.',
      'I was nervous ordering a {p} online, but the size chart was spot on and the colour is exactly as shown.',
      'Bought it for my mother’s sixtieth. She has not stopped talking about the embroidery.',
      'Light, breathable and it drapes beautifully. I have already ordered a second colour.',
      'Customer care helped me choose between two sizes over WhatsApp; the one they suggested fits like it was made for me.',
    ],
  },
  4: {
    titles: ['Lovely, runs slightly large', 'Beautiful work', 'Very happy', 'Great quality, slow delivery'],
    texts: [
      'Gorgeous {p}, though it runs a little large: I would size down next time.',
      'Beautiful craftsmanship. The colour is a shade deeper than on my screen, but I actually prefer it.',
      'The fabric is lovely and the stitching neat. Delivery took a few days longer than estimated.',
      'Really pretty and comfortable for a long day. One loose thread at the hem, easily fixed.',
      'Lovely {p}; the alteration in store was quick and free. Four stars only because the fabric creases easily.',
    ],
  },
  3: {
    titles: ['Nice, but not for me', 'Good, not great', 'Mixed feelings'],
    texts: [
      'The {p} is well made but the colour was more muted than I expected. Keeping it, but not sure I will wear it often.',
      'Good quality for the price; the fit across the shoulders is a bit tight for me.',
      'Pretty, but heavier than I imagined for summer. Better for winter weddings.',
    ],
  },
  2: {
    titles: ['Not as pictured', 'Disappointed with the fit'],
    texts: [
      'The embroidery is lovely but the {p} was far too long for me and the alteration took two weeks.',
      'The shade is quite different from the photo; the exchange was easy, though.',
    ],
  },
  1: {
    titles: ['Arrived damaged'],
    texts: [
      'The parcel arrived wet and the {p} had a stain on it. Customer care sent a replacement, but I had to wait ten days.',
    ],
  },
}

const NAMES = [
  'Priya S.',
  'Ananya R.',
  'Rohan M.',
  'Sneha K.',
  'Arjun P.',
  'Kavya N.',
  'Ishaan T.',
  'Diya B.',
  'Farah Q.',
  'Harpreet G.',
  'Lakshmi V.',
  'Neil D.',
  'Zoya H.',
  'Vikram A.',
  'Aditi J.',
  'Sameer C.',
]

/** Star ratings weighted the way a well-liked shop's are: mostly 4 and 5, a few low ones. */
function stars(rng: Rng): number {
  const r = rng.next()
  return r < 0.5 ? 5 : r < 0.8 ? 4 : r < 0.92 ? 3 : r < 0.97 ? 2 : 1
}

/** The garment word of a product: the last word of its name, lower case. */
const garmentWord = (name: string) =>
  (
    name
      .replace(/\s*\(.*\)$/, '')
      .split(' ')
      .at(-1) ?? 'piece'
  ).toLowerCase()

/** 0–3 reviews for each of the first 60 of `products`; those get `rating_summary` and `review_count`. */
export function buildReviews(rng: Rng, products: Product[]): Review[] {
  const out: Review[] = []
  let id = 1
  for (const p of products.slice(0, 60)) {
    const n = rng.int(0, 3)
    const used = new Set<string>()
    for (let k = 0; k < n; k++) {
      const status = k === 2 ? 2 : id % 17 === 0 ? 3 : 1
      const value = stars(rng)
      const pool = BY_STARS[value] ?? BY_STARS[5]
      let detail = rng.pick(pool?.texts ?? [''])
      // The same product never shows the same text twice.
      for (let t = 0; used.has(detail) && t < 8; t++) detail = rng.pick(pool?.texts ?? [''])
      used.add(detail)
      out.push({
        id,
        product_id: p.id,
        title: rng.pick(pool?.titles ?? ['']),
        detail: detail.replace('{p}', garmentWord(p.name)),
        nickname: rng.pick(NAMES),
        review_status: status,
        review_entity: 'product',
        ratings: [{ rating_name: RATING_NAME, value, percent: value * 20 }],
        created_at: addDays(GENERATED_AT, -rng.int(1, 300)),
      })
      id++
    }
  }
  summariseRatings(products, out)
  return out
}

/**
 * Writes each product's approved-review average (one decimal, null without one) and count into
 * its document.
 */
export function summariseRatings(products: Product[], reviews: Review[]) {
  const sums = new Map<number, { total: number; n: number }>()
  for (const r of reviews) {
    if (r.review_status !== 1) continue
    const value = (r.ratings as Array<{ value: number }>)[0]?.value ?? 0
    const s = sums.get(r.product_id) ?? { total: 0, n: 0 }
    sums.set(r.product_id, { total: s.total + value, n: s.n + 1 })
  }
  for (const p of products) {
    const s = sums.get(p.id)
    p.rating_summary = s ? Math.round((s.total / s.n) * 10) / 10 : null
    p.review_count = s?.n ?? 0
  }
}
