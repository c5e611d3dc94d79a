/**
 * POST /api/order as named steps: replay check → resolve lines → check the form and stock →
 * price → apply store credit → write the batch → replay on a race. Lines, options and prices come
 * from the catalogue (never the client's numbers); order numbers are assigned here.
 */

import { baseCurrency } from '@shared/config/store'
import { formatMinor } from '@shared/domain/currency'
import { canonicalOrderText } from '@shared/domain/order-hash'
import type { TaxRule } from '@shared/schemas/catalog'
import type { OrderBody, OrderResult } from '@shared/schemas/order'
import type { Context } from 'hono'
import { getTaxRules } from '../../catalog/content'
import { listedMadeToOrderAround, pieceShipsBy } from '../../catalog/made-to-order'
import { invoiceStatements } from '../../documents/issue'
import { recordCheckoutOptIn } from '../../messages/consent'
import { whatsappNumber } from '../../messages/phone'
import { coalesceReads } from '../../platform/d1-reads'
import type { AppEnv } from '../../platform/env'
import { clientAddress, fail, ok } from '../../platform/http'
import { randomToken, sha256Hex } from '../auth/crypto'
import { FORBIDDEN, optionalCustomer } from '../auth/guard'
import { couponUsageProblem, findCoupon } from '../cart/coupons'
import type { ResolvedLine } from '../cart/lines'
import { type CartRow, cartCurrency, GUEST_CART_RE, priceLine } from '../cart/repo'
import { type CouponRule, computeTotals } from '../cart/totals'
import { giftCardLineProblem, issueGiftCards } from '../giftcard/codes'
import { runAfterAnswer } from '../mail/deliver'
import { notifyOrder } from '../mail/notify'
import { placementOutcome } from '../payment/outcome'
import type { CustomerRow } from '../user/repo'
import { magentoDate } from '../user/repo'
import {
  cashOnDeliveryReads,
  checkCashOnDelivery,
  checkForm,
  checkStock,
  OutOfStock,
  orderEmail,
  resolveOrderLines,
  shippingForm,
  shipsNothing,
} from './check'
import { storeCreditToApply } from './credit'
import { orderDocument, orderItems } from './document'
import { newHold, placementDeadline, refuseOverHold, replayOrLimitPlacement, type Shopper } from './holds'
import { issueOrderLinkToken } from './link'
import { type OrderCaller, replay } from './replay'
import { findOrderByClientId, type OrderRow, orderResult } from './repo'
import { purgeFlipped } from './stock-pages'
import { withTaxFacts } from './tax-facts'
import { writeOrder } from './write'

/** The client's out-of-stock signal: it compares result === this (code 500). */
const ADD_PRODUCTS_ERROR = 'Error: Error while adding products'

const CREDIT_CHANGED =
  'Your store credit balance changed while the order was placed. Please review your order and try again.'

/** The out-of-stock answer: code 500 with the client's exact add-products result; the detail in meta. */
function outOfStock(c: Context<AppEnv>, detail: string) {
  return ok(c, ADD_PRODUCTS_ERROR, { detail, requestId: c.var.requestId }, 500)
}

/** The caller's cart named by the order (for its coupon and to close it), if they may use it. */
async function orderCart(db: D1Database, cartId: OrderBody['cart_id'], customer: CustomerRow | null) {
  const key = cartId == null ? '' : String(cartId)
  if (GUEST_CART_RE.test(key)) {
    return db
      .prepare('SELECT * FROM carts WHERE guest_token = ? AND is_active = 1')
      .bind(key)
      .first<CartRow>()
  }
  if (customer && /^\d{1,15}$/.test(key)) {
    return db
      .prepare('SELECT * FROM carts WHERE id = ? AND customer_id = ? AND is_active = 1')
      .bind(Number(key), customer.id)
      .first<CartRow>()
  }
  return null
}

