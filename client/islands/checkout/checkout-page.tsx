/**
 * The checkout island (/checkout): personal details (optional account creation), shipping address
 * and the free shipping method, payment method and billing address, terms, review and place order.
 * Every change is persisted (nothing lost on reload) and stamps the 30-minute checkout-activity
 * window. Placing goes through the order queue: online and acknowledged → confirmation; offline or
 * failing → queued and shown as PENDING, never as confirmed.
 */
import { useEffect, useMemo, useRef, useState } from 'react'
import * as z from 'zod/mini'
import { AddressFields, type AddressFormValue } from '../../../shared/components/checkout/address-fields'
import { CheckboxField, TextField } from '../../../shared/components/checkout/form-field'
import { TotalsSummary } from '../../../shared/components/checkout/totals-summary'
import { DEFAULT_SHIPPING_METHOD } from '../../../shared/config/checkout'
import { newOrderId } from '../../../shared/domain/order-hash'
import { MSG } from '../../../shared/i18n/messages'
import { currentApiContext } from '../../api'
import { purchaseData, randomHex, track } from '../../engines/analytics'
import { useSignalValue } from '../../state/use-signal'
import { cartTypeIds } from '../cart/cart-line-view'
import { defineIsland } from '../define'
import {
  cartItems,
  cartToken,
  cartTotals,
  clientTotals,
  currentUser,
  formatPrice,
  isLoggedIn,
  isThankYouPage,
  loadCheckoutDetails,
  type PlaceOrderResult,
  placeOrder,
  placingOrder,
  register,
  saveCheckoutDetails,
  sendShippingInformation,
  startSession,
  storeCredit as storeCreditSignal,
} from './adapters'
import {
  afterOrderPlaced,
  buildOrder,
  type CheckoutState,
  COUNTRIES,
  emptyCheckoutState,
  type FieldErrors,
  isInCheckout,
  paymentMethodsFor,
  persistableCheckout,
  restoreCheckoutState,
  selectPaymentMethod,
  toShippingInformation,
  validateAddress,
  validatePayment,
  validatePersonalDetails,
} from './checkout-model'
import { PendingOrderNotice } from './pending-order'

const CheckoutPropsSchema = z.object({ supportEmail: z.string(), country: z.string() })
type CheckoutProps = z.infer<typeof CheckoutPropsSchema>

type Step = 'personal' | 'shipping' | 'payment' | 'review'
const STEPS: { id: Step; title: string }[] = [
  { id: 'personal', title: 'Personal details' },
  { id: 'shipping', title: 'Shipping' },
  { id: 'payment', title: 'Payment' },
  { id: 'review', title: 'Review order' },
]

function prefixed(errors: FieldErrors, prefix: string): FieldErrors {
  const out: FieldErrors = {}
  for (const [k, v] of Object.entries(errors)) if (k.startsWith(prefix)) out[k.slice(prefix.length)] = v
  return out
}

