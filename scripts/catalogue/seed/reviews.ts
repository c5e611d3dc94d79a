/** Product reviews of the first 60 products: approved, pending (status 2) and some rejected (3). */
import type { Product, Review } from '../../../shared/schemas/catalog'
import { addDays } from './context'
import type { Rng } from './prng'
import { GENERATED_AT } from './types'

/** 0–3 reviews for each of the first 60 products. */
export function buildReviews(rng: Rng, products: Product[]): Review[] {
  const out: Review[] = []
  const titles = [
    'Absolutely beautiful',
    'Lovely fabric',
    'Fits perfectly',
    'Worth every rupee',
    'Colour slightly different',
    'Gorgeous work',
  ]
  const names = ['Priya', 'Ananya', 'Rohan', 'Sneha', 'Arjun', 'Kavya', 'Ishaan', 'Diya']
  let id = 1
  for (const p of products.slice(0, 60)) {
    const n = rng.int(0, 3)
    for (let k = 0; k < n; k++) {
      const status = k === 2 ? 2 : id % 17 === 0 ? 3 : 1
      out.push({
        id,
        product_id: p.id,
        title: rng.pick(titles),
        detail: `I bought the ${p.name} and ${rng.pick(['loved it', 'got many compliments', 'would buy again', 'the finish is excellent'])}.`,
        nickname: rng.pick(names),
        review_status: status,
        review_entity: 'product',
        ratings: [{ rating_name: 'Quality', value: rng.int(3, 5) }],
        created_at: addDays(GENERATED_AT, -rng.int(1, 300)),
      })
      id++
    }
  }
  return out
}
