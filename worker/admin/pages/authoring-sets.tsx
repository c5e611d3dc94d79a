/**
 * The parts of the product form that only some types have: a grouped product's members (in the
 * shop's order, each with the quantity the shop's form starts at), a bundle's options (each with
 * its member SKUs, required or not, a default and a quantity), and a virtual product's stock,
 * which may go uncounted. Members are typed by SKU, picked from the list of simple and virtual
 * products the browser offers as one types (by SKU or name).
 */
import type { Product } from '@shared/schemas/catalog'
import { MAX_BUNDLE_OPTIONS, MAX_MEMBERS, memberField, optionField } from '../authoring-sets'
import { Field, GroupError } from './components'

const MEMBER_LIST = 'set-member-skus'

/** The simple and virtual products a set may list, offered while typing a SKU. */
export function MemberChoices(props: { members: { sku: string; name: string }[] }) {
  return (
    <datalist id={MEMBER_LIST}>
      {props.members.map((m) => (
        <option key={m.sku} value={m.sku} label={m.name} />
      ))}
    </datalist>
  )
}

/**
 * One SKU of the set's list (offered while typing) and the quantity the shop's form starts at,
 * under the form's `names` of the two fields.
 */
function SkuAndQuantity(props: {
  label: string
  names: readonly [sku: string, qty: string]
  sku: string | undefined
  qty: string | undefined
}) {
  return (
    <>
      <Field
        label={props.label}
        name={props.names[0]}
        list={MEMBER_LIST}
        maxLength={64}
        defaultValue={props.sku}
      />
      <Field label="Quantity" name={props.names[1]} inputMode="numeric" defaultValue={props.qty} />
    </>
  )
}

/** Rows shown: the stored ones and `spare` empty ones, at most `max`. */
const rowCount = (stored: number, spare: number, max: number) =>
  Math.min(max, Math.max(stored + spare, spare))

export function GroupedMembers(props: { product: Product | null }) {
  const links = (props.product?.product_links ?? []).filter((l) => l.link_type === 'associated')
  const rows = Array.from({ length: rowCount(links.length, 3, MAX_MEMBERS) }, (_, k) => k + 1)
  return (
    <fieldset>
      <legend>Products in the set (in the order the shop lists them)</legend>
      <GroupError name="members" />
      {rows.map((row) => {
        const link = links[row - 1] as (typeof links)[number] & { qty?: number }
        return (
          <div key={row} className="row">
            <SkuAndQuantity
              label={`Product ${row} (SKU)`}
              names={[memberField(row, 'sku'), memberField(row, 'qty')]}
              sku={link?.linked_product_sku}
              qty={link ? String(link.qty ?? 1) : undefined}
            />
          </div>
        )
      })}
    </fieldset>
  )
}

export function BundleOptions(props: { product: Product | null }) {
  const options = props.product?.bundle_options ?? []
  const rows = Array.from(
    { length: rowCount(options.length, options.length ? 1 : 2, MAX_BUNDLE_OPTIONS) },
    (_, k) => k + 1,
  )
  return (
    <fieldset>
      <legend>Options of the bundle (the shopper picks one product of each)</legend>
      <GroupError name="options" />
      {rows.map((row) => {
        const o = options[row - 1]
        const def = o?.product_links.find((l) => l.is_default)
        return (
          <fieldset key={row}>
            <legend>Option {row}</legend>
            <Field
              label="Name (e.g. Earrings)"
              name={optionField(row, 'title')}
              maxLength={100}
              defaultValue={o?.title}
            />
            <Field
              label="Products (SKUs, separated by commas)"
              name={optionField(row, 'skus')}
              list={MEMBER_LIST}
              maxLength={2000}
              defaultValue={o?.product_links.map((l) => l.sku).join(', ')}
            />
            <SkuAndQuantity
              label="Default (a SKU of the option; blank: the first)"
              names={[optionField(row, 'default'), optionField(row, 'qty')]}
              sku={def?.sku}
              qty={o ? String(o.product_links[0]?.qty ?? 1) : undefined}
            />
            <Field
              label="Required"
              type="checkbox"
              name={optionField(row, 'required')}
              defaultChecked={o?.required ?? true}
            />
          </fieldset>
        )
      })}
    </fieldset>
  )
}

/** A virtual product's stock: counted (the stock field) or not counted at all. */
export function VirtualStock(props: { product: Product | null }) {
  const unmanaged = (props.product?.stock as { manage_stock?: boolean } | undefined)?.manage_stock === false
  return (
    <Field
      label="Do not count stock (a service or an e-gift that never runs out)"
      type="checkbox"
      name="stock_unlimited"
      defaultChecked={unmanaged}
    />
  )
}
