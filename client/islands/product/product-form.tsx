/**
 * Product form island (catalogue spec §2 "Product detail page", §4, §5): price block, stock badge,
 * estimated delivery, the variant picker (colour swatches, sizes; wrong-attribute choice restores
 * the previous one with a notice; the URL's childSku follows the choice), custom options, bundle
 * options, grouped links, size guide, add to cart, wishlist and compare. Prices, availability,
 * variants and validation all come from shared/domain (the same code the cart uses).
 */
import { useEffect, useMemo, useRef, useState } from 'react'
import type { ProductSummary } from '../../../shared/components/product/summary'
import { type FormChild, type FormProduct, toFormProduct } from '../../../shared/components/product/view'
import { colorSwatch } from '../../../shared/config/content'
import { FLAGS } from '../../../shared/config/flags'
import { productPath } from '../../../shared/config/routes'
import {
  estimatedDelivery,
  isChildInStock,
  isProductInStock,
  isVariantAvailable,
  shouldStartLoad,
  variantsError,
} from '../../../shared/domain/availability'
import { formatPrice } from '../../../shared/domain/currency'
import {
  isValidGroupedQty,
  toQuantity,
  validateBundleOptions,
  validateCustomOptions,
} from '../../../shared/domain/options'
import {
  type BundleSelection,
  defaultBundleLink,
  finalPrice,
  priceView,
  type TaxRuleFields,
} from '../../../shared/domain/price'
import {
  availableOptionValues,
  configureVariant,
  defaultVariant,
  isSizeSelected,
  selectionFromChild,
  type VariantSelection,
} from '../../../shared/domain/variants'
import { MSG } from '../../../shared/i18n/messages'
import { bus, EVENTS } from '../../engines/runtime/events'
import { compare } from '../../state/compare'
import { notify } from '../../state/notifications'
import { openPanel, togglePanel } from '../../state/ui'
import { useSignalValue } from '../../state/use-signal'
import { wishlist } from '../../state/wishlist'
import { defineIsland } from '../define'
import { array, type Check, nullable, num, object, record, schemaOf, str } from '../props-check'
import { type AddToCartLine, addToCart } from './add-to-cart'
import { type GalleryImage, selectedVariantImage } from './product-page-state'
import { reloadProduct } from './reload'

export interface SizeGuideView {
  title: string
  rows: string[][]
  note?: string
}

export interface ProductFormProps {
  product: FormProduct
  /** childSku from the URL (null when absent). */
  childSku: string | null
  currency: string
  country: string
  /** Server time of the page load (ms): prices for the first render, and the 20 s load guard. */
  now: number
  taxRules: TaxRuleFields[]
  summary: ProductSummary
  /** Gallery entry of each configurable child with its own image, by child sku. */
  variantImages: Record<string, GalleryImage>
  sizeGuide: SizeGuideView | null
}

/** Checks the listed fields and keeps the whole value (the server built it from validated documents). */
function loose(shape: Record<string, Check<unknown>>): Check<unknown> {
  const check = object(shape)
  return (v, p) => {
    check(v, p)
    return v
  }
}

// Island props are validated on hydration (props-check: zod/mini would cost ~6 KB gzip here).
export const ProductFormPropsSchema = schemaOf<ProductFormProps>(
  object({
    product: loose({
      sku: str,
      name: str,
      type_id: str,
      price: num,
      configurable_children: array(loose({ sku: str })),
    }),
    childSku: nullable(str),
    currency: str,
    country: str,
    now: num,
    taxRules: array(loose({ product_tax_class_ids: array(num) })),
    summary: loose({ sku: str, name: str, url: str, price: num }),
    variantImages: record(loose({ src: str })),
    sizeGuide: nullable(loose({ title: str, rows: array(array(str)) })),
  }),
)

const AVAILABILITY = { listOutOfStock: FLAGS.listOutOfStockProducts }

type CustomValues = Record<number, string | number | number[] | null>
type BundleChoices = Record<number, { linkId: number | null; qty: string }>

