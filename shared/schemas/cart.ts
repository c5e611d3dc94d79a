/**
 * Cart request payloads of /api/cart/* (Magento cart shapes). Quantities and ids are decimal
 * integers only: a JSON integer or a string of the digits 0-9 ('3' → 3); hex ('0x10'), exponent
 * ('1e1'), fractional ('2.5') and padded (' 3') forms are refused with a 400 that says so.
 * Addresses accept Magento snake_case and the camelCase that VSF's createShippingInfoData builds.
 */
import { z } from 'zod'

export const MAX_LINE_QTY = 10_000
/** The most units of one linked product a single bundle option may ask for (per bundle). */
export const MAX_BUNDLE_OPTION_QTY = 100

const DIGITS_RE = /^[0-9]{1,15}$/

/**
 * A whole number given as a JSON integer or a string of decimal digits, within [min, max].
 * `name` is the field as the caller knows it; every message names it and the limit.
 */
export function decimalInteger(name: string, min: number, max: number) {
  const wrong = `${name} must be a whole number written with the digits 0-9`
  return z.preprocess(
    (v) => (typeof v === 'string' && DIGITS_RE.test(v) ? Number(v) : v),
    z
      .number({ error: wrong })
      .int(wrong)
      .min(min, `${name} must be at least ${min}`)
      .max(max, `${name} must be at most ${max}`),
  )
}

/** A positive decimal id (item ids, option ids, selection ids, option value ids). */
const decimalId = (name: string) => decimalInteger(name, 1, Number.MAX_SAFE_INTEGER)

/**
 * Item options as a client sends them. Only their shape is checked here; the catalogue decides
 * whether the options, values and selections exist (worker/api/cart/line-options.ts), and the
 * stored option is rebuilt from the catalogue, so extra fields a client adds are never kept.
 */
export const ProductOptionSchema = z.looseObject({
  extension_attributes: z
    .looseObject({
      configurable_item_options: z
        .array(
          z.looseObject({
            option_id: z.union([z.string().max(32), z.number()]),
            option_value: z.union([z.string().max(32), z.number()]),
          }),
        )
        .max(10, 'at most 10 configurable options')
        .optional(),
      custom_options: z
        .array(
          z.looseObject({
            option_id: z.union([z.string().max(32), z.number()]),
            option_value: z
              .union([
                z.string().max(1000),
                z.number(),
                z.array(z.union([z.string().max(32), z.number()])).max(50),
              ])
              .nullish(),
          }),
        )
        .max(50, 'at most 50 custom options')
        .optional(),
      bundle_options: z
        .array(
          z.looseObject({
            option_id: z.union([z.string().max(32), z.number()]),
            option_qty: decimalInteger('option_qty', 0, MAX_BUNDLE_OPTION_QTY).optional(),
            option_selections: z.array(decimalId('option_selections')).max(20).optional(),
          }),
        )
        .max(50, 'at most 50 bundle options')
        .optional(),
    })
    .optional(),
})

const CartItemInputSchema = z.object({
  sku: z.string({ error: 'cartItem.sku is required' }).trim().min(1, 'cartItem.sku is required').max(128),
  qty: decimalInteger('qty', 1, MAX_LINE_QTY),
  item_id: decimalId('item_id').optional(),
  quoteId: z.union([z.string(), z.number()]).optional(),
  product_option: ProductOptionSchema.nullish(),
  /** The grouped set the piece was chosen on (its page is the line's page; ignored unless it holds the piece). */
  parentSku: z.string().trim().max(128).optional(),
})
export const CartUpdateBodySchema = z.object({ cartItem: CartItemInputSchema })

export const CartDeleteBodySchema = z.object({
  cartItem: z
    .object({
      sku: z.string().max(128).optional(),
      item_id: decimalId('item_id').optional(),
      quoteId: z.union([z.string(), z.number()]).optional(),
    })
    .refine((i) => i.item_id !== undefined || (i.sku ?? '') !== '', 'cartItem needs item_id or sku'),
})

