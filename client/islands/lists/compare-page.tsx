/**
 * The /compare page island: the compared products side by side, one row per comparable attribute
 * (is_comparable), values as option labels; remove notifies.
 */

import { formatAttributeValue } from '@shared/components/product/view'
import { IMAGE_SIZES } from '@shared/config/images'
import { formatUnitPrice } from '@shared/domain/currency'
import { imageUrl } from '@shared/domain/image-url'
import { MSG } from '@shared/i18n/messages'
import type { Attribute } from '@shared/schemas/catalog'
import { useEffect } from 'react'
import { compare } from '../../state/compare'
import { useSignalValue } from '../../state/use-signal'
import { defineIsland } from '../define'
import { array, object, schemaOf, str } from '../props-check'

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
        <div className="compare-table__wrap">
          <table className="compare-table" data-testid="compare-table">
            <thead>
              <tr>
                <th scope="col">
                  <span className="visually-hidden">Attribute</span>
                </th>
                {items.map((item) => (
                  <th key={item.sku} scope="col" data-sku={item.sku}>
                    <a href={item.url}>
                      <img
                        src={imageUrl(item.image, width, height)}
                        alt=""
                        width={width / 4}
                        height={height / 4}
                        loading="lazy"
                      />
                      <span className="compare-table__name">{item.name}</span>
                    </a>
                    <span className="price">{formatUnitPrice(item.price, currency)}</span>
                    <button
                      type="button"
                      className="link-button"
                      onClick={() => void compare.remove(item.sku)}
                      aria-label={`Remove ${item.name} from compare`}
                    >
                      Remove
                    </button>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {attributes.map((a) => (
                <tr key={a.code} data-attribute={a.code}>
                  <th scope="row">{a.label}</th>
                  {items.map((item) => (
                    <td key={item.sku}>
                      {formatAttributeValue(
                        asAttribute(a),
                        item.attributes?.[a.code],
                        MSG.notAvailablePlaceholder,
                      )}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}

export const ComparePageIsland = defineIsland('compare-page', ComparePage, ComparePagePropsSchema)
