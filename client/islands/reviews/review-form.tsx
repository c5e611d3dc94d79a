/**
 * The product page's review form (rendered into the page's `product-reviews-form` slot): submit
 * shows the progress 'Adding a review ...', then 'You submitted your review for moderation.' on
 * success or 'Something went wrong. Try again in a few seconds.' on failure. Reviews are stored
 * pending; the listing shows approved ones only.
 */

import { TextField } from '@shared/components/checkout/form-field'
import { MSG } from '@shared/i18n/messages'
import { useState } from 'react'
import * as z from 'zod/mini'
import { api } from '../../api'
import { notify } from '../../state/notifications'
import { defineIsland } from '../define'

const ReviewFormPropsSchema = z.object({ productId: z.number(), productName: z.optional(z.string()) })
type ReviewFormProps = z.infer<typeof ReviewFormPropsSchema>

/** Stars a shopper may give: whole stars from 1 to 5 (the API refuses anything else). */
const STARS = [5, 4, 3, 2, 1] as const

/**
 * The /api/review/create body: the review of a product, its fields trimmed, with the author's
 * customer id (null for a guest) and the stars given (none when the shopper chose none).
 */
export function reviewBody(
  productId: number,
  f: { nickname: string; title: string; detail: string; rating?: number },
  customerId: number | null,
) {
  return {
    review: {
      product_id: productId,
      title: f.title.trim(),
      detail: f.detail.trim(),
      nickname: f.nickname.trim(),
      review_entity: 'product',
      customer_id: customerId,
      ...(f.rating ? { rating: f.rating } : {}),
    },
  }
}

const EMPTY = { nickname: '', title: '', detail: '', rating: 0 }

function ReviewForm({ productId, productName }: ReviewFormProps) {
  const [f, setF] = useState(EMPTY)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [status, setStatus] = useState<'idle' | 'sending' | 'sent'>('idle')

  const submit = async (e: React.FormEvent) => {
    e.preventDefault()
    const errs: Record<string, string> = {}
    for (const k of ['nickname', 'title', 'detail'] as const) if (!f[k].trim()) errs[k] = MSG.fieldRequired
    setErrors(errs)
    if (Object.keys(errs).length) return
    setStatus('sending')
    notify({ type: 'info', message: MSG.reviewAdding })
    try {
      const res = await api('review/create', { method: 'POST', body: reviewBody(productId, f, null) })
      if (res.code !== 200) throw new Error(String(res.result))
      notify({ type: 'success', message: MSG.reviewSubmitted })
      setF(EMPTY)
      setStatus('sent')
    } catch (err) {
      console.warn('review failed', err)
      notify({ type: 'error', message: MSG.reviewFailed })
      setStatus('idle')
    }
  }

  return (
    <form className="review-form" onSubmit={submit} noValidate data-testid="review-form">
      <h3>Add a review{productName ? ` of ${productName}` : ''}</h3>
      <fieldset className="review-form__stars">
        <legend>Your rating</legend>
        {STARS.map((n) => (
          <label key={n} className="custom-option__choice">
            <input
              type="radio"
              name="review-rating"
              value={n}
              checked={f.rating === n}
              onChange={() => setF({ ...f, rating: n })}
            />
            {n === 1 ? '1 star' : `${n} stars`}
          </label>
        ))}
      </fieldset>
      <TextField
        id="review-nickname"
        label="First name"
        value={f.nickname}
        onChange={(v) => setF({ ...f, nickname: v })}
        error={errors.nickname}
        autoComplete="given-name"
        required
      />
      <TextField
        id="review-title"
        label="Summary"
        value={f.title}
        onChange={(v) => setF({ ...f, title: v })}
        error={errors.title}
        required
      />
      <div className={`field${errors.detail ? ' field--error' : ''}`}>
        <label htmlFor="review-detail">
          Review<span aria-hidden="true"> *</span>
        </label>
        <textarea
          id="review-detail"
          rows={4}
          value={f.detail}
          onChange={(e) => setF({ ...f, detail: e.currentTarget.value })}
          aria-invalid={errors.detail ? true : undefined}
          aria-describedby={errors.detail ? 'review-detail-error' : undefined}
        />
        {errors.detail ? (
          <p id="review-detail-error" className="field__error" role="alert">
            {errors.detail}
          </p>
        ) : null}
      </div>
      <button type="submit" className="btn btn--primary" disabled={status === 'sending'}>
        {status === 'sending' ? MSG.reviewAdding : 'Add review'}
      </button>
      {status === 'sent' ? <p role="status">{MSG.reviewSubmitted}</p> : null}
    </form>
  )
}

export const ReviewFormIsland = defineIsland('review-form', ReviewForm, ReviewFormPropsSchema)
