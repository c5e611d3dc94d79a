/**
 * Server-rendered parts of the product page: custom attributes (label + value;
 * empty → placeholder), the sanitized description and the approved reviews (read with `use()`
 * inside a Suspense boundary, so they stream in and never fail the page).
 */
import { use } from 'react'
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
          <p className="review__detail">{r.detail}</p>
        </li>
      ))}
    </ul>
  )
}
