/**
 * The AMP pages' frame and product pieces: the header (the store name home, a link back to the full
 * page), breadcrumbs, the size list of a configurable product and the footer (the shop footer's
 * link columns). Plain links only: AMP pages carry no author JavaScript.
 */
import { productPath } from '@shared/config/links'
import { isChildInStock } from '@shared/domain/availability'
import type { Breadcrumb } from '@shared/domain/menu'
import type { Now } from '@shared/domain/price-window'
import { availableOptionValues, defaultVariantForSize, optionLabel } from '@shared/domain/variants'
import { MSG } from '@shared/i18n/messages'
import type { Product } from '@shared/schemas/catalog'
import { FOOTER_COLUMNS } from '../../platform/render/layouts'

/** The header link that leaves the AMP page for the same page in the full shop. */
const FULL_PAGE_LABEL = 'View the full page'
/** The product page's main button: AMP pages cannot hold a bag, so buying happens on the shop. */
export const BUY_LABEL = 'Buy on the shop'

export function AmpHeader({ storeName, fullPage }: { storeName: string; fullPage: string }) {
  return (
    <header className="amp-header">
      <div className="amp-header__bar">
        <a className="amp-header__logo" href="/">
          {storeName}
        </a>
        <a className="amp-header__full" href={fullPage}>
          {FULL_PAGE_LABEL}
        </a>
      </div>
    </header>
  )
}

export function Breadcrumbs({ crumbs }: { crumbs: readonly Breadcrumb[] }) {
  return (
    <nav aria-label="Breadcrumb">
      <ol className="crumbs">
        {crumbs.map((c) => (
          <li key={`${c.label}-${c.href}`}>{c.href ? <a href={c.href}>{c.label}</a> : c.label}</li>
        ))}
      </ol>
    </nav>
  )
}

/**
 * The sizes a configurable product is offered in (in the option's order, only sizes some variant
 * has), each a link to the full page with that size's default variant chosen; a size whose
 * variants are all out of stock is shown struck through and not linked. Nothing for a product
 * without a size option.
 */
export function SizeList({ product, now }: { product: Product; now: Now }) {
  const option = product.configurable_options.find((o) => o.attribute_code === 'size')
  if (!option) return null
  const sizes = availableOptionValues(product, {}, 'size', { listOutOfStock: true })
  if (!sizes.length) return null
  return (
    <>
      <p className="sizes-title" id="amp-sizes">
        {option.label || 'Size'}
      </p>
      <ul className="sizes" aria-labelledby="amp-sizes">
        {sizes.map((value) => {
          const label = optionLabel(product, 'size', value) ?? String(value)
          const child = defaultVariantForSize(product, value, now)
          return (
            <li key={value}>
              {child && isChildInStock(child) ? (
                <a href={productPath(product.sku, product.slug, child.sku)}>{label}</a>
              ) : (
                <span className="sold-out" title={MSG.outOfStockBadge}>
                  {label}
                </span>
              )}
            </li>
          )
        })}
      </ul>
    </>
  )
}

export function AmpFooter({ storeName, currency }: { storeName: string; currency: string }) {
  return (
    <footer className="footer">
      <div className="footer__inner">
        {FOOTER_COLUMNS.map((col) => (
          <nav key={col.title} aria-label={col.title}>
            <h2 className="footer__title">{col.title}</h2>
            <ul>
              {col.links.map((l) => (
                <li key={l.label}>
                  <a href={l.href}>{l.label}</a>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <p className="footer__legal">
        © {storeName}. Prices in {currency}.
      </p>
    </footer>
  )
}
