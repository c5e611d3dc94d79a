/**
 * Server-rendered parts of the product page: custom attributes (label + value;
 * empty → placeholder), the sanitized description and the approved reviews (read with `use()`
 * inside a Suspense boundary, so they stream in and never fail the page), each with its fit answer,
 * a verified-buyer mark when the reviewer received the piece, and its photographs.
 */
import { use } from 'react'
import { IMAGE_SIZES } from '../../config/images'
import { imageUrl } from '../../domain/image-url'
import { FIT_ANSWERS, FIT_LABELS } from '../../domain/review-fit'
import { sanitizeHtml } from '../../domain/sanitize-html'
import type { Review } from '../../schemas/catalog'
import type { AttributeRow } from './view'

export function CustomAttributes({ rows }: { rows: AttributeRow[] }) {
  if (rows.length === 0) return null
  return (
    <dl className="product-attributes" data-testid="custom-attributes">
      {rows.map((row) => (
        <div key={row.code} className="product-attributes__row" data-attribute={row.code}>
          <dt>{row.label}</dt>
          <dd>{row.value}</dd>
        </div>
      ))}
    </dl>
  )
}

/** The product description: CMS-style HTML from the catalogue, sanitized to the allow-list. */
export function ProductDescription({ html }: { html: string | null | undefined }) {
  const clean = sanitizeHtml(html)
  if (!clean) return null
  return (
    <div
      className="product-description cms-content"
      data-testid="product-description"
      // Sanitized by sanitizeHtml (allow-list) above.
      dangerouslySetInnerHTML={{ __html: clean }}
    />
  )
}

export function ReviewsList({ reviews }: { reviews: Promise<Review[]> }) {
  const list = use(reviews)
  if (list.length === 0) return <p className="reviews__empty">No reviews yet.</p>
  return (
    <ul className="reviews__list" data-testid="reviews-list">
      {list.map((r) => (
        <li key={r.id} className="review">
          <h3 className="review__title">{r.title}</h3>
          <p className="review__meta">
            {r.nickname} · <time dateTime={r.created_at}>{r.created_at.slice(0, 10)}</time>
          </p>
          <ReviewFacts review={r} />
          <p className="review__detail">{r.detail}</p>
          <ReviewPhotos review={r} />
        </li>
      ))}
    </ul>
  )
}

/** "Verified buyer · Fit: True to size", when the review says either. */
function ReviewFacts({ review }: { review: Review }) {
  const fit = FIT_ANSWERS.find((a) => a === review.fit)
  const verified = review.verified_buyer === true
  if (!fit && !verified) return null
  return (
    <p className="review__facts">
      {verified ? <span className="review__verified">Verified buyer</span> : null}
      {verified && fit ? ' · ' : null}
      {fit ? <span data-testid="review-fit">Fit: {FIT_LABELS[fit]}</span> : null}
    </p>
  )
}

/** The review's photographs, each linked to its larger size. */
function ReviewPhotos({ review }: { review: Review }) {
  const photos = Array.isArray(review.photos)
    ? review.photos.filter((p): p is string => typeof p === 'string' && p.startsWith('/r/'))
    : []
  if (photos.length === 0) return null
  const { cart, gallery } = IMAGE_SIZES
  return (
    <ul className="review__photos" aria-label={`Photographs from ${review.nickname}`}>
      {photos.map((p, i) => (
        <li key={p}>
          <a href={imageUrl(p, gallery.width, gallery.height)}>
            <img
              src={imageUrl(p, cart.width, cart.height)}
              alt={`Photograph ${i + 1} from ${review.nickname}`}
              width={cart.width}
              height={cart.height}
              loading="lazy"
              decoding="async"
              data-testid="review-photo"
            />
          </a>
        </li>
      ))}
    </ul>
  )
}
