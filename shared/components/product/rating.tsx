/**
 * Star ratings: the average of a product's approved reviews (each review's first rating, 1–5
 * stars), shown as five stars filled to the average with the number and count beside them, on
 * tiles and the product page, and given to search engines as the product's aggregateRating.
 */
import { msgRatingLabel } from '../../i18n/messages'

export interface RatingSummary {
  /** Average stars, one decimal (1–5). */
  average: number
  count: number
}

/** The stars one review gives: its first rating's value (1–5), or its percent / 20. */
function stars(review: { ratings?: unknown }): number | null {
  const first = Array.isArray(review.ratings)
    ? (review.ratings[0] as Record<string, unknown> | undefined)
    : undefined
  if (!first) return null
  const value = Number(first.value)
  if (Number.isFinite(value) && value >= 1 && value <= 5) return value
  const percent = Number(first.percent)
  if (Number.isFinite(percent) && percent > 0 && percent <= 100) return percent / 20
  return null
}

/** The average of the reviews that carry a rating, or null when none does. */
export function reviewsRating(reviews: ReadonlyArray<{ ratings?: unknown }>): RatingSummary | null {
  const values = reviews.map(stars).filter((v): v is number => v !== null)
  if (values.length === 0) return null
  const average = Math.round((values.reduce((s, v) => s + v, 0) / values.length) * 10) / 10
  return { average, count: values.length }
}

/** The rating a catalogue document carries (`rating_summary` average and `review_count`), or null. */
export function documentRating(doc: {
  rating_summary?: unknown
  review_count?: unknown
}): RatingSummary | null {
  const average = Number(doc.rating_summary)
  const count = Number(doc.review_count)
  if (!Number.isFinite(average) || average < 1 || average > 5 || !Number.isInteger(count) || count < 1)
    return null
  return { average: Math.round(average * 10) / 10, count }
}

/** Five stars filled to the average, with the number and the count (one label for screen readers). */
export function StarRating({ rating, compact = false }: { rating: RatingSummary; compact?: boolean }) {
  const label = msgRatingLabel(rating.average, rating.count)
  return (
    <p
      className={compact ? 'rating rating--compact' : 'rating'}
      data-testid="rating"
      data-average={rating.average}
    >
      <span
        className="rating__stars"
        role="img"
        aria-label={label}
        style={{ '--rating': rating.average } as never}
      />
      <span className="rating__value" aria-hidden="true">
        {rating.average.toFixed(1)} ({rating.count})
      </span>
    </p>
  )
}
