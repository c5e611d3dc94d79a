/**
 * Product form island (the product detail page): price block, stock badge, estimated delivery, the
 * variant picker (colour swatches, sizes; wrong-attribute choice restores the previous one with a
 * notice; the URL's childSku follows the choice), custom options, bundle options, grouped links,
 * size guide, add to cart, wishlist and compare. Prices, availability, variants and validation all
 * come from shared/domain (the same code the cart uses).
 */

import { FormError } from '@shared/components/form-error'
import type { ProductSummary } from '@shared/components/product/summary'
import type { FormProduct } from '@shared/components/product/view'
import {
  estimatedDelivery,
  isChildInStock,
  isProductInStock,
  variantsError,
} from '@shared/domain/availability'
import { toQuantity } from '@shared/domain/options'
import { priceView } from '@shared/domain/price'
import type { TaxRuleFields } from '@shared/domain/tax-rules'
import { MSG } from '@shared/i18n/messages'
import { Suspense, useEffect, useMemo, useRef, useState } from 'react'
import { compare } from '../../state/compare'
import { notify } from '../../state/notifications'
import { openPanel, togglePanel } from '../../state/ui'
import { useSignalValue } from '../../state/use-signal'
import { wishlist } from '../../state/wishlist'
import { defineIsland } from '../define'
import { lazyPart } from '../lazy-part'
import { array, type Check, nullable, num, object, record, schemaOf, str } from '../props-check'
import { addToCart } from './add-to-cart'
import { AVAILABILITY } from './availability-settings'
import { type BundleChoices, bundleInStock, bundleSelectionOf, initialBundle } from './bundle-choices'
import { BuyBar } from './buy-bar'
import { type CustomValues, checkOptions, groupedChoice, productCartLine } from './cart-lines'
import { PriceBlock, StockLine } from './price-block'
import { ProductActions } from './product-actions'
import type { GalleryImage } from './product-page-state'
import { SizeGuide, type SizeGuideView } from './size-guide'
import { useVariantChoice } from './use-variant-choice'
import { VariantPicker } from './variant-picker'

// The option tables of bundle and grouped products: loaded only on those products' pages.
export const BundleOptions = lazyPart(() => import('./composite-options').then((m) => m.BundleOptions))
export const GroupedLinks = lazyPart(() => import('./composite-options').then((m) => m.GroupedLinks))
// The custom options' fields: loaded only on the pages of products that have them.
export const CustomOptions = lazyPart(() => import('./custom-options').then((m) => m.CustomOptions))
// Loaded when the shopper opens it: no cost to the page until then.
const NotifyMe = lazyPart(() => import('./notify-me').then((m) => m.NotifyMe))

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
const ProductFormPropsSchema = schemaOf<ProductFormProps>(
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

/** Once per page view: the lists' stores, and the ViewContent event (loaded lazily, outside the page's JS budget). */
function useProductView(props: ProductFormProps) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per page view (the island mounts with its product)
  useEffect(() => {
    void wishlist.load()
    void compare.load()
    void import('../../engines/analytics').then((m) =>
      m.track('ViewContent', {
        contentIds: [props.product.sku],
        contentName: props.product.name,
        contentType: 'product',
        value: props.summary.price,
      }),
    )
  }, [])
}

/** The options' errors: shown once the shopper tried to add, then kept up to date with every change. */
function useOptionErrors(product: FormProduct, custom: CustomValues, bundle: BundleChoices) {
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [submitted, setSubmitted] = useState(false)
  useEffect(() => {
    if (!submitted) return
    setErrors(checkOptions(product, custom, bundle).errors)
  }, [submitted, custom, bundle, product])
  /** Validates now (and live from now on); the product-level error that blocks the add, if any. */
  const checkNow = () => {
    setSubmitted(true)
    const { errors: now, productError } = checkOptions(product, custom, bundle)
    setErrors(now)
    return productError
  }
  return { errors, checkNow }
}

/** The estimated delivery, with the ready-to-ship disclaimer when the product (or chosen child) ships from stock. */
function DeliveryLine({ delivery, disclaimer }: { delivery: string; disclaimer: string | null }) {
  return (
    <p className="product-delivery" data-testid="estimated-delivery">
      Estimated delivery: {delivery}
      {disclaimer ? <small className="product-delivery__note"> {disclaimer}</small> : null}
    </p>
  )
}

