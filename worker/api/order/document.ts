/**
 * The Magento sales-order document an order stores (what order history and /order/get show), its
 * one type, and how it is read back: every reader of `orders.doc` goes through OrderDocument.
 */
import { DEFAULT_SHIPPING_METHOD, PAYMENT_METHODS } from '@shared/config/checkout'
import { baseCurrency, currencyConfig } from '@shared/config/store'
import { roundPrice, toBaseCurrency } from '@shared/domain/currency'
import type { OrderBody } from '@shared/schemas/order'
import type { ResolvedLine } from '../cart/lines'
import type { computeTotals } from '../cart/totals'
import type { CustomerRow } from '../user/repo'

type Totals = ReturnType<typeof computeTotals>

/** Where an order is supplied, as the order keeps it: an Indian state, or a country abroad. */
export type StoredPlaceOfSupply = { state: string; name: string } | { country: string }

/** One GST slab of a line's piece: its rate and the highest value of one piece (without GST, base currency) it applies to. */
export interface StoredGstSlab {
  rate: number
  max_value?: number
}

/** One kind of piece of a bundle's or grouped product's unit, as its order line keeps it. */
export interface StoredGstPiece {
  minor: number
  count: number
  slabs: StoredGstSlab[]
}

/** What a shopper chose on a line, as the order stores it (values as sent, read defensively). */
interface OrderItemOption {
  extension_attributes?: {
    configurable_item_options?: { label?: unknown; value?: unknown; option_id?: unknown }[]
    custom_options?: { option_id?: unknown; option_value?: unknown }[]
    bundle_options?: { option_id?: unknown; option_qty?: unknown; option_selections?: unknown[] }[]
  }
}

/** One line of the stored order: amounts in the order's charge currency (major units). */
export interface OrderDocumentItem {
  item_id: number
  sku: string
  name: string
  product_id: number
  parent_sku: string | null
  product_type: string
  qty_ordered: number
  price: number
  price_incl_tax: number
  row_total: number
  row_total_incl_tax: number
  tax_amount: number
  tax_percent: number
  /** The line's share of the coupon's discount (positive). */
  discount_amount: number
  row_total_minor: number
  /** What the shopper configured, as the cart line, confirmation, order page and e-mail show it. */
  options?: { label: string; value: string }[]
  product_option?: OrderItemOption
  /** A piece made to order: the date ('YYYY-MM-DD', the shop's calendar) it ships by, fixed at placement. */
  ships_by?: string
  /** What the line's tax invoice line needs (set at placement; older orders lack them). */
  hsn_code?: string | null
  uqc?: string
  gst_rate?: number
  /**
   * An Indian line of one piece a unit: its piece's GST slabs, so its rate can be decided again
   * on what it is finally charged (tax-facts.ts). Absent on other lines and older orders.
   */
  gst_slabs?: StoredGstSlab[]
  /**
   * An Indian line of a bundle or grouped product: each kind of piece of one unit, with its share
   * of the unit price (charge currency, minor units), how many and its GST slabs, so the rate of
   * each piece can be decided again (tax-facts.ts). Absent on other lines and older orders.
   */
  gst_pieces?: StoredGstPiece[]
  discount_minor?: number
  tax_minor?: number
}

/** A stored address (billing or shipping) with the order's e-mail. */
export interface OrderDocumentAddress {
  firstname?: string
  lastname?: string
  street?: string[]
  city?: string
  region?: string | null
  postcode?: string | null
  country_id?: string
  telephone?: string | null
  company?: string | null
  /** The buyer's GSTIN, when given (a business buying for its own use). */
  vat_id?: string | null
  address_type: 'billing' | 'shipping'
  email: string
  [field: string]: unknown
}

/**
 * The stored order document. Every amount is in `order_currency_code` (major units);
 * `grand_total` is what is left to pay after `customer_balance_amount` (store credit spent).
 */
export interface OrderDocument {
  created_at: string
  updated_at: string
  status: string
  state: string
  customer_id: number | null
  customer_email: string
  customer_firstname: string
  customer_lastname: string
  customer_is_guest: 0 | 1
  store_id: number
  grand_total: number
  base_grand_total: number
  /** Store credit spent on the order (absent when none was). */
  customer_balance_amount?: number
  base_customer_balance_amount?: number
  subtotal: number
  subtotal_incl_tax: number
  shipping_amount: number
  shipping_incl_tax: number
  /** The coupon's discount, negative (Magento's sign). */
  discount_amount: number
  tax_amount: number
  coupon_code?: string
  order_currency_code: string
  base_currency_code: string
  base_to_order_rate: number
  grand_total_minor: number
  total_qty_ordered: number
  total_item_count: number
  items: OrderDocumentItem[]
  billing_address: OrderDocumentAddress
  payment: { method: string; additional_information: string[]; paid_with?: string }
  extension_attributes: {
    tax_label: string
    tax_amount_minor: number
    price_note: string
    /** Where the supply is made and the buyer's GSTIN, for its tax invoice (older orders lack it). */
    gst?: { place_of_supply?: StoredPlaceOfSupply; buyer_gstin?: string | null }
    shipping_assignments: {
      shipping: { address: OrderDocumentAddress | null; method: string | null }
      items: OrderDocumentItem[]
    }[]
  }
}

