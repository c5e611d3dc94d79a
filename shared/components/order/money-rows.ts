/**
 * The money of an order as rows, the same on the checkout review, the confirmation, the order
 * page, the order mails and the back office: what the items come to, the coupon's discount,
 * shipping, the store credit spent on it (a redeemed gift card becomes store credit, so a card
 * spent on an order is this row), and what is left to pay, which is what the payment provider is
 * asked for. Every amount is in minor units of the order's charge currency; the rows add up:
 * items − discount + shipping − store credit = to pay.
 */

export interface MoneyRow {
  code: 'items' | 'discount' | 'shipping' | 'store_credit' | 'to_pay'
  title: string
  /** Signed: the discount and the store credit are negative. */
  minor: number
}

interface MoneyParts {
  /** The items, tax included, before the coupon. */
  itemsMinor: number
  discountMinor: number
  couponCode?: string | null
  shippingMinor: number
  /** Store credit spent on the order. */
  creditMinor: number
}

export function moneyRows(p: MoneyParts): MoneyRow[] {
  const due = p.itemsMinor - p.discountMinor + p.shippingMinor - p.creditMinor
  const rows: MoneyRow[] = [{ code: 'items', title: 'Items', minor: p.itemsMinor }]
  if (p.discountMinor > 0) {
    rows.push({
      code: 'discount',
      title: p.couponCode ? `Discount (${p.couponCode})` : 'Discount',
      minor: -p.discountMinor,
    })
  }
  rows.push({ code: 'shipping', title: 'Shipping', minor: p.shippingMinor })
  if (p.creditMinor > 0) rows.push({ code: 'store_credit', title: 'Store credit', minor: -p.creditMinor })
  rows.push({ code: 'to_pay', title: p.creditMinor > 0 ? 'To pay' : 'Total', minor: due })
  return rows
}

/** What a stored order document holds of its money (major units of its charge currency). */
interface DocumentMoney {
  subtotal_incl_tax?: number
  discount_amount?: number
  coupon_code?: string
  shipping_incl_tax?: number
  customer_balance_amount?: number
  grand_total?: number
}

const minorOf = (major: number | undefined) => Math.round((major ?? 0) * 100)

/** The rows of a stored order document; its grand total (left to pay after store credit) closes them. */
export function documentMoneyRows(doc: DocumentMoney): MoneyRow[] {
  const rows = moneyRows({
    itemsMinor: minorOf(doc.subtotal_incl_tax),
    discountMinor: Math.abs(minorOf(doc.discount_amount)),
    couponCode: doc.coupon_code ?? null,
    shippingMinor: minorOf(doc.shipping_incl_tax),
    creditMinor: minorOf(doc.customer_balance_amount),
  })
  // The stored total is what was charged: it stands even if an old document's parts do not add up.
  const last = rows[rows.length - 1] as MoneyRow
  last.minor = minorOf(doc.grand_total)
  return rows
}