function Checkout({ supportEmail, country }: CheckoutProps) {
  const items = useSignalValue(cartItems)
  const totals = useSignalValue(cartTotals)
  const user = useSignalValue(currentUser)
  const loggedIn = useSignalValue(isLoggedIn)
  const [state, setState] = useState<CheckoutState>(() => emptyCheckoutState(country))
  const [loaded, setLoaded] = useState(false)
  const [step, setStep] = useState<Step>('personal')
  const [errors, setErrors] = useState<FieldErrors>({})
  const [placing, setPlacing] = useState(false)
  const [result, setResult] = useState<PlaceOrderResult | null>(null)
  const credit = useSignalValue(storeCreditSignal)
  const storeCredit = loggedIn ? credit.total_balance : null
  const processing = useSignalValue(placingOrder)
  const tracked = useRef(false)

  const offered = useMemo(() => paymentMethodsFor(cartTypeIds(items)), [items])

  // Restore the persisted checkout (the password is never persisted).
  useEffect(() => {
    startSession()
    void loadCheckoutDetails().then((saved) => {
      const now = Date.now()
      const restored = restoreCheckoutState(saved, country, now)
      // Outside the 30-minute window the payment choices and terms start over; addresses are kept.
      const fresh = isInCheckout(restored, now)
        ? restored
        : { ...restored, paymentFinalStep: { ...restored.paymentFinalStep, terms: false } }
      setState({ ...fresh, isThankYouPage: false })
      setLoaded(true)
    })
  }, [country])

  // Persist every change after the restore.
  useEffect(() => {
    if (loaded) void saveCheckoutDetails(persistableCheckout(state))
  }, [state, loaded])

  // Signed in: prefill personal details, never offer account creation; load the store credit balance.
  useEffect(() => {
    if (!user) return
    setState((s) => ({
      ...s,
      personalDetails: {
        ...s.personalDetails,
        firstName: s.personalDetails.firstName || user.firstname,
        lastName: s.personalDetails.lastName || user.lastname,
        emailAddress: user.email,
        createAccount: false,
        password: '',
      },
    }))
  }, [user])

  // The default payment method once the offered list is known.
  useEffect(() => {
    if (!loaded) return
    if (!offered.some((m) => m.code === state.paymentFinalStep.paymentMethod)) {
      const def = offered.find((m) => m.default) ?? offered[0]
      if (def) setState((s) => selectPaymentMethod(s, def.code, s.modifiedAt))
    }
  }, [offered, loaded, state.paymentFinalStep.paymentMethod])

  useEffect(() => {
    if (tracked.current || items.length === 0) return
    tracked.current = true
    void track('InitiateCheckout', {
      value: clientTotals(items).grand_total,
      numItems: items.reduce((n, l) => n + l.qty, 0),
      contentIds: items.map((l) => l.sku),
      contentType: 'product',
    })
  }, [items])

  const update = (fn: (s: CheckoutState) => CheckoutState) =>
    setState((s) => ({ ...fn(s), modifiedAt: Date.now() }))

  if (result && result.state === 'queued') return <PendingOrderNotice orderId={result.orderId} />
  if (!loaded) return <p>Loading checkout…</p>
  if (items.length === 0 && !placing) {
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

  const validateStep = (s: Step): FieldErrors => {
    if (s === 'personal') return validatePersonalDetails(state.personalDetails)
    if (s === 'shipping') return validateAddress(state.shippingDetails)
    if (s === 'payment') return validatePayment(state, offered)
    return {}
  }

  const next = (s: Step, to: Step) => {
    const errs = validateStep(s)
    setErrors(errs)
    if (Object.keys(errs).length) return
    setStep(to)
    // The server's totals (tax) follow the shipping address.
    if (to === 'review') void sendShippingInformation(toShippingInformation(state).addressInformation)
  }

  const place = async () => {
    for (const s of ['personal', 'shipping', 'payment'] as const) {
      const errs = validateStep(s)
      if (Object.keys(errs).length) {
        setErrors(errs)
        setStep(s)
        return
      }
    }
    setPlacing(true)
    try {
      const online = typeof navigator === 'undefined' || navigator.onLine
      let userId: string | number | null = user?.id ?? null
      if (!loggedIn && state.personalDetails.createAccount && online) {
        const { error: err } = await register({
          email: state.personalDetails.emailAddress.trim(),
          firstname: state.personalDetails.firstName.trim(),
          lastname: state.personalDetails.lastName.trim(),
          password: state.personalDetails.password,
        })
        if (err) {
          setErrors({ password: err })
          setStep('personal')
          return
        }
        userId = currentUser.peek()?.id ?? null
      }
      const now = Date.now()
      const order = buildOrder({
        state,
        items,
        cartId: cartToken.peek(),
        userId,
        storeCode: currentApiContext().storeCode,
        orderId: newOrderId(now, randomHex(8)),
        now,
      })
      const res = await placeOrder(order as unknown as Record<string, unknown>)
      if (res.state === 'rejected' || res.state === 'duplicate') return
      const grand = (totals?.grand_total ?? clientTotals(items).grand_total) || 0
      const done = afterOrderPlaced(state, Date.now())
      setState(done)
      await saveCheckoutDetails(persistableCheckout(done))
      if (res.state === 'placed') {
        await track(
          'Purchase',
          purchaseData({
            confirmation: res.confirmation,
            value: grand,
            skus: order.products.map((p) => String(p.sku)),
            buyer: {
              email: state.personalDetails.emailAddress,
              firstName: state.personalDetails.firstName,
              lastName: state.personalDetails.lastName,
              zip: state.shippingDetails.zipCode,
              phone: state.shippingDetails.phoneNumber,
            },
          }),
        )
        window.location.assign(`/confirmation?orderId=${encodeURIComponent(res.orderId)}`)
        return
      }
      // Queued: this is the thank-you page of a pending order; coming online sends it automatically.
      isThankYouPage.value = true
      setResult(res)
    } finally {
      setPlacing(false)
    }
  }

  const segments = (totals?.total_segments?.length ? totals : clientTotals(items)).total_segments
  const stepIndex = STEPS.findIndex((s) => s.id === step)

  const addressChange =
    (key: 'shippingDetails' | 'paymentDetails') => (field: keyof AddressFormValue, value: string) =>
      update((s) => ({ ...s, [key]: { ...s[key], [field]: value } }))

  return (
    <div className="checkout" data-testid="checkout">
      <ol className="checkout__steps">
        {STEPS.map((s, i) => (
          <li key={s.id} className={s.id === step ? 'is-active' : i < stepIndex ? 'is-done' : ''}>
            {i < stepIndex ? (
              <button type="button" className="btn btn--link" onClick={() => setStep(s.id)}>
                {i + 1}. {s.title}
              </button>
            ) : (
              <span aria-current={s.id === step ? 'step' : undefined}>
                {i + 1}. {s.title}
              </span>
            )}
          </li>
        ))}
      </ol>

      <div className="checkout__main">
        {step === 'personal' ? (
          <section aria-labelledby="personal-title" className="checkout__section">
            <h2 id="personal-title">Personal details</h2>
            {!loggedIn ? (
              <p className="checkout__hint">
                Already have an account?{' '}
                <button
                  type="button"
                  className="btn btn--link"
                  onClick={() =>
                    window.dispatchEvent(new CustomEvent('auth:open', { detail: { mode: 'login' } }))
                  }
                >
                  Log in
                </button>
              </p>
            ) : null}
            <div className="field-row">
              <TextField
                id="personal-firstName"
                label="First name"
                value={state.personalDetails.firstName}
                onChange={(v) =>
                  update((s) => ({ ...s, personalDetails: { ...s.personalDetails, firstName: v } }))
                }
                error={errors.firstName}
                autoComplete="given-name"
                required
              />
              <TextField
                id="personal-lastName"
                label="Last name"
                value={state.personalDetails.lastName}
                onChange={(v) =>
                  update((s) => ({ ...s, personalDetails: { ...s.personalDetails, lastName: v } }))
                }
                error={errors.lastName}
                autoComplete="family-name"
                required
              />
            </div>
            <TextField
              id="personal-emailAddress"
              label="Email address"
              type="email"
              value={state.personalDetails.emailAddress}
              onChange={(v) =>
                update((s) => ({ ...s, personalDetails: { ...s.personalDetails, emailAddress: v } }))
              }
              error={errors.emailAddress}
              autoComplete="email"
              inputMode="email"
              required
            />
            {!loggedIn ? (
              <>
                <CheckboxField
                  id="personal-createAccount"
                  label="I want to create an account"
                  checked={state.personalDetails.createAccount}
                  onChange={(v) =>
                    update((s) => ({ ...s, personalDetails: { ...s.personalDetails, createAccount: v } }))
                  }
                />
                {state.personalDetails.createAccount ? (
                  <TextField
                    id="personal-password"
                    label="Password"
                    type="password"
                    value={state.personalDetails.password}
                    onChange={(v) =>
                      update((s) => ({ ...s, personalDetails: { ...s.personalDetails, password: v } }))
                    }
                    error={errors.password}
                    autoComplete="new-password"
                    required
                  />
                ) : null}
              </>
            ) : null}
            <button type="button" className="btn btn--primary" onClick={() => next('personal', 'shipping')}>
              Continue to shipping
            </button>
          </section>
        ) : null}

        {step === 'shipping' ? (
          <section aria-labelledby="shipping-title" className="checkout__section">
            <h2 id="shipping-title">Shipping</h2>
            <AddressFields
              idPrefix="shipping"
              value={state.shippingDetails}
              countries={COUNTRIES}
              errors={errors}
              onChange={addressChange('shippingDetails')}
            />
            <fieldset className="checkout__methods">
              <legend>Shipping method</legend>
              <label className="radio">
                <input
                  type="radio"
                  name="shippingMethod"
                  value={DEFAULT_SHIPPING_METHOD.method_code}
                  checked
                  readOnly
                />
                {DEFAULT_SHIPPING_METHOD.carrier_title} — {DEFAULT_SHIPPING_METHOD.method_title} (
                {formatPrice(DEFAULT_SHIPPING_METHOD.amount)})
              </label>
            </fieldset>
            <button type="button" className="btn btn--primary" onClick={() => next('shipping', 'payment')}>
              Continue to payment
            </button>
          </section>
        ) : null}

        {step === 'payment' ? (
          <section aria-labelledby="payment-title" className="checkout__section">
            <h2 id="payment-title">Payment</h2>
            <fieldset
              className="checkout__methods"
              aria-describedby={errors.paymentMethod ? 'payment-method-error' : undefined}
            >
              <legend>Payment method</legend>
              {offered.map((m) => (
                <label key={m.code} className="radio">
                  <input
                    type="radio"
                    name="paymentMethod"
                    value={m.code}
                    checked={state.paymentFinalStep.paymentMethod === m.code}
                    onChange={() => setState((s) => selectPaymentMethod(s, m.code, Date.now()))}
                  />
                  {m.title}
                </label>
              ))}
              {errors.paymentMethod ? (
                <p id="payment-method-error" className="field__error" role="alert">
                  {errors.paymentMethod}
                </p>
              ) : null}
            </fieldset>
            {state.isCashOnDelivery && state.codMessage ? (
              <p className="checkout__cod">{state.codMessage}</p>
            ) : null}
            {loggedIn && storeCredit !== null && storeCredit > 0 ? (
              <CheckboxField
                id="payment-storeCredit"
                label={`Apply my store credit (${formatPrice(storeCredit)} available)`}
                checked={state.isStoreCreditApplied}
                onChange={(v) => update((s) => ({ ...s, isStoreCreditApplied: v }))}
              />
            ) : null}
            <CheckboxField
              id="payment-sameAsShipping"
              label="Billing address is the same as the shipping address"
              checked={state.sameAsShipping}
              onChange={(v) => update((s) => ({ ...s, sameAsShipping: v }))}
            />
            {state.sameAsShipping ? (
              <div className="field-row">
                <TextField
                  id="billing-company"
                  label="Company (optional)"
                  value={state.paymentDetails.company}
                  onChange={(v) => addressChange('paymentDetails')('company', v)}
                  autoComplete="organization"
                />
                <TextField
                  id="billing-taxId"
                  label="Tax ID (optional)"
                  value={state.paymentDetails.taxId}
                  onChange={(v) => addressChange('paymentDetails')('taxId', v)}
                />
              </div>
            ) : (
              <AddressFields
                idPrefix="billing"
                value={state.paymentDetails}
                countries={COUNTRIES}
                errors={prefixed(errors, 'billing.')}
                onChange={addressChange('paymentDetails')}
                withCompany
              />
            )}
            <CheckboxField
              id="payment-terms"
              label="I accept the terms and conditions"
              checked={state.paymentFinalStep.terms}
              onChange={(v) =>
                update((s) => ({ ...s, paymentFinalStep: { ...s.paymentFinalStep, terms: v } }))
              }
              error={errors.terms}
            />
            <button type="button" className="btn btn--primary" onClick={() => next('payment', 'review')}>
              Review order
            </button>
          </section>
        ) : null}

        {step === 'review' ? (
          <section aria-labelledby="review-title" className="checkout__section" data-testid="checkout-review">
            <h2 id="review-title">Review order</h2>
            <dl className="checkout__review">
              <dt>Contact</dt>
              <dd>
                {state.personalDetails.firstName} {state.personalDetails.lastName},{' '}
                {state.personalDetails.emailAddress}
              </dd>
              <dt>Ship to</dt>
              <dd>
                {[
                  state.shippingDetails.streetAddress,
                  state.shippingDetails.apartmentNumber,
                  state.shippingDetails.city,
                  state.shippingDetails.state,
                  state.shippingDetails.zipCode,
                  state.shippingDetails.country,
                ]
                  .filter(Boolean)
                  .join(', ')}
              </dd>
              <dt>Payment</dt>
              <dd>{offered.find((m) => m.code === state.paymentFinalStep.paymentMethod)?.title}</dd>
            </dl>
            <ul className="checkout__items">
              {items.map((l) => (
                <li key={l.sku}>
                  {l.name} × {l.qty}
                </li>
              ))}
            </ul>
            <button
              type="button"
              className="btn btn--primary btn--block"
              disabled={placing || processing}
              onClick={() => void place()}
              data-testid="place-order"
            >
              {placing || processing ? MSG.processingOrder : 'Place the order'}
            </button>
            {placing || processing ? (
              <p role="status" className="checkout__processing">
                {MSG.processingOrder}
              </p>
            ) : null}
          </section>
        ) : null}
      </div>

      <aside className="checkout__aside" aria-label="Order summary">
        <h2>Order summary</h2>
        <p>{items.reduce((n, l) => n + l.qty, 0)} item(s) in cart</p>
        <TotalsSummary segments={segments} format={formatPrice} />
        <p className="checkout__help">
          Questions about your order? Write to <a href={`mailto:${supportEmail}`}>{supportEmail}</a>.
        </p>
      </aside>
    </div>
  )
}

export const CheckoutIsland = defineIsland('checkout', Checkout, CheckoutPropsSchema)