/** A Magento address; camelCase aliases (countryId, regionId, regionCode) are normalised. */
const CartAddressSchema = z.preprocess(
  (raw) => {
    if (!raw || typeof raw !== 'object') return raw
    const a = raw as Record<string, unknown>
    return {
      ...a,
      country_id: a.country_id ?? a.countryId,
      region_id: a.region_id ?? a.regionId,
      region_code: a.region_code ?? a.regionCode,
    }
  },
  z.object({
    country_id: z
      .string({ error: 'country_id is required' })
      .trim()
      .length(2, 'country_id must be a 2-letter country code'),
    region: z.union([z.string().max(100), z.looseObject({})]).nullish(),
    region_id: z.coerce.number().int().nullish(),
    region_code: z.string().max(50).nullish(),
    street: z.array(z.string().max(255)).max(4).optional(),
    postcode: z.string().max(20).nullish(),
    city: z.string().max(100).nullish(),
    firstname: z.string().max(100).nullish(),
    lastname: z.string().max(100).nullish(),
    email: z.string().max(254).nullish(),
    telephone: z.string().max(40).nullish(),
    company: z.string().max(255).nullish(),
    vat_id: z.string().max(50).nullish(),
  }),
)

export const ShippingMethodsBodySchema = z.object({ address: CartAddressSchema })

export const ShippingInformationBodySchema = z.object({
  addressInformation: z.preprocess(
    (raw) => {
      if (!raw || typeof raw !== 'object') return raw
      const a = raw as Record<string, unknown>
      return {
        shipping_address: a.shipping_address ?? a.shippingAddress,
        billing_address: a.billing_address ?? a.billingAddress,
        shipping_carrier_code: a.shipping_carrier_code ?? a.shippingCarrierCode,
        shipping_method_code: a.shipping_method_code ?? a.shippingMethodCode,
        payment_method_code: a.payment_method_code ?? a.paymentMethodCode,
      }
    },
    z.object({
      shipping_address: CartAddressSchema,
      billing_address: CartAddressSchema.optional(),
      shipping_carrier_code: z.string().max(64).optional(),
      shipping_method_code: z.string().max(64).optional(),
      // The payment method chosen so far: the totals add the cash-on-delivery fee for it.
      payment_method_code: z.string().max(64).optional(),
    }),
  ),
})

/** Stock of a cart line: from the product when added, then from the stock check. */
interface CartLineStock {
  is_in_stock?: boolean
  qty?: number
  stock_status?: number
}

/**
 * A cart line as the browser keeps it (the cart store, IndexedDB, the other-tab snapshot): what
 * the product page adds, what a server cart's pull adds, and what sync, stock checks and totals
 * write back. Closed on purpose: a field the cart does not carry is a type error, not a guess.
 * Prices are per unit, incl. tax, in the base currency. A type alias rather than an interface, so
 * a line still passes where plain records are taken (hashing, the order body).
 */
export type CartLine = {
  sku: string
  /** The product page's product for a variant or a grouped child. */
  parentSku?: string
  name: string
  qty: number
  /** The last quantity the server confirmed: restored when an update is refused. */
  prev_qty?: number
  type_id?: string
  /** The server's name for the product type, on lines read from a server cart. */
  product_type?: string
  /** The price to charge (a special price while it runs). */
  finalPriceInclTax?: number
  /** The regular price when no final price is known. */
  priceInclTax?: number
  /** The regular price, shown struck through next to a discounted final price. */
  originalPriceInclTax?: number
  /** The discount in per cent, shown next to the price. */
  finalDiscount?: number
  /** The price a server cart's line came with (lines added from a pull). */
  price?: number
  /** Chosen configurable, custom and bundle options, sent with every update of the line. */
  product_option?: unknown
  /** A server cart line's option labels (a JSON string or an array of {label, value}). */
  options?: unknown
  slug?: string
  url_path?: string
  image?: string | null
  thumbnail?: string | null
  small_image?: string | null
  /** The server cart's line id, once the server has the line. */
  server_item_id?: number | string | null
  /** The server cart the line belongs to. */
  server_cart_id?: string | null
  stock?: CartLineStock
  /** Messages shown on the line (e.g. out of stock), by cause. */
  errors?: Record<string, string | null>
  /** Notes shown on the line (e.g. in stock), by cause. */
  info?: Record<string, string | null>
  /** The line's share of the server totals (row total, tax, discount). */
  totals?: Record<string, unknown>
}
