/**
 * POST /api/order body (vue-storefront-api order shape), validated WHOLE: every product (the VSF ajv
 * schema checked only the first), addresses, payment method. Unknown top-level keys are dropped.
 * Quantities are decimal integers (see decimalInteger). The client's order_id is an opaque
 * idempotency key, never an order number: it may not be all digits, so it can never be mistaken
 * for (or claim) a number the shop assigns.
 */
import { z } from 'zod'
import { FIELD_MAX_CHARS } from '../config/fields'
import { decimalInteger, MAX_LINE_QTY, ProductOptionSchema } from './cart'

/** The most lines one order may hold. */
const MAX_ORDER_LINES = 100

const str = (max: number) => z.string().max(max)

const OrderProductSchema = z.looseObject({
  sku: z.string({ error: 'sku is required' }).trim().min(1, 'sku is required').max(128),
  qty: decimalInteger('qty', 1, MAX_LINE_QTY),
  price: z.coerce.number({ error: 'price is required' }).min(0, 'price must not be negative'),
  name: str(255).nullish(),
  product_type: str(32).nullish(),
  parentSku: str(128).nullish(),
  product_option: ProductOptionSchema.nullish(),
})

export const OrderAddressSchema = z.object({
  firstname: z.string({ error: 'firstname is required' }).trim().min(1, 'firstname is required').max(100),
  lastname: z.string({ error: 'lastname is required' }).trim().min(1, 'lastname is required').max(100),
  street: z
    .array(z.string().max(FIELD_MAX_CHARS.streetLine), { error: 'street is required' })
    .min(1, 'street is required')
    .max(4)
    .refine((lines) => lines.some((l) => l.trim() !== ''), 'street is required'),
  city: z.string({ error: 'city is required' }).trim().min(1, 'city is required').max(100),
  country_id: z
    .string({ error: 'country_id is required' })
    .trim()
    .length(2, 'country_id must be a 2-letter country code'),
  postcode: str(20).nullish(),
  telephone: str(40).nullish(),
  email: z.email('email is not a valid e-mail address').max(254).nullish().or(z.literal('')),
  region: str(100).nullish(),
  region_id: z.coerce.number().int().nullish(),
  region_code: str(50).nullish(),
  company: str(255).nullish(),
  vat_id: str(50).nullish(),
})

export const OrderBodySchema = z.object({
  order_id: z
    .string({ error: 'order_id is required' })
    .trim()
    .min(8, 'order_id is too short')
    .max(100, 'order_id must be at most 100 characters')
    .regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/, 'order_id may only contain letters, digits, _ . : and -')
    .regex(/[^0-9]/, 'order_id must not be only digits: order numbers are assigned by the shop'),
  user_id: z.union([z.string(), z.number()]).nullish(),
  cart_id: z.union([z.string(), z.number()]).nullish(),
  store_code: str(32).nullish(),
  /** Signed-in customers: pay up to the whole grand total from the store credit balance. */
  store_credit_applied: z.boolean().optional(),
  /** The shopper ticked "Send me order updates on WhatsApp" (unticked unless they do). */
  whatsapp_opt_in: z.boolean().optional(),
  products: z
    .array(OrderProductSchema, { error: 'products is required' })
    .min(1, 'products must contain at least one product')
    .max(MAX_ORDER_LINES, `an order holds at most ${MAX_ORDER_LINES} products`),
  addressInformation: z.object(
    {
      /** Checked against OrderAddressSchema by the route unless every product is virtual/downloadable. */
      shippingAddress: z.unknown().optional(),
      billingAddress: OrderAddressSchema,
      shipping_method_code: str(64).nullish(),
      shipping_carrier_code: str(64).nullish(),
      payment_method_code: z.string({ error: 'payment_method_code is required' }).min(1).max(64),
      payment_method_additional: z.unknown().optional(),
      shippingExtraFields: z.unknown().optional(),
    },
    { error: 'addressInformation is required' },
  ),
})
export type OrderBody = z.infer<typeof OrderBodySchema>

export { ORDER_ID_USED } from '../domain/order-hash'

/** What POST /api/order answers (and answers again, unchanged, for a replayed order_id). */
export interface OrderResult {
  magentoOrderId: string
  orderNumber: string
  backendOrderId: string
  transferedAt: string
  /** pending (cash on delivery) | pending_payment (card/PayPal not charged) */
  status: string
  /** Store credit spent on this order (INR; 0 when none). */
  storeCreditApplied: number
  /** True when no payment has been taken: the confirmation must say the order awaits payment. */
  paymentPending: boolean
  message: string
  /**
   * Guest access key: sent back only in the body of POST /api/order/get (customers use their
   * token); never put in a URL.
   */
  accessKey: string
  /**
   * Signed order page link token (fresh placements only): the page URL carries it in its fragment,
   * /order/<number>#k=<token>, and the page sends it in the x-order-link header.
   */
  orderLinkToken?: string
}
