/**
 * The pay-now button of an unpaid order (confirmation, order page, account orders). It says what
 * happened in words: paid only when the server confirmed it; a failed or abandoned payment leaves
 * the button there to try again.
 */
import { useState } from 'react'
import { type OrderAccess, type PayResult, payOrder } from './payment'

export function PayNowButton({
  access,
  label,
  onSettled,
}: {
  access: OrderAccess
  /** What the button says ("Pay ₹5,299"); "Pay now" when the amount is not known. */
  label?: string | undefined
  /** Called after the server has answered for a payment (so the caller can reload the order). */
  onSettled?: (result: PayResult) => void
}) {
  const [busy, setBusy] = useState(false)
  const [note, setNote] = useState<string | null>(null)
  const pay = async () => {
    setBusy(true)
    setNote(null)
    let result: PayResult
    try {
      result = await payOrder(access)
    } catch (err) {
      result = { kind: 'error', message: (err as Error).message }
    }
    setBusy(result.kind === 'redirecting')
    if (result.kind === 'failed' || result.kind === 'error' || result.kind === 'processing')
      setNote(result.message)
    if (result.kind === 'dismissed')
      setNote('The payment was not completed. You can pay whenever you are ready.')
    onSettled?.(result)
  }
  return (
    <div className="pay-now">
      <button type="button" className="btn btn--primary" data-testid="pay-now" disabled={busy} onClick={pay}>
        {busy ? 'Opening payment…' : (label ?? 'Pay now')}
      </button>
      {note ? (
        <p role="status" data-testid="pay-now-note">
          {note}
        </p>
      ) : null}
    </div>
  )
}
