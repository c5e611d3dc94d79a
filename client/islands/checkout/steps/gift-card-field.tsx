/**
 * "Have a gift card?" on the payment step of a signed-in shopper (and under My store credit): the
 * code is redeemed into the shopper's store credit (once; the server checks it), which the
 * checkout then applies.
 */
import { useState } from 'react'
import { api } from '../../../api'
import { storeCredit, userToken } from '../../../state/user'

export function GiftCardField({
  onRedeemed,
  redeemedText = 'The gift card was added to your store credit and applied to this order.',
}: {
  onRedeemed: () => void
  redeemedText?: string
}) {
  const [code, setCode] = useState('')
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null)
  const [busy, setBusy] = useState(false)
  const redeem = async () => {
    setBusy(true)
    try {
      const res = await api<{ credited: number; total_balance: number } | string>('giftcard/redeem', {
        method: 'POST',
        token: userToken.peek(),
        body: { code },
      })
      if (res.code === 200 && typeof res.result === 'object') {
        storeCredit.value = { ...storeCredit.peek(), total_balance: res.result.total_balance }
        setCode('')
        setNote({ ok: true, text: redeemedText })
        onRedeemed()
      } else {
        setNote({ ok: false, text: String(res.result) })
      }
    } catch (err) {
      setNote({ ok: false, text: (err as Error).message })
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="field-row checkout__gift-card">
      <label htmlFor="payment-giftCard">Gift card code</label>
      <input
        id="payment-giftCard"
        value={code}
        autoComplete="off"
        placeholder="XXXX-XXXX-XXXX-XXXX"
        onChange={(e) => setCode(e.target.value)}
      />
      <button type="button" className="btn" disabled={busy || code.trim() === ''} onClick={redeem}>
        Redeem
      </button>
      {note ? (
        <p role={note.ok ? 'status' : 'alert'} className={note.ok ? undefined : 'field__error'}>
          {note.text}
        </p>
      ) : null}
    </div>
  )
}