function initialBundle(product: FormProduct): BundleChoices {
  const out: BundleChoices = {}
  for (const option of product.bundle_options) {
    const link = defaultBundleLink(option)
    out[option.option_id] = { linkId: link?.id ?? null, qty: String(link?.qty ?? 1) }
  }
  return out
}

function bundleSelectionOf(choices: BundleChoices): BundleSelection {
  const sel: BundleSelection = {}
  for (const [id, c] of Object.entries(choices)) sel[id] = { linkId: c.linkId, qty: toQuantity(c.qty) || 0 }
  return sel
}

function initialVariant(product: FormProduct, childSku: string | null, now: number): FormChild | null {
  if (product.type_id !== 'configurable') return null
  return defaultVariant(product, now, childSku, AVAILABILITY)
}

/** The URL after choosing a variant: /p/... paths get the childSku segment, url_path pages a ?childSku=. */
export function variantUrl(
  location: { pathname: string; search: string },
  product: FormProduct,
  childSku: string,
): string {
  if (location.pathname.startsWith('/p/')) return productPath(product.sku, product.slug, childSku)
  const params = new URLSearchParams(location.search)
  params.set('childSku', childSku)
  return `${location.pathname}?${params.toString()}`
}

function ProductForm(props: ProductFormProps) {
  const { currency, country, taxRules, summary, variantImages, sizeGuide } = props
  const [product, setProduct] = useState<FormProduct>(props.product)
  const [now] = useState(props.now)
  const [variant, setVariant] = useState<FormChild | null>(() =>
    initialVariant(props.product, props.childSku, props.now),
  )
  const [selection, setSelection] = useState<VariantSelection>(() =>
    variant ? selectionFromChild(props.product, variant) : {},
  )
  // "Selecting a size sets isSizeSelected": a size in the URL counts as chosen.
  const [sizeChosen, setSizeChosen] = useState(
    () => !!props.childSku && !!variant && isSizeSelected(selection),
  )
  const [custom, setCustom] = useState<CustomValues>({})
  const [bundle, setBundle] = useState<BundleChoices>(() => initialBundle(props.product))
  const [grouped, setGrouped] = useState<Record<string, string>>(() =>
    Object.fromEntries(props.product.product_links.map((l) => [l.linked_product_sku, '1'])),
  )
  const [qty, setQty] = useState('1')
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [submitted, setSubmitted] = useState(false)
  const [needSize, setNeedSize] = useState(false)
  const lastLoad = useRef<number>(props.now)
  const panel = useSignalValue(openPanel)
  const wishlistSkus = useSignalValue(wishlist.skus)
  const compareSkus = useSignalValue(compare.skus)

  // biome-ignore lint/correctness/useExhaustiveDependencies: once per page view (the island mounts with its product)
  useEffect(() => {
    void wishlist.load()
    void compare.load()
    // Analytics ViewContent (transactions spec §7); loaded lazily, outside the page's JS budget.
    void import('../../engines/analytics').then((m) =>
      m.track('ViewContent', {
        contentIds: [props.product.sku],
        contentName: props.product.name,
        contentType: 'product',
        value: props.summary.price,
      }),
    )
  }, [])

  // "When price tiers are enabled, login or logout reloads the product, skipping the cache."
  useEffect(
    () =>
      bus.on(EVENTS.productReloadNoCache, () => {
        lastLoad.current = Date.now()
        reloadProduct(product.sku)
          .then((fresh) => {
            if (fresh) setProduct(toFormProduct(fresh))
          })
          .catch((err) => console.warn('[product] reload failed', err))
      }),
    [product.sku],
  )

  const isConfigurable = product.type_id === 'configurable'
  const hasSizeOption = product.configurable_options.some((o) => o.attribute_code === 'size')

  const price = useMemo(
    () =>
      priceView(product, {
        now,
        currency,
        taxRules,
        country,
        variantSku: variant?.sku ?? null,
        customOptions: custom,
        bundleSelection: product.type_id === 'bundle' ? bundleSelectionOf(bundle) : undefined,
      }),
    [product, now, currency, taxRules, country, variant, custom, bundle],
  )

  const variantError = variantsError(product, AVAILABILITY)
  const inStock =
    isConfigurable && variant
      ? isChildInStock(variant) && isProductInStock(product)
      : isProductInStock(product)
  const delivery = estimatedDelivery(
    {
      delivery_days: product.delivery_days,
      rts_qty: variant?.rts_qty ?? product.rts_qty,
      rts_delivery_time: product.rts_delivery_time,
    },
    now,
  )

  // Re-run validation live once the shopper has tried to add.
  useEffect(() => {
    if (!submitted) return
    setErrors({
      ...validateCustomOptions(product.custom_options, custom).errors,
      ...validateBundleOptions(product.bundle_options, bundleSelectionOf(bundle)).errors,
    })
  }, [submitted, custom, bundle, product])

  function applyVariant(next: FormChild, nextSelection: VariantSelection) {
    setVariant(next)
    setSelection(nextSelection)
    selectedVariantImage.value = variantImages[next.sku] ?? null
    if (FLAGS.updateUrlChildSku && typeof window !== 'undefined') {
      window.history.replaceState(window.history.state, '', variantUrl(window.location, product, next.sku))
    }
    // "On a route change it reloads the product" — unless a load started within the last 20 s.
    const t = Date.now()
    if (shouldStartLoad(lastLoad.current, t)) {
      lastLoad.current = t
      reloadProduct(product.sku)
        .then((fresh) => {
          if (!fresh) throw new Error('product gone')
          const view = toFormProduct(fresh)
          setProduct(view)
          const same = view.configurable_children.find((c) => c.sku === next.sku)
          if (same) setVariant(same)
        })
        .catch((err) => {
          console.warn('[product] reload failed', err)
          notify({ type: 'error', message: MSG.productLoadFailed, action1: { label: MSG.ok } })
          window.history.back()
        })
    }
  }

  function choose(attribute: string, value: number) {
    // A choice "matches" only when it configures an available variant (catalogue §4 Availability).
    const usable = (r: {
      notice: string | null
      variant: FormChild | null
    }): r is { notice: null; variant: FormChild } =>
      !r.notice && !!r.variant && isVariantAvailable(r.variant, AVAILABILITY)
    let result = configureVariant(product, selection, attribute, value, AVAILABILITY)
    let keepSize = true
    // A colour without the current size falls back to that colour's default variant.
    if (!usable(result) && attribute !== 'size' && selection.size != null) {
      const withoutSize = configureVariant(
        product,
        { ...selection, size: null },
        attribute,
        value,
        AVAILABILITY,
      )
      if (usable(withoutSize)) {
        result = withoutSize
        keepSize = false
      }
    }
    if (!usable(result)) {
      // "If no variant matches, the previous choice is restored and a wrong-attributes notice is shown."
      notify({ type: 'warning', message: result.notice ?? MSG.wrongAttributes })
      setSelection({ ...selection })
      return
    }
    if (!keepSize) setSizeChosen(false)
    if (attribute === 'size') {
      setSizeChosen(true)
      setNeedSize(false)
      if (panel === 'sizeselector') togglePanel('sizeselector')
    }
    applyVariant(result.variant, selectionFromChild(product, result.variant))
  }

  async function onAddToCart() {
    setSubmitted(true)
    const customCheck = validateCustomOptions(product.custom_options, custom)
    const bundleCheck = validateBundleOptions(product.bundle_options, bundleSelectionOf(bundle))
    setErrors({ ...customCheck.errors, ...bundleCheck.errors })
    const productError = customCheck.productError ?? bundleCheck.productError
    if (productError) {
      notify({ type: 'error', message: productError, action1: { label: MSG.ok } })
      return
    }
    if (isConfigurable && hasSizeOption && !sizeChosen) {
      setNeedSize(true)
      return
    }
    const quantity = toQuantity(qty)
    if (!(quantity >= 1)) return
    if (product.type_id === 'grouped') {
      const lines: AddToCartLine[] = []
      for (const link of product.product_links) {
        const q = grouped[link.linked_product_sku] ?? '1'
        if (!isValidGroupedQty(q) || !link.product) continue
        const unit = priceView(link.product, { now, currency, taxRules, country })
        lines.push({
          sku: link.linked_product_sku,
          parentSku: product.sku,
          name: link.product.name,
          qty: toQuantity(q),
          priceInclTax: unit.finalInclTax,
          type_id: 'simple',
        })
      }
      await addToCart(lines)
      return
    }
    const line: AddToCartLine = {
      sku: variant?.sku ?? product.sku,
      parentSku: product.sku,
      name: product.name,
      qty: quantity,
      type_id: product.type_id,
      slug: product.slug,
      url_path: product.url_path,
      image: variant?.image ?? product.image ?? null,
      priceInclTax: price.finalInclTax,
      originalPriceInclTax: price.regularInclTax,
      finalDiscount: price.discountPercent,
      stock: (({ qty, is_in_stock, stock_status }) => ({
        qty,
        is_in_stock,
        stock_status: stock_status ?? undefined,
      }))(variant?.stock ?? product.stock),
      product_option: {
        extension_attributes: {
          configurable_item_options: product.configurable_options
            .filter((o) => selection[o.attribute_code] != null)
            .map((o) => ({
              option_id: String(o.attribute_id),
              option_value: String(selection[o.attribute_code]),
              label: o.label,
              value: o.values.find((v) => v.value_index === selection[o.attribute_code])?.label ?? '',
            })),
          custom_options: Object.entries(custom)
            .filter(([, v]) => v != null && v !== '' && !(Array.isArray(v) && v.length === 0))
            .map(([id, v]) => ({
              option_id: Number(id),
              option_value: Array.isArray(v) ? v.join(',') : String(v),
            })),
          // Only chosen links with a quantity: the server stores exactly these (an optional option
          // set to 0 is not part of the bundle).
          bundle_options: Object.entries(bundle)
            .filter(([, c]) => c.linkId != null && toQuantity(c.qty) > 0)
            .map(([id, c]) => ({
              option_id: Number(id),
              option_qty: toQuantity(c.qty) || 0,
              option_selections: [c.linkId as number],
            })),
        },
      },
    }
    await addToCart([line])
  }

  const inWishlist = wishlistSkus.has(summary.sku)
  const inCompare = compareSkus.has(summary.sku)
  const currentSummary: ProductSummary = {
    ...summary,
    price: price.finalInclTax,
    image: variant?.image ?? summary.image,
  }

  return (
    <div className="product-form" data-testid="product-form">
      <div className="product-price" data-testid="product-price">
        {price.isOnSale ? (
          <>
            <span className="price price--special" data-testid="price-final">
              {price.formatted.final}
            </span>{' '}
            <del className="price price--regular" data-testid="price-regular">
              {price.formatted.regular}
            </del>{' '}
            <span className="price__discount" data-testid="price-discount">
              {`${price.discountPercent}% off`}
            </span>
          </>
        ) : (
          <span className="price" data-testid="price-final">
            {price.formatted.final}
          </span>
        )}
      </div>

      <p className="product-stock" data-testid="product-stock">
        {inStock ? (
          <span className="stock stock--in">In stock</span>
        ) : (
          <span className="badge badge--oos" data-testid="out-of-stock">
            {MSG.outOfStockBadge}
          </span>
        )}
        {isConfigurable && variant ? (
          <span className="product-stock__sku" data-testid="variant-sku">
            {` SKU ${variant.sku}`}
          </span>
        ) : null}
      </p>

      {variantError ? (
        <p className="form-error" role="alert" data-testid="variants-error">
          {variantError}
        </p>
      ) : null}

      {product.configurable_options.map((option) => {
        const code = option.attribute_code
        const available = new Set(availableOptionValues(product, selection, code, AVAILABILITY))
        const anyAvailable = new Set(availableOptionValues(product, {}, code, AVAILABILITY))
        const chosenLabel = option.values.find((v) => v.value_index === selection[code])?.label
        return (
          <fieldset
            key={code}
            className={`variant-picker variant-picker--${code}`}
            data-testid={`picker-${code}`}
          >
            <legend>
              {option.label}
              {chosenLabel && (code !== 'size' || sizeChosen) ? `: ${chosenLabel}` : ''}
            </legend>
            <div className="variant-picker__values">
              {option.values
                .filter((v) => anyAvailable.has(v.value_index))
                .map((v) => {
                  const isSelected = selection[code] === v.value_index && (code !== 'size' || sizeChosen)
                  const isAvailable = available.has(v.value_index)
                  const child = product.configurable_children.find(
                    (c) =>
                      c[code as 'color' | 'size'] === v.value_index &&
                      Object.entries(selection).every(
                        ([k, val]) => k === code || val == null || c[k as 'color' | 'size'] === val,
                      ),
                  )
                  const oos = child ? !isChildInStock(child) : false
                  const swatch = code === 'color' ? colorSwatch(v.label) : null
                  return (
                    <button
                      key={v.value_index}
                      type="button"
                      className={`variant-option${isSelected ? ' variant-option--selected' : ''}${
                        isAvailable ? '' : ' variant-option--unavailable'
                      }${oos ? ' variant-option--oos' : ''}${swatch ? ' variant-option--swatch' : ''}`}
                      aria-pressed={isSelected}
                      aria-label={`${option.label} ${v.label}${isAvailable ? '' : ' (unavailable)'}${oos ? ' (out of stock)' : ''}`}
                      title={v.label}
                      data-testid={`option-${code}-${v.value_index}`}
                      style={swatch ? { background: swatch } : undefined}
                      onClick={() => choose(code, v.value_index)}
                    >
                      {swatch ? <span className="visually-hidden">{v.label}</span> : v.label}
                    </button>
                  )
                })}
            </div>
            {code === 'size' && needSize ? (
              <p className="form-error" role="alert" data-testid="size-required">
                Please select a size.
              </p>
            ) : null}
            {code === 'size' && sizeGuide ? (
              <button
                type="button"
                className="link-button"
                aria-expanded={panel === 'sizeselector'}
                aria-controls="size-guide"
                onClick={() => togglePanel('sizeselector')}
                data-testid="size-guide-button"
              >
                Size guide
              </button>
            ) : null}
          </fieldset>
        )
      })}

      {sizeGuide ? (
        <section
          id="size-guide"
          className={`size-guide${panel === 'sizeselector' ? ' size-guide--open' : ''}`}
          hidden={panel !== 'sizeselector'}
          aria-label={sizeGuide.title}
          data-testid="size-guide"
        >
          <h2>{sizeGuide.title}</h2>
          <table>
            <thead>
              <tr>
                {(sizeGuide.rows[0] ?? []).map((cell, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: static table
                  <th key={i}>{cell}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {sizeGuide.rows.slice(1).map((row, r) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: static table
                <tr key={r}>
                  {row.map((cell, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: static table
                    <td key={i}>{cell}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          {sizeGuide.note ? <p>{sizeGuide.note}</p> : null}
          <button type="button" className="btn btn--secondary" onClick={() => togglePanel('sizeselector')}>
            Close
          </button>
        </section>
      ) : null}

      {product.custom_options.length > 0 ? (
        <fieldset className="custom-options" data-testid="custom-options">
          <legend>Options</legend>
          {product.custom_options.map((option) => {
            const id = `co-${option.option_id}`
            const error = errors[`customOption_${option.option_id}`]
            const value = custom[option.option_id] ?? null
            const set = (v: CustomValues[number]) => setCustom((prev) => ({ ...prev, [option.option_id]: v }))
            const priceLabel = (p: number | null | undefined, type: string | null | undefined) =>
              p ? ` (+${type === 'percent' ? `${p}%` : formatPrice(p, currency)})` : ''
            return (
              <div
                key={option.option_id}
                className="custom-option"
                data-testid={`custom-option-${option.option_id}`}
              >
                {option.type === 'field' ? (
                  <label htmlFor={id}>
                    {`${option.title}${option.is_require ? ' *' : ''}${priceLabel(option.price, option.price_type)}`}
                    <input
                      id={id}
                      type="text"
                      value={typeof value === 'string' ? value : ''}
                      aria-invalid={!!error}
                      aria-describedby={error ? `${id}-error` : undefined}
                      onChange={(e) => set(e.currentTarget.value)}
                    />
                  </label>
                ) : option.type === 'select' || option.type === 'drop_down' ? (
                  <label htmlFor={id}>
                    {`${option.title}${option.is_require ? ' *' : ''}`}
                    <select
                      id={id}
                      value={value == null ? '' : String(value)}
                      aria-invalid={!!error}
                      onChange={(e) => set(e.currentTarget.value ? Number(e.currentTarget.value) : null)}
                    >
                      <option value="">Choose…</option>
                      {option.values.map((v) => (
                        <option key={v.option_type_id} value={v.option_type_id}>
                          {`${v.title}${priceLabel(v.price, v.price_type)}`}
                        </option>
                      ))}
                    </select>
                  </label>
                ) : (
                  <fieldset aria-invalid={!!error}>
                    <legend>{`${option.title}${option.is_require ? ' *' : ''}`}</legend>
                    {option.values.map((v) => {
                      const checked =
                        option.type === 'checkbox'
                          ? Array.isArray(value) && value.includes(v.option_type_id)
                          : value === v.option_type_id
                      return (
                        <label key={v.option_type_id} className="custom-option__choice">
                          <input
                            type={option.type === 'checkbox' ? 'checkbox' : 'radio'}
                            name={id}
                            value={v.option_type_id}
                            checked={checked}
                            onChange={(e) => {
                              if (option.type !== 'checkbox') return set(v.option_type_id)
                              const list = Array.isArray(value) ? value : []
                              set(
                                e.currentTarget.checked
                                  ? [...list, v.option_type_id]
                                  : list.filter((x) => x !== v.option_type_id),
                              )
                            }}
                          />
                          {`${v.title}${priceLabel(v.price, v.price_type)}`}
                        </label>
                      )
                    })}
                  </fieldset>
                )}
                {error ? (
                  <p id={`${id}-error`} className="form-error" role="alert">
                    {error}
                  </p>
                ) : null}
              </div>
            )
          })}
        </fieldset>
      ) : null}

      {product.bundle_options.length > 0 ? (
        <fieldset className="bundle-options" data-testid="bundle-options">
          <legend>Bundle options</legend>
          {product.bundle_options.map((option) => {
            const choice = bundle[option.option_id] ?? { linkId: null, qty: '1' }
            const selError = errors[`bundleOption_${option.option_id}`]
            const qtyError = errors[`bundleOptionQty_${option.option_id}`]
            const set = (c: Partial<BundleChoices[number]>) =>
              setBundle((prev) => ({ ...prev, [option.option_id]: { ...choice, ...c } }))
            return (
              <fieldset
                key={option.option_id}
                className="bundle-option"
                data-testid={`bundle-option-${option.option_id}`}
              >
                <legend>{`${option.title}${option.required ? ' *' : ''}`}</legend>
                {option.product_links.map((link) => {
                  const unit =
                    link.product && (link.product.price ?? 0) > 0
                      ? finalPrice(link.product, now)
                      : (link.price ?? 0)
                  return (
                    <label key={link.id} className="bundle-option__link">
                      <input
                        type="radio"
                        name={`bundle-${option.option_id}`}
                        value={link.id}
                        checked={choice.linkId === link.id}
                        onChange={() => set({ linkId: link.id, qty: String(link.qty ?? 1) })}
                      />
                      {link.product?.name ?? link.sku}{' '}
                      <span className="price">{formatPrice(unit, currency)}</span>
                    </label>
                  )
                })}
                {selError ? (
                  <p className="form-error" role="alert">
                    {selError}
                  </p>
                ) : null}
                <label className="qty-input">
                  Quantity
                  <input
                    type="number"
                    min={0}
                    inputMode="numeric"
                    value={choice.qty}
                    aria-invalid={!!qtyError}
                    data-testid={`bundle-qty-${option.option_id}`}
                    onChange={(e) => set({ qty: e.currentTarget.value })}
                  />
                </label>
                {qtyError ? (
                  <p className="form-error" role="alert">
                    {qtyError}
                  </p>
                ) : null}
              </fieldset>
            )
          })}
        </fieldset>
      ) : null}

      {product.type_id === 'grouped' ? (
        <table className="grouped-links" data-testid="grouped-links">
          <thead>
            <tr>
              <th scope="col">Product</th>
              <th scope="col">Price</th>
              <th scope="col">Quantity</th>
            </tr>
          </thead>
          <tbody>
            {product.product_links
              .filter((l) => l.link_type === 'associated')
              .map((link) => {
                const linkPrice = link.product
                  ? priceView(link.product, { now, currency, taxRules, country })
                  : null
                const q = grouped[link.linked_product_sku] ?? '1'
                return (
                  <tr key={link.linked_product_sku}>
                    <td>{link.product?.name ?? link.linked_product_sku}</td>
                    <td className="price">{linkPrice?.formatted.final ?? ''}</td>
                    <td>
                      <input
                        type="number"
                        min={1}
                        inputMode="numeric"
                        aria-label={`Quantity of ${link.product?.name ?? link.linked_product_sku}`}
                        value={q}
                        aria-invalid={!isValidGroupedQty(q)}
                        onChange={(e) => {
                          const v = e.currentTarget.value
                          setGrouped((prev) => ({ ...prev, [link.linked_product_sku]: v }))
                        }}
                      />
                    </td>
                  </tr>
                )
              })}
          </tbody>
        </table>
      ) : null}

      {delivery ? (
        <p className="product-delivery" data-testid="estimated-delivery">
          Estimated delivery: {delivery}
          {product.rts_disclaimer && (variant?.rts_qty ?? product.rts_qty) ? (
            <small className="product-delivery__note"> {product.rts_disclaimer}</small>
          ) : null}
        </p>
      ) : null}

      <div className="product-actions">
        {product.type_id !== 'grouped' ? (
          <label className="qty-input">
            <span className="visually-hidden">Quantity</span>
            <input
              type="number"
              min={1}
              inputMode="numeric"
              value={qty}
              onChange={(e) => setQty(e.currentTarget.value)}
              data-testid="product-qty"
            />
          </label>
        ) : null}
        <button
          type="button"
          className="btn btn--primary"
          disabled={!inStock || !!variantError}
          onClick={() => void onAddToCart()}
          data-testid="add-to-cart"
        >
          Add to cart
        </button>
        <button
          type="button"
          className={`btn btn--secondary${inWishlist ? ' btn--active' : ''}`}
          aria-pressed={inWishlist}
          onClick={() => void (inWishlist ? wishlist.remove(summary.sku) : wishlist.add(currentSummary))}
          data-testid="add-to-wishlist"
        >
          {inWishlist ? 'Remove from wishlist' : 'Add to wishlist'}
        </button>
        <button
          type="button"
          className={`btn btn--secondary${inCompare ? ' btn--active' : ''}`}
          aria-pressed={inCompare}
          onClick={() => void (inCompare ? compare.remove(summary.sku) : compare.add(currentSummary))}
          data-testid="add-to-compare"
        >
          {inCompare ? 'Remove from compare' : 'Add to compare'}
        </button>
      </div>
    </div>
  )
}

export const ProductFormIsland = defineIsland('product-form', ProductForm, ProductFormPropsSchema)
