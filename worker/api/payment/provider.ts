/**
 * Payments behind one interface. Cash on delivery needs no charge: the order is 'pending' until
 * delivery. PayPal standard and card need a payment provider; this codebase has no provider
 * integration yet, so such orders are ALWAYS placed as 'pending_payment' and the result says no
 * payment was taken — whether or not PAYMENT_PROVIDER_SECRET is set. Nothing ever pretends to charge.
 */
import { CASH_ON_DELIVERY_CODE } from '@shared/config/checkout'

interface PaymentOutcome {
  status: 'pending' | 'pending_payment' | 'processing'
  /** Magento order state for the status. */
  state: 'new' | 'pending_payment' | 'processing'
  paymentPending: boolean
  message: string
}

interface PaymentProvider {
  /** Decides what placing an order with this method means for its payment. */
  place(order: { grandTotal: number; currency: string; orderNumber?: string }): Promise<PaymentOutcome>
}

const cashOnDelivery: PaymentProvider = {
  async place() {
    return { status: 'pending', state: 'new', paymentPending: false, message: 'Pay cash on delivery.' }
  },
}

function online(secret: string | undefined): PaymentProvider {
  return {
    async place({ grandTotal }) {
      if (grandTotal <= 0) {
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
        message: secret
          ? 'The order is awaiting payment: it will be confirmed once the payment provider reports the payment.'
          : 'The order is awaiting payment: online payment is not configured on this store, so no payment has been taken.',
      }
    },
  }
}

/** The provider for a payment method code. */
export function paymentProviderFor(code: string, env: { PAYMENT_PROVIDER_SECRET?: string }): PaymentProvider {
  return code === CASH_ON_DELIVERY_CODE ? cashOnDelivery : online(env.PAYMENT_PROVIDER_SECRET)
}
