/** Reviews: the ones waiting for moderation (approve, reject) and the newest published ones. */

import { FIT_ANSWERS, FIT_LABELS } from '@shared/domain/review-fit'
import type { Context } from 'hono'
import type { ReactNode } from 'react'
import type { AdminEnv } from '../env'
import type { PendingReview } from '../reviews'
import { Confirm, PostForm, when } from './components'
import { renderAdmin } from './frame'

/**
 * Every review can be deleted, in two steps: "Delete…" opens the real button, which says what it
 * removes. The route behind it checks the operator's role and CSRF token like the other
 * moderation buttons and recomputes the product's rating.
 */
function ReviewCard(props: { review: PendingReview; children?: ReactNode }) {
  const r = props.review
  return (
    <article className="card" aria-labelledby={`review-${r.id}`}>
      <h3 id={`review-${r.id}`}>{r.title}</h3>
      <p>
        {r.nickname} on {r.product_name ?? r.sku ?? `product ${r.product_id}`} · {when(r.created_at)}
      </p>
      <p>{r.detail}</p>
      <ReviewFacts review={r} />
      {props.children}
      <Confirm
        needs="reviews"
        summary="Delete…"
        summaryLabel={`Delete review ${r.title}…`}
        explanation="This removes the review for good and recomputes the product's rating."
        action={`/admin/api/reviews/${r.id}/delete`}
        back="/admin/reviews"
        label="Delete for good"
        buttonLabel={`Delete review ${r.title} for good`}
      />
    </article>
  )
}

/** The review's fit answer, verified-buyer mark and photographs (served to operators only). */
function ReviewFacts({ review: r }: { review: PendingReview }) {
  const fit = FIT_ANSWERS.find((a) => a === r.fit)
  const photos = r.photos ? (JSON.parse(r.photos) as string[]) : []
  return (
    <>
      {fit || r.verified_buyer ? (
        <p>
          {fit ? `Fit: ${FIT_LABELS[fit]}` : null}
          {fit && r.verified_buyer ? ' · ' : null}
          {r.verified_buyer ? 'Verified buyer (a delivered order of this product)' : null}
        </p>
      ) : null}
      {photos.length ? (
        <ul className="review-photos" aria-label={`Photographs with review ${r.title}`}>
          {photos.map((p, i) => (
            <li key={p}>
              <a href={`/admin/reviews/photo/${p.slice(3)}`}>
                <img
                  src={`/admin/reviews/photo/${p.slice(3)}`}
                  alt={`Photograph ${i + 1} of ${photos.length} sent with review ${r.title}`}
                  width={160}
                  height={200}
                  loading="lazy"
                  data-testid="admin-review-photo"
                />
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </>
  )
}

/** What a waiting review may be told: the route's last segment and its button (rejecting is red). */
const VERDICTS = [
  ['approve', 'Approve'],
  ['reject', 'Reject'],
] as const

export function reviewsPage(c: Context<AdminEnv>, reviews: PendingReview[], published: PendingReview[]) {
  return renderAdmin(
    c,
    'Reviews to moderate',
    <>
      <section aria-labelledby="reviews-waiting">
        <h2 id="reviews-waiting">Waiting</h2>
        {reviews.length ? (
          reviews.map((r) => (
            <ReviewCard key={r.id} review={r}>
              {VERDICTS.map(([verdict, label]) => (
                <PostForm
                  key={verdict}
                  needs="reviews"
                  action={`/admin/api/reviews/${r.id}/${verdict}`}
                  back="/admin/reviews"
                  label={label}
                  buttonLabel={`${label} review ${r.title}`}
                  danger={verdict === 'reject'}
                />
              ))}
            </ReviewCard>
          ))
        ) : (
          <p>No review is waiting.</p>
        )}
      </section>
      <section aria-labelledby="reviews-published">
        <h2 id="reviews-published">Published (newest first)</h2>
        {published.length ? (
          published.map((r) => <ReviewCard key={r.id} review={r} />)
        ) : (
          <p>No review is published.</p>
        )}
      </section>
    </>,
  )
}