/** Who places the order, for the replay rule: customer, body hash, guest cart token hash. */
async function orderCaller(body: OrderBody, customer: CustomerRow | null): Promise<OrderCaller> {
  const cartKey = body.cart_id == null ? '' : String(body.cart_id)
  return {
    customerId: customer?.id ?? null,
    bodyHash: await sha256Hex(canonicalOrderText(body)),
    cartKeyHash: GUEST_CART_RE.test(cartKey) ? await sha256Hex(cartKey) : null,
  }
}

export async function placeOrder(c: Context<AppEnv>, body: OrderBody): Promise<Response> {
  const customer = await optionalCustomer(c)
  const userId = body.user_id == null ? '' : String(body.user_id)
  if (customer && userId !== '' && userId !== String(customer.id)) fail(403, FORBIDDEN)
  const caller = await orderCaller(body, customer)
  // A replay is answered before anything else the body decides is checked (only the burst limit,
  // ahead of the body read, comes first): a retry after the last unit sold still gets its own
  // order, not "out of stock".
  const existing = await replayOrLimitPlacement(c, customer, body.order_id)
  if (existing) return ok(c, await withOrderLink(c, existing, replay(existing, caller)))
  try {
    return await placeNew(c, body, customer, caller)
  } catch (err) {
    if (err instanceof OutOfStock) return outOfStock(c, err.detail)
    throw err
  }
}

