/**
 * The checks of an order before anything is priced: every line resolved against the live
 * catalogue (options rebuilt from it, composites expanded), the addresses and the payment method
 * the lines allow, and stock. A refusal is a 400 naming the field; missing stock is signalled
 * with OutOfStock (the client's out-of-stock answer).
 */
import {
  availablePaymentMethods,
  CASH_ON_DELIVERY_CODE,
  PAYMENT_METHODS,
  type PaymentCurrencies,
  paymentMethodProblem,
} from '@shared/config/checkout'
import { OrderAddressSchema, type OrderBody } from '@shared/schemas/order'
import { describeIssues, fail } from '../../platform/http'
import { LineFailureError, type ResolvedLine, resolveLines, shortOfStock } from '../cart/lines'
import { type CodReads, type CodRequest, codJudgement, codReads } from '../checkout/cod'
import type { CustomerRow } from '../user/repo'

/** Stock is missing for the order; `detail` says which. */
export class OutOfStock extends Error {
  constructor(readonly detail: string) {
    super(detail)
    this.name = 'OutOfStock'
  }
}

/** The shipping form of an order, parsed once for the steps that read it. */
export function shippingForm(info: OrderBody['addressInformation']) {
  return OrderAddressSchema.safeParse(info.shippingAddress)
}
type ShippingForm = ReturnType<typeof shippingForm>

/** The e-mail address an order is placed for: the customer's, else the billing or shipping one. */
export function orderEmail(body: OrderBody, customer: CustomerRow | null, shipping: ShippingForm): string {
  const billing = body.addressInformation.billingAddress
  const email = customer?.email ?? (billing.email || (shipping.success ? shipping.data.email : '') || '')
  if (!email)
    fail(400, 'Invalid order: addressInformation.billingAddress.email: an e-mail address is required')
  return email
}

/** Step 1: every line against the live catalogue; an unusable line is a 400 naming it. */
export async function resolveOrderLines(db: D1Database, products: OrderBody['products']) {
  try {
    return await resolveLines(db, products)
  } catch (err) {
    if (!(err instanceof LineFailureError)) throw err
    const f = err.failure
    const at = `Invalid order: products.${f.index}`
    if (f.kind === 'unknown-sku') fail(400, `${at}.sku: unknown product ${f.sku}`)
    if (f.kind === 'needs-variant') fail(400, `${at}.sku: ${f.message}`)
    if (f.kind === 'options') fail(400, `${at}.product_option: ${f.message}`)
    throw new OutOfStock(`${f.sku} is not available`)
  }
}

/** Whether an order of these product types ships nothing (virtual and downloadable only). */
export function shipsNothing(types: readonly string[]): boolean {
  return types.every((t) => t === 'virtual' || t === 'downloadable')
}

/**
 * The shipping address an order needs (null for one that ships nothing: an empty or partial
 * shipping form is then ignored) and a payment method its lines allow; 400 naming the field.
 */
export function checkForm(
  info: OrderBody['addressInformation'],
  parsed: ShippingForm,
  types: readonly string[],
  payment: { currency: string; currencies: PaymentCurrencies },
) {
  if (!shipsNothing(types) && !parsed.success) {
    if (info.shippingAddress == null) {
      fail(400, 'Invalid order: addressInformation.shippingAddress: a shipping address is required')
    }
    const issues = describeIssues(parsed.error).replace(/(^|; )/g, '$1addressInformation.shippingAddress.')
    fail(400, `Invalid order: ${issues}`)
  }
  // A method is offered only for the currency the shopper was shown, and charges in it.
  const context = { currency: payment.currency, typeIds: types, currencies: payment.currencies }
  const method = PAYMENT_METHODS.find((m) => m.code === info.payment_method_code)
  const why = method ? paymentMethodProblem(method, context) : ''
  if (why !== null) {
    const offered = availablePaymentMethods(context).map((m) => m.code)
    fail(
      400,
      `Invalid order: addressInformation.payment_method_code: ${why || `${info.payment_method_code} is not available`} (offered: ${offered.join(', ')})`,
    )
  }
  return parsed.success ? parsed.data : null
}

/**
 * Step 2: a pre-check of stock for a clear message. The batch's CHECK constraint (qty >= 0) is
 * the real guard against a concurrent sale.
 */
export function checkStock(resolved: Awaited<ReturnType<typeof resolveLines>>): void {
  const short = shortOfStock(resolved.needed, resolved.stock)
  if (short) throw new OutOfStock(`${short} is out of stock`)
}

type ShippingAddress = { country_id: string; postcode?: string | null; telephone?: string | null }

/** What an order asks cash on delivery for (its lines and total aside), or null when it does not. */
function codAsked(
  info: OrderBody['addressInformation'],
  shipping: ShippingAddress | null,
): CodRequest | null {
  if (info.payment_method_code !== CASH_ON_DELIVERY_CODE || !shipping) return null
  return {
    country: shipping.country_id,
    postcode: String(shipping.postcode ?? '').trim(),
    phone: shipping.telephone ?? info.billingAddress.telephone ?? null,
  }
}

/**
 * Cash on delivery's reads about the address and the phone, which need only the body: started
 * with the body's other reads, they share their round trip. Null when the order does not ask for
 * cash on delivery (or has no shipping form).
 */
export function cashOnDeliveryReads(
  db: D1Database,
  info: OrderBody['addressInformation'],
  shipping: ShippingAddress | null,
): Promise<CodReads> | null {
  const asked = codAsked(info, shipping)
  if (!asked) return null
  const reads = codReads(db, asked)
  // A refusal made before the reads are used (a bad line, missing stock) must not leave them unhandled.
  reads.catch(() => {})
  return reads
}

/**
 * Cash on delivery goes only to an Indian shipping address whose PIN code the courier serves, and
 * within the operator's rules (phone, pieces made to order, the highest total collected; see
 * worker/api/checkout/cod.ts); anything else is a 400 that says why, before anything is written.
 * `reads` come from cashOnDeliveryReads with the same shipping form; the pieces made to order are
 * the ones the order's own made-to-order read found (`listed`, the listing of its skus, their
 * products and sizes: the read its ship-by dates come from).
 */
export async function checkCashOnDelivery(
  db: D1Database,
  reads: Promise<CodReads> | null,
  info: OrderBody['addressInformation'],
  shipping: ShippingAddress | null,
  order: { lines: readonly ResolvedLine[]; totalMinor: number; listed: ReadonlySet<string> },
): Promise<void> {
  const asked = codAsked(info, shipping)
  if (!asked) return
  const skus = order.lines.flatMap((l) => [l.sku, l.product.sku, ...(l.parentSku ? [l.parentSku] : [])])
  const why = codJudgement(
    { ...asked, totalMinor: order.totalMinor },
    // Read now when they were not started with the body's reads: the rules are never skipped.
    await (reads ?? codReads(db, asked)),
    skus.some((sku) => order.listed.has(sku)),
  )
  if (why) fail(400, `Invalid order: addressInformation.payment_method_code: ${why}`)
}
