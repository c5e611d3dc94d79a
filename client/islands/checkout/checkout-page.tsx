/**
 * The checkout island (/checkout): personal details (optional account creation), shipping address
 * and the free shipping method, payment method and billing address, terms, review and place order.
 * Every change is persisted (nothing lost on reload) and stamps the 30-minute checkout-activity
 * window. Placing goes through the order queue: online and acknowledged → confirmation; offline or
 * failing → queued and shown as PENDING, never as confirmed.
 */

import type { AddressFormValue } from '@shared/components/checkout/address-fields'
import {
  availablePaymentMethods,
  type PaymentCurrencies,
  unavailablePaymentMethods,
} from '@shared/config/checkout'
import { baseCurrency } from '@shared/config/store'
import { useEffect, useMemo, useRef, useState } from 'react'
import type { PlaceOrderResult } from '../../engines/orders/context'
import { getRuntime } from '../../engines/runtime/runtime'
import { type CartLine, cartCount, cartItems, cartTotals } from '../../state/cart'
import { isThankYouPage, placingOrder } from '../../state/orders'
import { useSignalValue } from '../../state/use-signal'
import { currentUser, isLoggedIn, storeCredit as storeCreditSignal } from '../../state/user'
import { userSend } from '../account/account-api'
import type { CustomerAddress } from '../account/address-form'
import { cartTypeIds } from '../cart/cart-line-view'
import { clientTotals, displayedSegments } from '../cart/cart-totals'
import { defineIsland } from '../define'
import type { AddressDetails, FieldErrors } from '../forms/field-rules'
import { pageCurrency } from '../page-currency'
import { object, schemaOf, str } from '../props-check'
import { addressDetails, bookEntry, savedAddresses, savedMatch, savesAddress } from './address-book'
import { saveCheckoutDetails } from './checkout-details'
import {
  afterOrderPlaced,
  type CheckoutState,
  persistableCheckout,
  selectPaymentMethod,
} from './checkout-state'
import { type CheckoutStep, firstInvalidStep, validateStep } from './checkout-validation'
import { toShippingInformation } from './order-body'
import { OrderSummary } from './order-summary'
import { PendingOrderNotice } from './pending-order'
import { confirmPurchase, payPlacedOrder, submitOrder } from './place-order'
import { StepList } from './step-list'
import { PaymentStep } from './steps/payment-step'
import { PersonalStep } from './steps/personal-step'
import { ReviewStep } from './steps/review-step'
import { ShippingStep } from './steps/shipping-step'
import { useCheckoutState } from './use-checkout-state'
import { destinationNotes, useCodAnswer, useTotalsForCountry } from './use-destination'

interface CheckoutProps {
  supportEmail: string
  country: string
  /** The currencies each payment method charges in this shop, as JSON (the server's table). */
  paymentCurrencies: string
}
// Checked with the props checker, not zod: the checkout's JS budget cannot carry zod/mini.
const CheckoutPropsSchema = schemaOf<CheckoutProps>(
  object({ supportEmail: str, country: str, paymentCurrencies: str }),
)

/** The InitiateCheckout event, once per page view, when the cart has items. */
function useInitiateCheckoutEvent(items: readonly CartLine[]) {
  const tracked = useRef(false)
  useEffect(() => {
    if (tracked.current || items.length === 0) return
    tracked.current = true
    const data = {
      value: clientTotals(items).grand_total,
      numItems: cartCount.peek(),
      contentIds: items.map((l) => l.sku),
      contentType: 'product',
    }
    // The analytics code is not part of the page's first load.
    void import('../../engines/analytics').then((m) => m.track('InitiateCheckout', data))
  }, [items])
}

/**
 * Saves one of the order's addresses to the signed-in shopper's book and shows it there at once
 * (an address the book already holds is not copied); a failure only leaves the book as it was (the
 * order is placed either way).
 */
async function saveToBook(details: AddressDetails) {
  try {
    const res = await userSend<{ address: CustomerAddress; saved: boolean }>('user/addresses', 'POST', {
      address: bookEntry(details),
    })
    const user = currentUser.peek()
    if (res.code === 200 && res.result.saved && user)
      currentUser.value = { ...user, addresses: [...savedAddresses(user), res.result.address] as never }
  } catch {
    // Nothing to undo: the address simply stays out of the book.
  }
}

function EmptyCheckout() {
  return (
    <div className="checkout checkout--empty" data-testid="checkout-empty">
      <p>Your shopping cart is empty.</p>
      <PendingOrderNotice />
      <a className="btn" href="/">
        Continue shopping
      </a>
    </div>
  )
}

