/**
 * "Notify me" for an out-of-stock product or size: an e-mail address sent to POST /api/stock-alerts.
 * Loaded only when the shopper opens it, so it costs the product page nothing until then. The
 * answer is shown beside the field: the confirmation, or the server's reason (bad address, limit).
 */
import { MSG, PRODUCT_EXTRA_MSG } from '@shared/i18n/messages'
import { useState } from 'react'
import { apiRaw } from '../../api'

export function NotifyMe({ sku }: { sku: string }) {
  const [email, setEmail] = useState('')
  const [state, setState] = useState<{ ok: boolean; text: string } | null>(null)
  const [busy, setBusy] = useState(false)
  async function submit(e: { preventDefault: () => void }) {
    e.preventDefault()
    setBusy(true)
    try {
      const { status, body } = await apiRaw('/api/stock-alerts', { body: { email, sku } })
      const result = (body as { result?: unknown }).result
      setState(
        status === 200
          ? { ok: true, text: PRODUCT_EXTRA_MSG.notifyMeDone }
          : { ok: false, text: typeof result === 'string' ? result : MSG.reviewFailed },
      )
    } catch {
      setState({ ok: false, text: PRODUCT_EXTRA_MSG.offlineTryAgain })
    } finally {
      setBusy(false)
    }
  }
  if (state?.ok)
    return (
      <p className="notify-me__done" role="status" data-testid="notify-me-done">
        {state.text}
      </p>
    )
  return (
    <form className="notify-me" onSubmit={(e) => void submit(e)} data-testid="notify-me-form" noValidate>
      <label htmlFor="notify-me-email">{PRODUCT_EXTRA_MSG.notifyMeLabel}</label>
      <span className="notify-me__row">
        <input
          id="notify-me-email"
          type="email"
          autoComplete="email"
          required
          value={email}
          aria-invalid={state ? !state.ok : undefined}
          aria-describedby={state ? 'notify-me-error' : undefined}
          onChange={(e) => setEmail(e.currentTarget.value)}
        />
        <button type="submit" className="btn btn--secondary" disabled={busy}>
          {MSG.notifyMe}
        </button>
      </span>
      {state ? (
        <span id="notify-me-error" className="form-error" role="alert">
          {state.text}
        </span>
      ) : null}
    </form>
  )
}

export { answerPinForm } from './delivery-check'
