/**
 * The /compare page island: the compared pieces side by side — price, then the garment rows read
 * from the catalogue now (designer, fabric, care, ready to ship or made to order, sizes in stock),
 * then each comparable attribute (is_comparable) some piece has a value for, as option labels; a
 * piece without a value shows a dash. Each piece can be removed. On a phone the first column
 * stays put and the table says it scrolls sideways.
 */

import { ListImage } from '@shared/components/catalog/list-image'
import { formatAttributeValue } from '@shared/components/product/view'
import { IMAGE_SIZES } from '@shared/config/images'
import { formatUnitPrice } from '@shared/domain/currency'
import { MSG } from '@shared/i18n/messages'
import type { Attribute } from '@shared/schemas/catalog'
import { useEffect } from 'react'
import { compare } from '../../state/compare'
import { useSignalValue } from '../../state/use-signal'
import { defineIsland } from '../define'
import { array, object, schemaOf, str } from '../props-check'
import { useCatalogProducts } from './catalog-products'
import { type CompareRow, garmentRows } from './compare-rows'

export interface CompareAttribute {
  code: string
  label: string
  input: string
  options: { value: string; label: string }[]
}

interface ComparePageProps {
  currency: string
  attributes: CompareAttribute[]
}

const ComparePagePropsSchema = schemaOf<ComparePageProps>(
  object({
    currency: str,
    attributes: array(
      object({ code: str, label: str, input: str, options: array(object({ value: str, label: str })) }),
    ),
  }),
)

function asAttribute(a: CompareAttribute): Attribute {
  return {
    attribute_id: 0,
    attribute_code: a.code,
    default_frontend_label: a.label,
    frontend_input: a.input,
    options: a.options,
    is_visible: true,
    is_user_defined: true,
    is_visible_on_front: true,
    is_comparable: true,
  }
}

function ComparePage({ currency, attributes }: ComparePageProps) {
  const items = useSignalValue(compare.items)
  const loaded = useSignalValue(compare.loaded)
  useEffect(() => {
    void compare.load()
  }, [])
  const products = useCatalogProducts(items.map((i) => i.sku))
  const garment = products ? garmentRows(items.map((i) => products.get(i.sku) ?? null)) : []
  const shown = new Set(garment.map((r) => r.key))
  const rows: CompareRow[] = [
    ...garment,
    ...attributes
      .filter((a) => !shown.has(a.code))
      .map((a) => ({
        key: a.code,
        label: a.label,
        values: items.map((item) => {
          const v = formatAttributeValue(asAttribute(a), item.attributes?.[a.code], '')
          return v === MSG.notAvailablePlaceholder ? '' : String(v ?? '')
        }),
      }))
      .filter((r) => r.values.some(Boolean)),
  ]
  const { width, height } = IMAGE_SIZES.thumb
  return (
    <section className="list-page compare-page" data-testid="compare-page">
      <h1>Compare products</h1>
      {!loaded ? (
        <p className="list-loading">Loading…</p>
      ) : items.length === 0 ? (
        <p className="list-empty" data-testid="compare-empty">
          You have no products to compare.
        </p>
      ) : (
        <>
          <p className="compare-table__hint" id="compare-hint">
            {items.length > 1
              ? `${items.length} pieces side by side. On a small screen, scroll the table sideways to see each one.`
              : 'One piece so far: add another from its page to compare them side by side.'}
          </p>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a table that scrolls sideways takes the focus, so a keyboard can scroll it */}
          <section className="compare-table__wrap" aria-labelledby="compare-hint" tabIndex={0}>
            <table className="compare-table" data-testid="compare-table">
              <thead>
                <tr>
                  <th scope="col">
                    <span className="visually-hidden">Attribute</span>
                  </th>
                  {items.map((item) => (
                    <th key={item.sku} scope="col" data-sku={item.sku}>
                      <a href={item.url}>
                        <ListImage
                          path={item.image}
                          size="thumb"
                          shown={{ width: width / 4, height: height / 4 }}
                        />
                        <span className="compare-table__name">{item.name}</span>
                      </a>
                      <button
                        type="button"
                        className="link-button compare-table__remove"
                        onClick={() => void compare.remove(item.sku)}
                        aria-label={`Remove ${item.name} from compare`}
                      >
                        Remove from compare
                      </button>
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                <tr data-attribute="price">
                  <th scope="row">Price</th>
                  {items.map((item) => (
                    <td key={item.sku}>{formatUnitPrice(item.price, currency)}</td>
                  ))}
                </tr>
                {rows.map((r) => (
                  <tr key={r.key} data-attribute={r.key}>
                    <th scope="row">{r.label}</th>
                    {r.values.map((v, i) => (
                      <td key={items[i]?.sku ?? i}>
                        {v || (
                          <>
                            <span aria-hidden="true">—</span>
                            <span className="visually-hidden">not given</span>
                          </>
                        )}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        </>
      )}
    </section>
  )
}

export const ComparePageIsland = defineIsland('compare-page', ComparePage, ComparePagePropsSchema)
