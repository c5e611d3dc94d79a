/**
 * The checkout form's state as a hook: restored from this device when the page opens, persisted on
 * every change (never the password), every change stamping the 30-minute activity window; a
 * signed-in shopper's details and default addresses prefilled; the default payment method
 * chosen once the offered ones are known, and a method no longer offered replaced, saying why.
 */

import type { PaymentMethodConfig } from '@shared/config/checkout'
import { useEffect, useState } from 'react'
import { startClientRuntimeSoon } from '../../engines/runtime/runtime'
import type { CurrentUser } from '../../state/user'
import { savedAddresses, withAddressBook } from './address-book'
import { loadCheckoutDetails, saveCheckoutDetails } from './checkout-details'
import {
  type CheckoutState,
  emptyCheckoutState,
  persistableCheckout,
  reopenedCheckout,
  reselectPaymentMethod,
  selectPaymentMethod,
  withSignedInUser,
} from './checkout-state'

export function useCheckoutState(
  country: string,
  user: CurrentUser | null,
  offered: readonly PaymentMethodConfig[],
  unavailable: readonly { code: string; reason: string }[] = [],
) {
  const [state, setState] = useState<CheckoutState>(() => emptyCheckoutState(country))
  const [loaded, setLoaded] = useState(false)

  // Restore the persisted checkout (the password is never persisted), shown once the stored cart
  // is read too (never an empty checkout first).
  useEffect(() => {
    void Promise.all([loadCheckoutDetails(), startClientRuntimeSoon()]).then(([saved]) => {
      setState(reopenedCheckout(saved, country, Date.now()))
      setLoaded(true)
    })
  }, [country])

  // Persist every change after the restore.
  useEffect(() => {
    if (loaded) void saveCheckoutDetails(persistableCheckout(state))
  }, [state, loaded])

  // Signed in: prefill personal details and the default addresses, never offer account creation.
  useEffect(() => {
    if (user && loaded) setState((s) => withAddressBook(withSignedInUser(s, user), savedAddresses(user)))
  }, [user, loaded])

  // The default payment method once the offered list is known; a chosen one that is no longer
  // offered is replaced with a sentence saying why (shown while the replacement stays selected).
  const [methodNote, setMethodNote] = useState<{ code: string; note: string } | null>(null)
  // biome-ignore lint/correctness/useExhaustiveDependencies: the reasons change with the offered list.
  useEffect(() => {
    if (!loaded) return
    const next = reselectPaymentMethod(state.paymentFinalStep.paymentMethod, offered, unavailable)
    if (!next) return
    setState((s) => selectPaymentMethod(s, next.code, s.modifiedAt))
    setMethodNote(next.note ? { code: next.code, note: next.note } : null)
  }, [offered, loaded, state.paymentFinalStep.paymentMethod])
  const note = methodNote?.code === state.paymentFinalStep.paymentMethod ? methodNote.note : null

  /** A change by the shopper: stamps the activity window. */
  const update = (fn: (s: CheckoutState) => CheckoutState) =>
    setState((s) => ({ ...fn(s), modifiedAt: Date.now() }))

  return { state, setState, update, loaded, methodNote: note }
}