function Checkout({ supportEmail, country, paymentCurrencies }: CheckoutProps) {
  const items = useSignalValue(cartItems)
  const count = useSignalValue(cartCount)
  const totals = useSignalValue(cartTotals)
  const user = useSignalValue(currentUser)
  const loggedIn = useSignalValue(isLoggedIn)
  // The shipping country and PIN code decide the tax in the prices and whether COD is offered.
  const [destination, setDestination] = useState({ country, postcode: '', phone: '' })
  const cod = useCodAnswer(destination.country, destination.postcode, destination.phone)
  // The methods that charge the currency shown (and serve the address); the others say why not.
  const payment = useMemo(() => {
    const context = {
      currency: pageCurrency(),
      typeIds: cartTypeIds(items),
      currencies: JSON.parse(paymentCurrencies) as PaymentCurrencies,
      ...(cod
        ? {
            country: cod.country,
            postcode: cod.postcode,
            codServiceable: cod.serviceable,
            codRefusal: cod.refusal,
          }
        : {}),
    }
    return { offered: availablePaymentMethods(context), unavailable: unavailablePaymentMethods(context) }
  }, [items, cod, paymentCurrencies])
  const offered = payment.offered
  const { state, setState, update, loaded, methodNote } = useCheckoutState(
    country,
    user,
    offered,
    payment.unavailable,
  )
  const shipCountry = state.shippingDetails.country
  const shipPin = state.shippingDetails.zipCode
  // A phone number counts for cash on delivery's rules once it has its ten digits.
  const shipPhone =
    state.shippingDetails.phoneNumber.replace(/\D/g, '').length >= 10 ? state.shippingDetails.phoneNumber : ''
  useEffect(() => {
    setDestination({ country: shipCountry, postcode: shipPin, phone: shipPhone })
  }, [shipCountry, shipPin, shipPhone])
  useTotalsForCountry(
    loaded ? shipCountry : '',
    () => toShippingInformation(state).addressInformation,
    shipPin,
  )
  const notes = destinationNotes(shipCountry, cod, totals)
  // Only virtual goods (gift cards): nothing ships, so no shipping step and the billing address is asked.
  const virtualOnly =
    items.length > 0 && cartTypeIds(items).every((t) => t === 'virtual' || t === 'downloadable')
  useEffect(() => {
    if (virtualOnly && loaded) setState((s) => (s.sameAsShipping ? { ...s, sameAsShipping: false } : s))
  }, [virtualOnly, loaded, setState])
  const [step, setStep] = useState<CheckoutStep>('personal')
  const [errors, setErrors] = useState<FieldErrors>({})
  const [placing, setPlacing] = useState(false)
  const [pricing, setPricing] = useState(false)
  const [result, setResult] = useState<PlaceOrderResult | null>(null)
  const credit = useSignalValue(storeCreditSignal)
  const processing = useSignalValue(placingOrder)
  // Store credit is spent only on orders in the base currency: never asked for in another.
  const creditCurrency = pageCurrency() === baseCurrency() ? null : baseCurrency()
  useEffect(() => {
    if (creditCurrency && state.isStoreCreditApplied) setState((s) => ({ ...s, isStoreCreditApplied: false }))
  }, [creditCurrency, state.isStoreCreditApplied, setState])
  useInitiateCheckoutEvent(items)
  // A signed-in shopper's address book: the saved address the form shows, and whether to save a new one.
  const book = loggedIn ? savedAddresses(user) : null
  const chosen = book ? savedMatch(state.shippingDetails, book) : null
  const saveAddress = book !== null && !chosen && savesAddress(state, book)
  // A billing address of its own: the same choice when it is not in the book either.
  const ownBilling = !state.sameAsShipping
  const billingChosen = book && ownBilling ? savedMatch(state.paymentDetails, book) : null
  const offerBillingSave = book !== null && ownBilling && !billingChosen
  const saveBilling = offerBillingSave && savesAddress(state, book, 'billing')

  // Each step the shopper moves to is announced by moving focus to its heading (not the first
  // render: the page's own start stays where the browser put it).
  const shownStep = useRef<CheckoutStep | null>(null)
  useEffect(() => {
    if (!loaded) return
    if (shownStep.current !== null && shownStep.current !== step)
      document.getElementById(`${step}-title`)?.focus()
    shownStep.current = step
  }, [step, loaded])

  if (result && result.state === 'queued') return <PendingOrderNotice orderId={result.orderId} />
  if (!loaded) return <p>Loading checkout…</p>
  if (items.length === 0 && !placing) return <EmptyCheckout />

  const next = (from: CheckoutStep, to: CheckoutStep) => {
    const errs = validateStep(from, state, offered, virtualOnly)
    setErrors(errs)
    if (Object.keys(errs).length) return
    setStep(to)
    // A guest's cart reminder answer goes with the cart's snapshot once the e-mail is valid.
    if (from === 'personal' && !loggedIn && state.personalDetails.cartReminder !== undefined)
      void import('./cart-reminder').then((m) => m.sendCartReminder(state.personalDetails))
    // The server's totals (tax, shipping, the payment method's fee) follow the address and the
    // method; a failure keeps the current totals. Until they are in, the order cannot be placed:
    // the review must not say one total while the order charges another.
    if (to === 'review') {
      setPricing(true)
      void getRuntime()
        .cart.shippingInformation(toShippingInformation(state).addressInformation)
        .catch(() => false)
        .finally(() => setPricing(false))
    }
  }

  const place = async () => {
    const invalid = firstInvalidStep(state, offered, virtualOnly)
    if (invalid) {
      setErrors(invalid.errors)
      setStep(invalid.step)
      return
    }
    setPlacing(true)
    try {
      const sent = await submitOrder({ state, items, totals, loggedIn, userId: user?.id ?? null })
      if (sent.kind === 'account-failed') {
        setErrors({ password: sent.message })
        setStep('personal')
        return
      }
      if (sent.kind === 'not-taken') return
      if (saveAddress && !virtualOnly) await saveToBook(state.shippingDetails)
      if (saveBilling) await saveToBook(state.paymentDetails)
      const done = afterOrderPlaced(state, Date.now())
      setState(done)
      await saveCheckoutDetails(persistableCheckout(done))
      // Placed: an online payment opens at once; then the confirmation says paid or not.
      if (sent.result.state === 'placed') {
        if (await payPlacedOrder(sent)) await confirmPurchase(state, sent)
        return
      }
      // Queued: this is the thank-you page of a pending order; coming online sends it automatically.
      isThankYouPage.value = true
      setResult(sent.result)
    } finally {
      setPlacing(false)
    }
  }

  const addressChange =
    (key: 'shippingDetails' | 'paymentDetails') => (field: keyof AddressFormValue, value: string) =>
      update((s: CheckoutState) => ({ ...s, [key]: { ...s[key], [field]: value } }))

  return (
    <div className="checkout" data-testid="checkout">
      <StepList step={step} onGoTo={setStep} skip={virtualOnly ? ['shipping'] : []} />
      <div className="checkout__main">
        {step === 'personal' ? (
          <PersonalStep
            details={state.personalDetails}
            loggedIn={loggedIn}
            errors={errors}
            update={update}
            onNext={() => next('personal', virtualOnly ? 'payment' : 'shipping')}
            nextStep={virtualOnly ? 'payment' : 'shipping'}
          />
        ) : null}
        {step === 'shipping' ? (
          <ShippingStep
            details={state.shippingDetails}
            notes={notes}
            errors={errors}
            onChange={addressChange('shippingDetails')}
            onNext={() => next('shipping', 'payment')}
            whatsapp={{
              checked: state.whatsappOptIn === true,
              onChange: (checked) => update((s) => ({ ...s, whatsappOptIn: checked })),
            }}
            book={
              book && {
                saved: book,
                chosen,
                onChoose: (a) =>
                  update((s) => ({
                    ...s,
                    shippingDetails: {
                      ...s.shippingDetails,
                      ...(a
                        ? addressDetails(a)
                        : {
                            streetAddress: '',
                            apartmentNumber: '',
                            city: '',
                            state: '',
                            zipCode: '',
                            region_id: null,
                          }),
                    },
                  })),
                save: saveAddress,
                onSave: (v) => update((s) => ({ ...s, saveAddress: v })),
              }
            }
          />
        ) : null}
        {step === 'payment' ? (
          <>
            {notes.cod ? (
              <p className="checkout__note" data-testid="cod-note">
                {notes.cod}
              </p>
            ) : null}
            <PaymentStep
              state={state}
              offered={offered}
              unavailable={
                // Store credit kept in another currency than the one shown cannot pay: said with the methods.
                creditCurrency && loggedIn && credit.total_balance > 0
                  ? [
                      ...payment.unavailable,
                      {
                        code: 'credit',
                        reason: `Store credit is kept in ${creditCurrency}: choose it as your currency to use it.`,
                      },
                    ]
                  : payment.unavailable
              }
              errors={errors}
              methodNote={methodNote}
              storeCredit={loggedIn && !creditCurrency ? credit.total_balance : null}
              onSelectMethod={(code) => setState((s) => selectPaymentMethod(s, code, Date.now()))}
              update={update}
              onBillingChange={addressChange('paymentDetails')}
              saveBilling={
                offerBillingSave
                  ? { save: saveBilling, onSave: (v) => update((s) => ({ ...s, saveBillingAddress: v })) }
                  : null
              }
              onNext={() => next('payment', 'review')}
            />
          </>
        ) : null}
        {step === 'review' ? (
          <ReviewStep
            state={state}
            offered={offered}
            items={items}
            totals={totals}
            storeCredit={loggedIn ? credit.total_balance : null}
            busy={placing || processing || pricing}
            onPlace={() => void place()}
          />
        ) : null}
      </div>
      <OrderSummary
        count={count}
        lines={items}
        segments={displayedSegments(totals, items)}
        note={notes.sentence}
        supportEmail={supportEmail}
      />
    </div>
  )
}

export const CheckoutIsland = defineIsland('checkout', Checkout, CheckoutPropsSchema)
