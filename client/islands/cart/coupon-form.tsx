/**
 * Coupon apply/remove: offered only while the cart is connected to the server (coupons live in the
 * server cart). The outcome is said beside the field: the applied code, or that the code was refused.
 */

import { computed } from '@preact/signals-core'
import { FIELD_MAX_CHARS } from '@shared/config/fields'
import { MSG } from '@shared/i18n/messages'
import { useState } from 'react'
import { getRuntime } from '../../engines/runtime/runtime'
import { cartCoupon, isCartConnected } from '../../state/cart'
import { useSignalValue } from '../../state/use-signal'

/** The applied coupon's code, or null. */
const appliedCoupon = computed(() => cartCoupon.value?.code ?? null)

export function CouponForm() {
  const connected = useSignalValue(isCartConnected)
  const coupon = useSignalValue(appliedCoupon)
  const [code, setCode] = useState('')
  const [busy, setBusy] = useState(false)
  const [refused, setRefused] = useState<string | null>(null)
  if (!connected) return null
  if (coupon) {
    return (
      <div className="coupon" data-testid="coupon-applied">
        <p>
          Discount code <strong>{coupon}</strong> applied
        </p>
        <button
          type="button"
          className="btn btn--link"
          disabled={busy}
          onClick={async () => {
            setBusy(true)
            await getRuntime()
              .cart.removeCoupon()
              .finally(() => setBusy(false))
          }}
        >
          Remove code
        </button>
      </div>
    )
  }
  return (
    <form
      className="coupon"
      onSubmit={async (e) => {
        e.preventDefault()
        if (!code.trim()) return
        setBusy(true)
        const ok = await getRuntime()
          .cart.applyCoupon(code.trim())
          .finally(() => setBusy(false))
        if (ok) setCode('')
        setRefused(ok ? null : code.trim())
      }}
    >
      <label htmlFor="coupon-code">Discount code</label>
      <div className="coupon__row">
        <input
          id="coupon-code"
          value={code}
          maxLength={FIELD_MAX_CHARS.coupon}
          onChange={(e) => {
            setCode(e.currentTarget.value)
            setRefused(null)
          }}
          autoComplete="off"
          aria-invalid={refused ? true : undefined}
          aria-describedby={refused ? 'coupon-feedback' : undefined}
          data-testid="coupon-input"
        />
        <button type="submit" className="btn btn--secondary" disabled={busy || !code.trim()}>
          Apply
        </button>
      </div>
      {refused ? (
        <p
          id="coupon-feedback"
          className="form-error coupon__feedback"
          role="alert"
          data-testid="coupon-feedback"
        >
          {MSG.couponRefused}
        </p>
      ) : null}
    </form>
  )
}