async function placeNew(
  c: Context<AppEnv>,
  body: OrderBody,
  customer: CustomerRow | null,
  caller: OrderCaller,
) {
  // The reads that need only the body go to the database together, in one round trip: the
  // lines, the cart, the tax rules and the made-to-order listings the lines can meet.
  const db = coalesceReads(c.env.DB)
  const info = body.addressInformation
  const form = shippingForm(info)
  const email = orderEmail(body, customer, form)
  // Cash on delivery's reads about the address and the phone need only the body too.
  const codReads = cashOnDeliveryReads(db, info, form.success ? form.data : null)
  const [resolved, cart, taxRules, listed] = await Promise.all([
    resolveOrderLines(db, body.products),
    orderCart(db, body.cart_id, customer),
    getTaxRules(db),
    listedMadeToOrderAround(
      db,
      body.products.map((p) => p.sku),
    ),
  ])
  const { lines, needed } = resolved
  const types = lines.map((l) => l.product.type_id)
  const tooMany = giftCardLineProblem(lines)
  if (tooMany) fail(400, tooMany)
  // Every amount of the order is in the currency the shopper was shown, in minor units; the
  // payment method must charge in it.
  const currency = cartCurrency(c)
  const shipping = checkForm(info, form, types, { currency, currencies: c.var.config.PAYMENT_CURRENCIES })
  checkStock(resolved)

  const now = Date.now()
  const country = (shipping ?? info.billingAddress).country_id.toUpperCase()
  const coupon = await findCoupon(db, cart?.coupon_code ?? null)
  await refuseCouponUse(db, coupon, customer, email)
  const { totals, pieces } = priceOrder(lines, coupon, taxRules, country, currency, now, {
    ships: !shipsNothing(types),
    postcode: shipping?.postcode ?? null,
    paymentMethod: info.payment_method_code,
  })
  // Store credit is kept in the base currency and spent only on orders charged in it.
  const base = baseCurrency()
  if (body.store_credit_applied && currency !== base) {
    fail(
      400,
      `Invalid order: store_credit_applied: store credit is in ${base} and can be spent only on orders charged in ${base} (not ${currency})`,
    )
  }
  // Cash on delivery's rules read the order's total (before the fee), so they follow the pricing.
  const ext = totals.extension_attributes
  await checkCashOnDelivery(db, codReads, info, shipping, {
    lines,
    totalMinor: ext.grand_total_minor - ext.cod_fee_minor,
    listed,
  })
  const nothing = nothingToCharge(totals, currency)
  if (nothing) fail(400, nothing)
  const creditMinor = await storeCreditToApply(
    db,
    customer?.id ?? null,
    body.store_credit_applied,
    totals.extension_attributes.grand_total_minor / 100,
  )
  const credit = creditMinor / 100
  const grandTotalMinor = totals.extension_attributes.grand_total_minor - creditMinor
  const grandTotal = grandTotalMinor / 100
  const payment = placementOutcome(info.payment_method_code, grandTotalMinor, creditMinor)
  const shopper: Shopper = { customerId: customer?.id ?? null, email, address: clientAddress(c) }
  const deadline = placementDeadline(c.var.config, payment.status, now)
  const stamp = magentoDate(now)
  const accessKey = randomToken()
  // Pieces made to order keep the date they ship by, counted from the day of placement.
  const { items, gst } = withTaxFacts({
    items: orderItems(totals, lines, (l) => pieceShipsBy(l.product, l.child, listed, now)),
    totals,
    lines,
    pieces,
    taxRules,
    info,
    shipping,
  })
  const doc = orderDocument({
    stamp,
    payment,
    customer,
    email,
    storeId: c.var.config.STORE_ID,
    grandTotal,
    currency,
    credit,
    totals,
    items,
    info,
    shipping,
    shipsNothing: shipsNothing(types),
    gst,
  })
  const written = await writeOrder(db, {
    orderId: body.order_id,
    customerId: customer?.id ?? null,
    email,
    accessKeyHash: await sha256Hex(accessKey),
    status: payment.status,
    paymentMethod: info.payment_method_code,
    grandTotal,
    currency,
    grandTotalMinor,
    paymentState: payment.paymentPending ? 'awaiting' : 'none',
    expiresAt: deadline,
    placedFrom: shopper.address,
    doc,
    result: {
      storeCreditApplied: credit,
      transferedAt: new Date(now).toISOString(),
      status: payment.status,
      paymentPending: payment.paymentPending,
      message: payment.message,
      accessKey,
    },
    stamp,
    bodyHash: caller.bodyHash,
    cartKeyHash: cart && caller.cartKeyHash ? caller.cartKeyHash : null,
    lines,
    items,
    needed,
    creditMinor,
    cartId: cart?.id ?? null,
    // Paid in full with store credit: invoiced as it is placed.
    documents:
      payment.status === 'processing'
        ? await invoiceStatements(
            c.env,
            {
              client_order_id: body.order_id,
              increment_id: null,
              doc: JSON.stringify(doc),
              currency,
              grand_total_minor: grandTotalMinor,
              created_at: stamp,
            },
            now,
          )
        : [],
  })
  if (written.conflict === 'duplicate-order-id') {
    const first = await replayRace(db, body.order_id, caller)
    return ok(c, await withOrderLink(c, first.row, first.result))
  }
  if (written.conflict === 'credit-spent') fail(409, CREDIT_CHANGED)
  if (written.conflict === 'coupon-limit') {
    // Another order took the coupon's last use while this one was written: the refusal the check
    // before the write would now give, as a conflict.
    await refuseCouponUse(db, await findCoupon(db, cart?.coupon_code ?? null), customer, email, 409)
    fail(409, `The coupon code "${cart?.coupon_code ?? ''}" has been used up.`)
  }
  if (written.conflict === 'hold-limit') {
    // The order would take one of the shopper's holds past its limit (perhaps with another order
    // written meanwhile): the 409 naming the limit, read from the shopper's holds.
    await refuseOverHold(db, shopper, newHold(needed, totals.coupon_code), c.var.config)
    fail(409, 'Your earlier orders changed while this one was placed. Please try again.')
  }
  // What is left is 'out-of-stock'.
  if (written.conflict !== null)
    throw new OutOfStock('some products went out of stock while the order was placed')
  const { row } = written
  // A sku this order sold out leaves its cached product pages before the answer goes out.
  await purgeFlipped(c.env, written.flipped)
  // Only a ticked box (and a mobile number WhatsApp can reach) sends this order's updates there.
  const waPhone = body.whatsapp_opt_in
    ? whatsappNumber((form.success ? form.data.telephone : null) ?? info.billingAddress.telephone)
    : null
  if (waPhone) await recordCheckoutOptIn(db, row.client_order_id, waPhone, customer?.id ?? null, now)
  // An order paid online is taken when its payment is: until then it is only held, so its
  // "received" mails (the shopper's and the merchant's) go with the payment's ("paid").
  if (row.payment_state !== 'awaiting')
    runAfterAnswer(c, () => notifyOrder(c.env, c.var.config, 'placed', row, now), 'placed mail')
  // Paid in full with store credit: its gift cards get their codes now (a provider's payment
  // issues them when it is reported).
  if (payment.status === 'processing') {
    runAfterAnswer(c, () => issueGiftCards(c.env, c.var.config, row.client_order_id, now), 'gift card codes')
  }
  return ok(c, await withOrderLink(c, row, orderResult(row)))
}

