/** The filterable attributes (with their options) and the tax rules of the demo shop. */
import type { Attribute, TaxRule } from '../../../shared/schemas/catalog'
import { COLORS } from '../../../worker/pages/images/palette'
import {
  ACCESSORY_OPTION,
  DESIGNERS,
  DISCOUNT_OPTIONS,
  GARMENTS,
  GENDERS,
  GIFT_OPTION,
  RTS_OPTIONS,
  SIZES,
} from './data'
import { ATTRIBUTE_IDS } from './types'

/** A list of the master data's options as an attribute's options: the id as its value, and its label. */
const asOptions = (list: readonly { id: number; label: string }[]) =>
  list.map((o) => ({ value: String(o.id), label: o.label }))

/** The select attributes listings filter on, plus price and description. */
export function buildAttributes(): Attribute[] {
  const select = (
    id: number,
    code: string,
    label: string,
    options: Array<{ value: string; label: string; swatch?: string | null }>,
  ) => ({
    attribute_id: id,
    attribute_code: code,
    default_frontend_label: label,
    frontend_label: label,
    frontend_input: 'select',
    options,
    is_visible: true,
    is_user_defined: true,
    is_visible_on_front: true,
    is_comparable: true,
    is_filterable: 1,
  })
  const garmentOptions = [
    ...new Map(
      GARMENTS.map((g) => [
        g.optionId,
        { value: String(g.optionId), label: g.key === 'mens-kurta' ? "Men's Kurta" : g.label },
      ]),
    ).values(),
    ...asOptions([ACCESSORY_OPTION, GIFT_OPTION]),
  ]
  return [
    select(
      ATTRIBUTE_IDS.color,
      'color',
      'Color',
      COLORS.map((c) => ({ value: String(c.id), label: c.label, swatch: c.hex })),
    ),
    select(ATTRIBUTE_IDS.size, 'size', 'Size', asOptions(SIZES)),
    select(ATTRIBUTE_IDS.gender, 'gender', 'Gender', asOptions(GENDERS)),
    select(ATTRIBUTE_IDS.designer, 'designer', 'Designer', asOptions(DESIGNERS)),
    select(ATTRIBUTE_IDS.rts, 'rts', 'Ready to Ship', asOptions(RTS_OPTIONS)),
    select(ATTRIBUTE_IDS.discount, 'discount', 'Discount', asOptions(DISCOUNT_OPTIONS)),
    select(ATTRIBUTE_IDS.category_product, 'category_product', 'Product Type', garmentOptions),
    {
      attribute_id: 200,
      attribute_code: 'price',
      default_frontend_label: 'Price',
      frontend_label: 'Price',
      frontend_input: 'price',
      options: [],
      is_visible: true,
      is_user_defined: false,
      is_visible_on_front: true,
      is_comparable: false,
    },
    {
      attribute_id: 201,
      attribute_code: 'description',
      default_frontend_label: 'Description',
      frontend_label: 'Description',
      frontend_input: 'textarea',
      options: [],
      is_visible: true,
      is_user_defined: false,
      is_visible_on_front: true,
      is_comparable: true,
    },
  ]
}

/** The sale value of one piece of apparel (before GST, ₹) up to which its GST is 5 %. */
const APPAREL_GST_SLAB = 2500
const gbVat = { rate: 20, code: 'GB-VAT-20', tax_country_id: 'GB', region_name: '*', tax_region_id: 0 }
const gst = (rate: number, maxValue?: number) => ({
  rate,
  code: `IN-GST-${rate}`,
  tax_country_id: 'IN',
  region_name: '*',
  tax_region_id: 0,
  ...(maxValue ? { max_value: maxValue } : {}),
})

/**
 * The shop's tax rules, India's GST as in force since 22 September 2025 (the first rule naming a
 * product's tax class and HSN code taxes it): jewellery 3 %; bags, stationery and other
 * accessories 18 %; apparel and made-ups (HSN 61–63, and goods no rule above names) 5 % when a
 * piece sells for at most ₹2,500 before GST, 18 % above. UK VAT is 20 % on all of them; no other
 * country is named, so elsewhere prices carry no tax (duties are the carrier's). Gift cards carry
 * no tax anywhere.
 */
export function buildTaxRules(): TaxRule[] {
  const rule = (id: number, code: string, hsn: string[] | null, rates: TaxRule['rates']): TaxRule => ({
    id,
    code,
    priority: 0,
    product_tax_class_ids: [2],
    customer_tax_class_ids: [3],
    ...(hsn ? { hsn_prefixes: hsn } : {}),
    rates,
  })
  return [
    rule(1, 'Jewellery (HSN 71)', ['71'], [gst(3), gbVat]),
    {
      id: 2,
      code: 'Gift cards and digital goods',
      priority: 0,
      product_tax_class_ids: [5],
      customer_tax_class_ids: [3],
      // Gift cards are sold at face value: no tax inside them in any country.
      rates: [{ ...gst(0) }],
    },
    rule(
      3,
      'Bags, stationery and other accessories (HSN 42, 48, 49, 96)',
      ['42', '48', '49', '96'],
      [gst(18), gbVat],
    ),
    rule(4, 'Apparel and made-ups (HSN 61-63)', null, [gst(5, APPAREL_GST_SLAB), gst(18), gbVat]),
  ]
}
