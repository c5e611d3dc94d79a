/**
 * A product's attributes picked on the product form: every select attribute of the catalogue's
 * attribute list (the `attributes` table, as imported or seeded) that the shop shows on the product
 * page (user-defined, visible on the front), except those its other fields decide
 * (DERIVED_ATTRIBUTES). The one list feeds the form (label and options), the check of what is sent
 * (a value must be one of the attribute's options) and the document: the value is stored under the
 * attribute's code as the option id, which the product page turns into its label and the listing's
 * filters and counts read from the search rows.
 */
import { DERIVED_ATTRIBUTES } from '@shared/config/catalog'
import { getAttributes } from '../catalog/content'
import { refuseField } from './authoring-fields'

export interface PickableAttribute {
  code: string
  label: string
  options: { value: string; label: string }[]
}

/** The form's field name of attribute `code`. */
export const attributeField = (code: string) => `attr_${code}`

/** The attributes an operator picks on the product form, in the catalogue's order. */
export async function pickableAttributes(db: D1Database): Promise<PickableAttribute[]> {
  return (await getAttributes(db))
    .filter(
      (a) =>
        a.frontend_input === 'select' &&
        a.is_user_defined &&
        a.is_visible_on_front &&
        a.options.length > 0 &&
        !DERIVED_ATTRIBUTES.includes(a.attribute_code),
    )
    .map((a) => ({
      code: a.attribute_code,
      label: a.frontend_label || a.default_frontend_label || a.attribute_code,
      options: a.options.map((o) => ({ value: String(o.value), label: o.label })),
    }))
}

/**
 * The attribute values the form or an API caller sent (`attr_<code>`), each checked against its
 * options; a pickable attribute not sent is cleared. An option id that is a number is stored as
 * one, as the catalogue's documents hold it.
 */
export function attributeValues(
  input: Record<string, unknown>,
  pickable: readonly PickableAttribute[],
): Record<string, string | number | null> {
  const values: Record<string, string | number | null> = {}
  for (const a of pickable) {
    const name = attributeField(a.code)
    const sent = input[name]
    if (sent === undefined || sent === null || String(sent).trim() === '') {
      values[a.code] = null
      continue
    }
    const option = a.options.find((o) => o.value === String(sent).trim())
    if (!option) refuseField(400, name, `${a.label}: choose one of its values`)
    values[a.code] = /^\d{1,9}$/.test(option.value) ? Number(option.value) : option.value
  }
  return values
}
