/**
 * The cart page island (/cart): lines, totals and total segments from the cart store (the server's
 * segments when connected, a client-side sum otherwise), coupon, 'Proceed to checkout', and below
 * them "Complete the look" (./cart-look.tsx), whose module is loaded only once the lines are on
 * screen and the browser is idle, so it never delays the cart nor adds to its first script.
 */

import { TotalsSummary } from '@shared/components/checkout/totals-summary'
import { MSG } from '@shared/i18n/messages'
import { Suspense, useEffect, useState } from 'react'
import { startClientRuntimeSoon } from '../../engines/runtime/runtime'
import { cartItems, cartServerToken, cartTotals } from '../../state/cart'
import { useSignalValue } from '../../state/use-signal'
import { defineIsland } from '../define'
import { lazyPart } from '../lazy-part'
import { formatPageAmount, pagePriceNote } from '../page-price'
import { CartLines } from './cart-lines'
import { displayedSegments } from './cart-totals'
import { CouponForm } from './coupon-form'
import { RepriceNote } from './reprice-note'

const CartLook = lazyPart(() => import('./cart-look').then((m) => m.default))

/** Runs `then` once the browser is idle after the current paint (a timeout where idle callbacks are missing). */
function afterPaint(then: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(then, { timeout: 2000 })
    return () => cancelIdleCallback(id)
  }
  const id = setTimeout(then, 200)
  return () => clearTimeout(id)
}

/** The cart summary shared by the cart page and the microcart. */
export function CartSummary() {
  const items = useSignalValue(cartItems)
  const totals = useSignalValue(cartTotals)
  return (
    <div className="cart-summary">
      <RepriceNote hasLines={items.length > 0} />
      <TotalsSummary
        segments={displayedSegments(totals, items)}
        format={(n) =>
          formatPageAmount(
            n,
            typeof totals?.quote_currency_code === 'string' ? totals.quote_currency_code : undefined,
          )
        }
        note={pagePriceNote()}
      />
      <CouponForm />
    </div>
  )
}

function CartPage() {
  const items = useSignalValue(cartItems)
  const [mounted, setMounted] = useState(false)
  const [lookReady, setLookReady] = useState(false)
  const hasLines = items.length > 0
  useEffect(() => {
    if (mounted && hasLines && !lookReady) return afterPaint(() => setLookReady(true))
  }, [mounted, hasLines, lookReady])
  // The lines show once the stored cart is read (never an empty cart first).
  useEffect(() => {
    let live = true
    void startClientRuntimeSoon().then((rt) => {
      if (live) setMounted(true)
      // Fresh totals from the server once the cart is connected (a failure is logged by the engine).
      if (cartServerToken.peek()) void rt.cart.syncTotals()
    })
    return () => {
      live = false
    }
  }, [])
  // The server renders the empty shell: the cart lives in the browser only.
  if (!mounted) return <p className="cart-page__loading">Loading your cart…</p>
  if (items.length === 0) {
    return (
      <div className="cart-page cart-page--empty" data-testid="cart-empty">
        <p>Your shopping cart is empty.</p>
        <a className="btn" href="/">
          Continue shopping
        </a>
      </div>
    )
  }
  return (
    <>
      <div className="cart-page" data-testid="cart-page">
        <CartLines lines={items} />
        <aside className="cart-page__aside">
          <CartSummary />
          <a className="btn btn--primary btn--block" href="/checkout" data-testid="proceed-to-checkout">
            {MSG.proceedToCheckout}
          </a>
        </aside>
      </div>
      {lookReady ? (
        <Suspense fallback={null}>
          <CartLook lines={items} />
        </Suspense>
      ) : null}
    </>
  )
}

export const CartPageIsland = defineIsland('cart-page', CartPage)
