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
    { value: String(ACCESSORY_OPTION.id), label: ACCESSORY_OPTION.label },
    { value: String(GIFT_OPTION.id), label: GIFT_OPTION.label },
  ]
  return [
    select(
      ATTRIBUTE_IDS.color,
      'color',
      'Color',
      COLORS.map((c) => ({ value: String(c.id), label: c.label, swatch: c.hex })),
    ),
    select(
      ATTRIBUTE_IDS.size,
      'size',
      'Size',
      SIZES.map((s) => ({ value: String(s.id), label: s.label })),
    ),
    select(
      ATTRIBUTE_IDS.gender,
      'gender',
      'Gender',
      GENDERS.map((g) => ({ value: String(g.id), label: g.label })),
    ),
    select(
      ATTRIBUTE_IDS.designer,
      'designer',
      'Designer',
      DESIGNERS.map((d) => ({ value: String(d.id), label: d.label })),
    ),
    select(
      ATTRIBUTE_IDS.rts,
      'rts',
      'Ready to Ship',
      RTS_OPTIONS.map((o) => ({ value: String(o.id), label: o.label })),
    ),
    select(
      ATTRIBUTE_IDS.discount,
      'discount',
      'Discount',
      DISCOUNT_OPTIONS.map((o) => ({ value: String(o.id), label: o.label })),
    ),
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

/** GST in India, US sales tax, UK VAT and 0 elsewhere for apparel; gift cards carry no tax anywhere. */
export function buildTaxRules(): TaxRule[] {
  const rates = (inRate: number, usRate: number, gbRate: number) => [
    { rate: inRate, code: `IN-GST-${inRate}`, tax_country_id: 'IN', region_name: '*', tax_region_id: 0 },
    { rate: usRate, code: `US-${usRate}`, tax_country_id: 'US', region_name: '*', tax_region_id: 0 },
    { rate: gbRate, code: `GB-VAT-${gbRate}`, tax_country_id: 'GB', region_name: '*', tax_region_id: 0 },
    { rate: 0, code: 'ROW-0', tax_country_id: 'ROW', region_name: '*', tax_region_id: 0 },
  ]
  return [
    {
      id: 1,
      code: 'Apparel and accessories',
      priority: 0,
      product_tax_class_ids: [2],
      customer_tax_class_ids: [3],
      rates: rates(12, 7.25, 20),
    },
    {
      id: 2,
      code: 'Gift cards and digital goods',
      priority: 0,
      product_tax_class_ids: [5],
      customer_tax_class_ids: [3],
      // Gift cards are sold at face value: no tax inside them in any country.
      rates: rates(0, 0, 0),
    },
  ]
}