function ProductForm(props: ProductFormProps) {
  const { currency, country, taxRules, summary, sizeGuide } = props
  const [product, setProduct] = useState<FormProduct>(props.product)
  const [now] = useState(props.now)
  const panel = useSignalValue(openPanel)
  const { variant, selection, sizeChosen, needSize, setNeedSize, choose } = useVariantChoice({
    initial: props,
    product,
    setProduct,
    variantImages: props.variantImages,
    sizeGuideOpen: panel === 'sizeselector',
  })
  const [custom, setCustom] = useState<CustomValues>({})
  const [bundle, setBundle] = useState<BundleChoices>(() => initialBundle(props.product))
  const [grouped, setGrouped] = useState<Record<string, string>>(() =>
    // Each piece starts at the quantity its set lists (1 when it lists none).
    Object.fromEntries(
      props.product.product_links.map((l) => [
        l.linked_product_sku,
        typeof l.qty === 'number' && Number.isSafeInteger(l.qty) && l.qty >= 1 ? String(l.qty) : '1',
      ]),
    ),
  )
  const [qty, setQty] = useState('1')
  const formRef = useRef<HTMLDivElement>(null)
  const addRef = useRef<HTMLButtonElement>(null)
  const [notifyOpen, setNotifyOpen] = useState(false)
  const { errors, checkNow } = useOptionErrors(product, custom, bundle)
  useProductView(props)

  const isConfigurable = product.type_id === 'configurable'
  const hasSizeOption = product.configurable_options.some((o) => o.attribute_code === 'size')
  const priceOptions = { now, currency, taxRules, country }

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
        // A grouped product costs what its chosen pieces cost: exactly what Add puts in the bag.
        groupedQuantities: product.type_id === 'grouped' ? groupedChoice(product, grouped) : undefined,
      }),
    [product, now, currency, taxRules, country, variant, custom, bundle, grouped],
  )

  const variantError = variantsError(product, AVAILABILITY)
  // A set is as available as what it would put in the bag: a grouped one while a chosen piece is
  // in stock, a bundle while every chosen piece is.
  const inStock =
    product.type_id === 'grouped'
      ? Object.keys(groupedChoice(product, {})).length > 0
      : isConfigurable && variant
        ? isChildInStock(variant) && isProductInStock(product)
        : isProductInStock(product) && bundleInStock(product, bundle)
  const delivery = estimatedDelivery(
    {
      delivery_days: product.delivery_days,
      rts_qty: variant?.rts_qty ?? product.rts_qty,
      rts_delivery_time: product.rts_delivery_time,
    },
    now,
  )

  /** Adds the chosen product; false when the form first needs the shopper (a size, an option, a quantity). */
  async function onAddToCart(): Promise<boolean> {
    const productError = checkNow()
    if (productError) {
      notify({ type: 'error', message: productError, action1: { label: MSG.ok } })
      return false
    }
    if (isConfigurable && hasSizeOption && !sizeChosen) {
      setNeedSize(true)
      return false
    }
    const quantity = toQuantity(qty)
    if (!(quantity >= 1)) return false
    if (product.type_id === 'grouped') {
      const { groupedCartLines } = await import('./composite-options')
      await addToCart(groupedCartLines(product, grouped, priceOptions))
      return true
    }
    await addToCart([productCartLine({ product, variant, selection, custom, bundle, price, quantity })])
    return true
  }
  // A grouped product with every piece left out has nothing to add.
  const canAdd = inStock && !variantError && price.pieces.length > 0

  return (
    <div className="product-form" data-testid="product-form" ref={formRef}>
      <PriceBlock price={price} />
      <StockLine inStock={inStock} variant={isConfigurable ? variant : null} />
      <FormError message={variantError} testId="variants-error" />
      {product.configurable_options.map((option) => (
        <VariantPicker
          key={option.attribute_code}
          product={product}
          option={option}
          selection={selection}
          sizeChosen={sizeChosen}
          needSize={needSize}
          hasSizeGuide={!!sizeGuide}
          sizeGuideOpen={panel === 'sizeselector'}
          onChoose={choose}
          onToggleSizeGuide={() => togglePanel('sizeselector')}
        />
      ))}
      {sizeGuide ? (
        <SizeGuide
          guide={sizeGuide}
          open={panel === 'sizeselector'}
          onToggle={() => togglePanel('sizeselector')}
        />
      ) : null}
      {product.custom_options.length > 0 ? (
        <Suspense fallback={null}>
          <CustomOptions
            options={product.custom_options}
            values={custom}
            errors={errors}
            currency={currency}
            onChange={(id, v) => setCustom((prev) => ({ ...prev, [id]: v }))}
          />
        </Suspense>
      ) : null}
      {product.bundle_options.length > 0 ? (
        <Suspense fallback={null}>
          <BundleOptions
            options={product.bundle_options}
            choices={bundle}
            errors={errors}
            now={now}
            currency={currency}
            onChange={setBundle}
          />
        </Suspense>
      ) : null}
      {product.type_id === 'grouped' ? (
        <Suspense fallback={null}>
          <GroupedLinks
            product={product}
            quantities={grouped}
            priceOptions={priceOptions}
            onChange={(sku, v) => setGrouped((prev) => ({ ...prev, [sku]: v }))}
          />
        </Suspense>
      ) : null}
      {delivery ? (
        <DeliveryLine
          delivery={delivery}
          disclaimer={
            product.rts_disclaimer && (variant?.rts_qty ?? product.rts_qty) ? product.rts_disclaimer : null
          }
        />
      ) : null}
      {!inStock && !variantError && (!isConfigurable || !hasSizeOption || sizeChosen) ? (
        notifyOpen ? (
          <Suspense fallback={null}>
            <NotifyMe sku={variant?.sku ?? product.sku} />
          </Suspense>
        ) : (
          <button
            type="button"
            className="btn btn--secondary notify-me__open"
            onClick={() => setNotifyOpen(true)}
            data-testid="notify-me"
          >
            {MSG.notifyMe}
          </button>
        )
      ) : null}
      <ProductActions
        // A grouped product has a quantity per piece and a bundle one per option: no second quantity.
        showQty={product.type_id !== 'grouped' && product.type_id !== 'bundle'}
        qty={qty}
        onQty={setQty}
        canAdd={canAdd}
        onAdd={() => void onAddToCart()}
        addRef={addRef}
        summary={{ ...summary, price: price.finalInclTax, image: variant?.image ?? summary.image }}
      />
      <BuyBar
        watch={addRef}
        name={product.name}
        price={price.formatted.final}
        canAdd={canAdd}
        // What still needs choosing is shown in the form: the bar takes the shopper back to it.
        onAdd={() =>
          void onAddToCart().then((added) => {
            if (!added) formRef.current?.scrollIntoView({ block: 'start' })
          })
        }
      />
    </div>
  )
}

export const ProductFormIsland = defineIsland('product-form', ProductForm, ProductFormPropsSchema)
