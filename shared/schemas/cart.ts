/**
 * Cart request payloads of /api/cart/* (contract §1.2, transactions spec §7). Quantity strings
 * are converted to integers (spec §5); addresses accept Magento snake_case and the camelCase
 * that VSF's createShippingInfoData builds.
 */
import { z } from 'zod'

export const MAX_LINE_QTY = 10_000

export const ProductOptionSchema = z.looseObject({
  extension_attributes: z
    .looseObject({
      configurable_item_options: z
        .array(
          z.looseObject({
            option_id: z.union([z.string(), z.number()]),
            option_value: z.union([z.string(), z.number()]),
          }),
        )
        .max(10)
        .optional(),
      custom_options: z
        .array(z.looseObject({ option_id: z.union([z.string(), z.number()]), option_value: z.unknown() }))
        .max(50)
        .optional(),
      bundle_options: z
        .array(
          z.looseObject({
            option_id: z.union([z.string(), z.number()]),
            option_qty: z.coerce.number().optional(),
            option_selections: z.array(z.coerce.number()).max(20).optional(),
          }),
        )
        .max(50)
        .optional(),
    })
    .optional(),
})

export const CartItemInputSchema = z.object({
  sku: z.string({ error: 'cartItem.sku is required' }).trim().min(1, 'cartItem.sku is required').max(128),
  qty: z.coerce
    .number({ error: 'qty must be a number' })
    .int('qty must be a whole number')
    .min(1, 'qty must be at least 1')
    .max(MAX_LINE_QTY, `qty must be at most ${MAX_LINE_QTY}`),
  item_id: z.coerce.number().int().positive().optional(),
  quoteId: z.union([z.string(), z.number()]).optional(),
  product_option: ProductOptionSchema.nullish(),
})
export const CartUpdateBodySchema = z.object({ cartItem: CartItemInputSchema })

export const CartDeleteBodySchema = z.object({
  cartItem: z
    .object({
      sku: z.string().max(128).optional(),
      item_id: z.coerce.number().int().positive().optional(),
      quoteId: z.union([z.string(), z.number()]).optional(),
    })
    .refine((i) => i.item_id !== undefined || (i.sku ?? '') !== '', 'cartItem needs item_id or sku'),
})

/** A Magento address; camelCase aliases (countryId, regionId, regionCode) are normalised. */
export const CartAddressSchema = z.preprocess(
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
export type CartAddress = z.infer<typeof CartAddressSchema>

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
      }
    },
    z.object({
      shipping_address: CartAddressSchema,
      billing_address: CartAddressSchema.optional(),
      shipping_carrier_code: z.string().max(64).optional(),
      shipping_method_code: z.string().max(64).optional(),
    }),
  ),
})
