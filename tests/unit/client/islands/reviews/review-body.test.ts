import { describe, expect, it } from 'vitest'
import { reviewBody } from '../../../../../client/islands/reviews/review-form'

describe('review submission body', () => {
  it('posts {review} with the product id, trimmed texts and review_entity product', () => {
    expect(reviewBody(42, { nickname: ' Asha ', title: ' Lovely ', detail: ' Soft silk. ' }, null)).toEqual({
      review: {
        product_id: 42,
        title: 'Lovely',
        detail: 'Soft silk.',
        nickname: 'Asha',
        review_entity: 'product',
        customer_id: null,
      },
    })
  })

  it('carries the stars the shopper chose, and no rating when they chose none', () => {
    const f = { nickname: 'Asha', title: 'Lovely', detail: 'Soft silk.' }
    expect(reviewBody(42, { ...f, rating: 4 }, 7).review).toMatchObject({ rating: 4, customer_id: 7 })
    expect(reviewBody(42, { ...f, rating: 0 }, null).review).not.toHaveProperty('rating')
    expect(reviewBody(42, f, null).review).not.toHaveProperty('rating')
  })

  it('carries the fit answer and the uploaded photographs only when given', () => {
    const f = { nickname: 'Asha', title: 'Lovely', detail: 'Soft silk.' }
    const photo = `/r/${'a'.repeat(24)}.jpg`
    expect(reviewBody(42, { ...f, fit: 'small' }, null, [photo]).review).toMatchObject({
      fit: 'small',
      photos: [photo],
    })
    const bare = reviewBody(42, { ...f, fit: '' }, null, []).review
    expect(bare).not.toHaveProperty('fit')
    expect(bare).not.toHaveProperty('photos')
  })
})