/**
 * A stored document read back. Documents are written whole by orderDocument; the parts older
 * orders may lack are optional in the type.
 */
export function parseOrderDocument(text: string): OrderDocument {
  return JSON.parse(text) as OrderDocument
}

/**
 * The order's items: one per line, at the catalogue's prices the totals computed; a piece made to
 * order keeps the date it ships by (`shipsBy` of its line).
 */
export function orderItems(
  totals: Totals,
  lines: readonly ResolvedLine[],
  shipsBy: (line: ResolvedLine) => string | null = () => null,
): OrderDocumentItem[] {
  return totals.items.map((t, i) => ({
    item_id: i + 1,
    sku: t.sku,
    name: t.name,
    product_id: (lines[i] as ResolvedLine).productId,
    parent_sku: (lines[i] as ResolvedLine).parentSku,
    product_type: t.product_type,
    qty_ordered: t.qty,
    price: t.price,
    price_incl_tax: t.price_incl_tax,
    row_total: t.row_total,
    row_total_incl_tax: t.row_total_incl_tax,
    tax_amount: t.tax_amount,
    tax_percent: t.tax_percent,
    discount_amount: t.discount_amount,
    row_total_minor: t.extension_attributes.row_total_minor,
    /** What the shopper configured, as the cart line, confirmation, order page and e-mail show it. */
    options: t.extension_attributes.options,
    ...(t.product_option ? { product_option: t.product_option as OrderItemOption } : {}),
    ...withShipsBy(shipsBy(lines[i] as ResolvedLine)),
  }))
}

const withShipsBy = (date: string | null) => (date ? { ships_by: date } : {})

interface DocumentInput {
  stamp: string
  payment: { status: string; state: string; message: string }
  customer: CustomerRow | null
  email: string
  storeId: number
  grandTotal: number
  /** The charge currency: every amount of the document is in it. */
  currency: string
  credit: number
  totals: Totals
  items: OrderDocumentItem[]
  info: OrderBody['addressInformation']
  shipping: Record<string, unknown> | null
  shipsNothing: boolean
  /** What the tax invoice needs of the order: place of supply and buyer GSTIN (tax-facts.ts). */
  gst?: unknown
}

export function orderDocument(d: DocumentInput): OrderDocument {
  const { totals, info, customer } = d
  const billing = info.billingAddress
  const method = PAYMENT_METHODS.find((m) => m.code === info.payment_method_code)
  const shippingAddress: OrderDocumentAddress | null = d.shipping
    ? { ...d.shipping, address_type: 'shipping', email: d.email }
    : null
  return {
    created_at: d.stamp,
    updated_at: d.stamp,
    status: d.payment.status,
    state: d.payment.state,
    customer_id: customer?.id ?? null,
    customer_email: d.email,
    customer_firstname: customer?.firstname ?? billing.firstname,
    customer_lastname: customer?.lastname ?? billing.lastname,
    customer_is_guest: customer ? 0 : 1,
    store_id: d.storeId,
    grand_total: d.grandTotal,
    // Base amounts are in the catalogue's currency: the charged total converted back at the configured rate.
    base_grand_total: roundPrice(toBaseCurrency(d.grandTotal, d.currency)),
    ...(d.credit > 0 ? { customer_balance_amount: d.credit, base_customer_balance_amount: d.credit } : {}),
    subtotal: totals.subtotal,
    subtotal_incl_tax: totals.subtotal_incl_tax,
    shipping_amount: totals.shipping_amount,
    shipping_incl_tax: totals.shipping_incl_tax,
    discount_amount: totals.discount_amount,
    tax_amount: totals.tax_amount,
    ...(totals.coupon_code ? { coupon_code: totals.coupon_code } : {}),
    order_currency_code: d.currency,
    base_currency_code: baseCurrency(),
    base_to_order_rate: currencyConfig(d.currency).rate,
    grand_total_minor: Math.round(d.grandTotal * 100),

    total_qty_ordered: totals.items_qty,
    total_item_count: d.items.length,
    items: d.items,
    billing_address: { ...billing, address_type: 'billing', email: d.email },
    payment: {
      method: info.payment_method_code,
      additional_information: [method?.title ?? info.payment_method_code, d.payment.message],
    },
    extension_attributes: {
      // The tax the amounts include, by name ('GST', 'UK VAT'), and the line shown under prices.
      tax_label: totals.extension_attributes.tax_label,
      tax_amount_minor: totals.extension_attributes.tax_minor,
      price_note: totals.extension_attributes.price_note,
      ...(d.gst ? { gst: d.gst } : {}),
      shipping_assignments: [
        {
          shipping: {
            address: shippingAddress,
            method: d.shipsNothing
              ? null
              : `${DEFAULT_SHIPPING_METHOD.carrier_code}_${DEFAULT_SHIPPING_METHOD.method_code}`,
          },
          items: d.items,
        },
      ],
    },
  }
}
