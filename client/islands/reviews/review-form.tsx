/**
 * The product page's review form (rendered into the page's `product-reviews-form` slot): submit
 * shows the progress 'Adding a review ...', then 'You submitted your review for moderation.' on
 * success, or the refusal in words ('Something went wrong. Try again in a few seconds.' when it
 * cannot be said). Reviews are stored pending; the listing shows approved ones only. The shopper may
 * say how the piece fits and add up to three photographs: each is shrunk in the browser (longest
 * edge PHOTO_EDGE px, JPEG) so it stays under the API's 1 MB limit, and uploaded before the review
 * is sent. A signed-in shopper's review carries their token, so the API can mark a verified buyer.
 */

import { TextField } from '@shared/components/checkout/form-field'
import { FIT_ANSWERS, FIT_LABELS, type FitAnswer } from '@shared/domain/review-fit'
import { shopperMessage } from '@shared/i18n/api-words'
import { MSG } from '@shared/i18n/messages'
import { useState } from 'react'
import * as z from 'zod/mini'
import { api } from '../../api'
import { notify } from '../../state/notifications'
import { currentUser, userToken } from '../../state/user'
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
  f: { nickname: string; title: string; detail: string; rating?: number; fit?: FitAnswer | '' },
  customerId: number | null,
  photos: string[] = [],
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
      ...(f.fit ? { fit: f.fit } : {}),
      ...(photos.length ? { photos } : {}),
    },
  }
}

/** Photographs one review may carry (the API's limit). */
const MAX_PHOTOS = 3
/** The longest edge a photograph is shrunk to before upload. */
const PHOTO_EDGE = 1600

/** The picture shrunk to PHOTO_EDGE px on its longest edge, as a JPEG (the file itself if it cannot be drawn). */
async function shrink(file: File): Promise<Blob> {
  try {
    const bitmap = await createImageBitmap(file)
    const scale = Math.min(1, PHOTO_EDGE / Math.max(bitmap.width, bitmap.height))
    const canvas = document.createElement('canvas')
    canvas.width = Math.round(bitmap.width * scale)
    canvas.height = Math.round(bitmap.height * scale)
    canvas.getContext('2d')?.drawImage(bitmap, 0, 0, canvas.width, canvas.height)
    const blob = await new Promise<Blob | null>((done) => canvas.toBlob(done, 'image/jpeg', 0.85))
    return blob ?? file
  } catch {
    return file
  }
}

const PHOTO_TOO_LARGE = 'This photograph is too large. Please choose a smaller picture.'

/** Uploads one photograph; its public path, or the refusal in words. */
async function uploadPhoto(file: File): Promise<string> {
  const res = await fetch('/api/review/photo', {
    method: 'POST',
    body: await shrink(file),
    credentials: 'same-origin',
  })
  const body = (await res.json().catch(() => null)) as {
    code?: number
    result?: { photo?: string } | string
  } | null
  const result = body?.result
  if (res.ok && result && typeof result === 'object' && typeof result.photo === 'string') return result.photo
  // A body over the API's own limit is refused before the photo rules read it: said the same way.
  if (res.status === 400 || res.status === 413) throw new Error(PHOTO_TOO_LARGE)
  throw new Error(shopperMessage(typeof result === 'string' ? result : null, MSG.reviewFailed))
}

/** One question answered by a radio choice (the stars, the fit). */
function Choices<T extends string | number>(props: {
  legend: string
  name: string
  options: ReadonlyArray<readonly [T, string]>
  value: T | ''
  onChange: (value: T) => void
}) {
  return (
    <fieldset className="review-form__stars">
      <legend>{props.legend}</legend>
      {props.options.map(([value, label]) => (
        <label key={value} className="custom-option__choice">
          <input
            type="radio"
            name={props.name}
            value={value}
            checked={props.value === value}
            onChange={() => props.onChange(value)}
          />
          {label}
        </label>
      ))}
    </fieldset>
  )
}

const EMPTY = { nickname: '', title: '', detail: '', rating: 0, fit: '' as FitAnswer | '' }

function ReviewForm({ productId, productName }: ReviewFormProps) {
  const [f, setF] = useState(EMPTY)
  const [files, setFiles] = useState<File[]>([])
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
      const photos: string[] = []
      for (const file of files) photos.push(await uploadPhoto(file))
      const token = userToken.value
      const customerId = token ? (currentUser.value?.id ?? null) : null
      const res = await api('review/create', {
        method: 'POST',
        token,
        body: reviewBody(productId, f, customerId, photos),
      })
      if (res.code !== 200)
        throw new Error(shopperMessage(typeof res.result === 'string' ? res.result : null, MSG.reviewFailed))
      notify({ type: 'success', message: MSG.reviewSubmitted })
      setF(EMPTY)
      setFiles([])
      setStatus('sent')
    } catch (err) {
      console.warn('review failed', err)
      const message = err instanceof Error && err.message ? err.message : MSG.reviewFailed
      setErrors({ form: message })
      notify({ type: 'error', message })
      setStatus('idle')
    }
  }

  return (
    <form className="review-form" onSubmit={submit} noValidate data-testid="review-form">
      <h3>Add a review{productName ? ` of ${productName}` : ''}</h3>
      <Choices
        legend="Your rating"
        name="review-rating"
        options={STARS.map((n) => [n, n === 1 ? '1 star' : `${n} stars`] as const)}
        value={f.rating}
        onChange={(rating) => setF({ ...f, rating })}
      />
      <Choices
        legend="How does it fit?"
        name="review-fit"
        options={FIT_ANSWERS.map((a) => [a, FIT_LABELS[a]] as const)}
        value={f.fit}
        onChange={(fit) => setF({ ...f, fit })}
      />
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
      <div className="field">
        <label htmlFor="review-photos">Photographs (up to {MAX_PHOTOS}, optional)</label>
        <input
          id="review-photos"
          type="file"
          accept="image/jpeg,image/png,image/webp"
          multiple
          aria-describedby="review-photos-note"
          onChange={(e) => setFiles([...(e.currentTarget.files ?? [])].slice(0, MAX_PHOTOS))}
        />
        <p id="review-photos-note" className="field__hint">
          {files.length
            ? `${files.length} of ${MAX_PHOTOS} chosen. They are shown once the review is approved.`
            : 'JPEG, PNG or WebP. They are shown once the review is approved.'}
        </p>
      </div>
      {errors.form ? (
        <p className="field__error" role="alert">
          {errors.form}
        </p>
      ) : null}
      <button type="submit" className="btn btn--primary" disabled={status === 'sending'}>
        {status === 'sending' ? MSG.reviewAdding : 'Add review'}
      </button>
      {status === 'sent' ? <p role="status">{MSG.reviewSubmitted}</p> : null}
    </form>
  )
}

export const ReviewFormIsland = defineIsland('review-form', ReviewForm, ReviewFormPropsSchema)
