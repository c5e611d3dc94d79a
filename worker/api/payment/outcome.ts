/**
 * What placing an order means for its payment. Cash on delivery collects nothing online: the order
 * is 'pending' until delivery. An order whose whole amount store credit paid is confirmed at once.
 * Every other order is placed 'pending_payment' and awaits a payment the provider reports (verified
 * callback or webhook): nothing here ever marks an order paid. An order with nothing to pay that
 * store credit did not pay is refused before this (see nothingToCharge).
 */
import { CASH_ON_DELIVERY_CODE } from '@shared/config/checkout'

interface PaymentOutcome {
  status: 'pending' | 'pending_payment' | 'processing'
  /** Magento order state for the status. */
  state: 'new' | 'pending_payment' | 'processing'
  paymentPending: boolean
  message: string
}

export function placementOutcome(methodCode: string, dueMinor: number, creditMinor: number): PaymentOutcome {
  if (dueMinor <= 0 && creditMinor <= 0) throw new Error('an order with nothing to pay reached placement')
  if (methodCode === CASH_ON_DELIVERY_CODE && dueMinor > 0) {
    return { status: 'pending', state: 'new', paymentPending: false, message: 'Pay cash on delivery.' }
  }
  if (dueMinor <= 0) {
    return {
      status: 'processing',
      state: 'processing',
      paymentPending: false,
      message: 'Paid in full with store credit.',
    }
  }
  return {
    status: 'pending_payment',
    state: 'pending_payment',
    paymentPending: true,
    message:
      'The order is awaiting payment: no payment has been taken yet. Pay now to confirm it; it is confirmed as soon as the payment provider reports your payment.',
  }
}