/**
 * The placement answer with the order page's link token (it goes in the page URL's fragment,
 * never a query). The token is signed from the placement time, so every answer to the same order
 * (a replay after a lost answer included) carries the same token.
 */
async function withOrderLink(c: Context<AppEnv>, row: OrderRow, result: OrderResult) {
  const placedAt = Date.parse(result.transferedAt)
  const orderLinkToken = await issueOrderLinkToken(
    c.env,
    c.var.config,
    row,
    Number.isFinite(placedAt) ? placedAt : Date.now(),
  )
  return { ...result, orderLinkToken }
}

/** A coupon's usage rules (first order, per shopper, in all) are checked again for the order's shopper. */
async function refuseCouponUse(
  db: D1Database,
  rule: CouponRule | null,
  customer: CustomerRow | null,
  email: string,
  status: 400 | 409 = 400,
) {
  const problem = rule && (await couponUsageProblem(db, rule, { customerId: customer?.id ?? null, email }))
  if (problem) fail(status, problem)
}

/**
 * Prices the resolved lines from the catalogue for the shipping country (its tax included) in the
 * charge currency, with the cart's coupon, the shipping rules for the address and the payment
 * method's fee: the same price view and totals the cart shows, so the order charges what the
 * checkout said.
 */
function priceOrder(
  lines: readonly ResolvedLine[],
  coupon: CouponRule | null,
  taxRules: TaxRule[],
  country: string,
  currency: string,
  now: number,
  delivery: { ships: boolean; postcode: string | null; paymentMethod: string },
) {
  const priced = lines.map((l) =>
    priceLine(l.product, l, { item_id: l.index + 1, qty: l.qty }, taxRules, {
      now,
      country,
      currency,
    }),
  )
  const totals = computeTotals({
    lines: priced,
    coupon,
    shipping: { ships: delivery.ships, postcode: delivery.postcode },
    paymentMethod: delivery.paymentMethod,
    currency,
    country,
    now,
  })
  // Each line's pieces as charged: the tax facts keep a bundle's, to decide their rates again (by
  // the rules the prices were worked with, read once).
  return { totals, pieces: priced.map((l) => l.pieces) }
}

/**
 * Why an order cannot be charged at all, or null: its goods in the charge currency come to nothing —
 * its items round to nothing in that currency (a ₹24 piece is $0 in whole dollars), or a coupon
 * takes the whole amount. Nothing is placed, taken from stock or called paid for such an order.
 */
function nothingToCharge(totals: ReturnType<typeof computeTotals>, currency: string): string | null {
  const { subtotal_minor: subtotal, discount_minor: discount } = totals.extension_attributes
  // The goods are judged without shipping and the COD fee: delivery charges alone are not an order.
  if (subtotal - discount > 0) return null
  const zero = formatMinor(0, currency)
  if (subtotal <= 0) {
    return `This order comes to ${zero} in ${currency}: its items are worth too little to be charged in ${currency}. Please choose another payment method, or add to your order.`
  }
  return `This order comes to ${zero} in ${currency} after the coupon "${totals.coupon_code ?? ''}", and an order needs an amount to pay. Please remove the coupon or add to your order.`
}

/** Step 5: a concurrent duplicate won the race; its result goes to its own caller only. */
async function replayRace(db: D1Database, orderId: string, caller: OrderCaller) {
  const first = await findOrderByClientId(db, orderId)
  if (!first) throw new Error(`Order ${orderId} collided with an order that is gone`)
  return { row: first, result: replay(first, caller) }
}
