/**
 * Product detail page:
 *   GET /p/:parentSku/:slug/:childSku?   every product type; childSku optional
 * and `renderProductPage(c, product, childSku?)` for the URL dispatcher's /{url_path} URLs.
 * A variant sku used as parentSku → 301 to /p/{parent sku}/{parent slug}/{variant sku}.
 * Unknown product → 404 page with 'Product query returned empty result'; a product with status ≥ 2
 * or visibility 1 → 404 page with 'Product query returned empty result product status = {n} or
 * visibility = {n}' (a 404, not a redirect: the URL names nothing a shopper can see, and crawlers
 * must drop it).
 */

import { Breadcrumbs } from '@shared/components/catalog/breadcrumbs'
import { galleryImage as gallerySources } from '@shared/components/catalog/images'
import { pageTaxRules } from '@shared/components/catalog/tile-price'
import { FitNote } from '@shared/components/product/fit-note'
import { CustomAttributes, ProductDescription, ReviewsList } from '@shared/components/product/product-details'
import {
  documentRating,
  type RatingSummary,
  reviewsRating,
  StarRating,
} from '@shared/components/product/rating'
import type { ProductSummary } from '@shared/components/product/summary'
import {
  type AttributeRow,
  comparableValues,
  customAttributeRows,
  designerName,
  toFormProduct,
} from '@shared/components/product/view'
import { IMAGE_SIZES } from '@shared/config/images'
import { productPath } from '@shared/config/links'
import { estimatedDelivery, isProductInStock } from '@shared/domain/availability'
import { imageUrl } from '@shared/domain/image-url'
import { madeToOrderNote } from '@shared/domain/made-to-order'
import { breadcrumbs, productUrl } from '@shared/domain/menu'
import { priceView } from '@shared/domain/price'
import { PAGE_TEXT } from '@shared/i18n/messages'
import type { Product } from '@shared/schemas/catalog'
import type { Context } from 'hono'
import { Suspense } from 'react'
import { jsonForScript } from '../../../client/islands/define'
import { Icon } from '../../../client/islands/layout/icons'
import { GalleryIsland } from '../../../client/islands/product/gallery'
import { ProductFormIsland } from '../../../client/islands/product/product-form'
import type { GalleryImage } from '../../../client/islands/product/product-page-state'
import { RecentlyViewedIsland } from '../../../client/islands/product/recently-viewed'
import { pieceShipsBy } from '../../catalog/made-to-order'
import type { AppEnv } from '../../platform/env'
import { renderPage } from '../../platform/render/render-page'
import { breadcrumbJsonLd, htmlToText, productJsonLd } from '../../platform/render/seo'
import type { RouteHandler, RouteHandlers } from '../../platform/router'
import { renderNotFound } from '../system/route'
import { loadProductPage, type ProductLoadResult, type ProductPageData } from './loader'
import { RecommendationsSection } from './recommendations'

const productPage: RouteHandler<'product'> = async (c) => {
  const { parentSku, slug, childSku } = c.req.param()
  const result = await loadProductPage(c, {
    parentSku,
    slug,
    childSku: childSku ?? c.req.query('childSku') ?? null,
  })
  return respond(c, result)
}
function respond(c: Context<AppEnv>, result: ProductLoadResult): Promise<Response> | Response {
  if (result.kind === 'redirect') return c.redirect(result.location, 301)
  if (result.kind === 'not-found')
    return renderNotFound(c, { title: 'Product not found', message: result.message, testId: 'product-error' })
  return renderProductView(c, result.data)
}

/** One gallery entry for an image path (main at the gallery size, srcset by image kind). */
function galleryImage(
  path: string | null | undefined,
  alt: string,
  video?: GalleryImage['video'],
): GalleryImage {
  const { thumbnail, hoverZoom } = IMAGE_SIZES
  return {
    ...gallerySources(path),
    thumb: imageUrl(path, thumbnail.width, thumbnail.height),
    zoom: imageUrl(path, hoverZoom.width, hoverZoom.height),
    alt,
    video: video ?? null,
  }
}

function videoOf(entry: Record<string, unknown>): GalleryImage['video'] {
  const raw = (entry.vid ?? entry.video) as Record<string, unknown> | string | undefined
  if (!raw) return null
  if (typeof raw === 'string') return { url: raw, title: 'Video' }
  const url = raw.video_url ?? raw.url
  return typeof url === 'string' ? { url, title: typeof raw.title === 'string' ? raw.title : 'Video' } : null
}

/** The gallery: the main image first, then media_gallery entries (videos included), no duplicates. */
function productGallery(product: Product): GalleryImage[] {
  const out: GalleryImage[] = []
  const seen = new Set<string>()
  const push = (path: string | null | undefined, alt: string, video?: GalleryImage['video']) => {
    const key = `${path ?? ''}|${video?.url ?? ''}`
    if (seen.has(key)) return
    seen.add(key)
    out.push(galleryImage(path, alt, video))
  }
  // The main image is described by its gallery entry's alt text when it has one.
  if (product.image)
    push(product.image, product.media_gallery.find((m) => m.image === product.image)?.lab || product.name)
  product.media_gallery.forEach((entry, i) => {
    push(entry.image, entry.lab || `${product.name} ${i + 1}`, videoOf(entry as Record<string, unknown>))
  })
  if (out.length === 0) push(null, product.name)
  return out
}

/** What a piece is made of and how to look after it (its own accordion); the other attributes stay as details. */
const FABRIC_CODES = new Set(['fabric', 'material', 'work', 'care', 'care_instructions', 'wash_care'])

function splitFabricRows(
  rows: AttributeRow[],
  doc: Record<string, unknown>,
): { fabric: AttributeRow[]; details: AttributeRow[] } {
  const fabric = rows.filter((r) => FABRIC_CODES.has(r.code))
  const details = rows.filter((r) => !FABRIC_CODES.has(r.code))
  // Documents that carry fabric and care as plain text without an attribute for them.
  for (const [code, label] of [
    ['fabric', PAGE_TEXT.fabricLabel],
    ['care', PAGE_TEXT.careLabel],
  ] as const) {
    const value = doc[code]
    if (typeof value === 'string' && value.trim() && !fabric.some((r) => r.code === code)) {
      fabric.push({ code, label, value: value.trim() })
    }
  }
  return { fabric, details }
}

/**
 * Delivery to a PIN code: a plain form (its answer comes from the courier's serviceable table when
 * submitted; the product entry loads that code on the first check).
 */
function PinCheck({ delivery }: { delivery: string | null }) {
  return (
    <form
      className="pin-check"
      data-pin-check=""
      data-testid="pin-check"
      data-delivery={delivery ?? ''}
      noValidate
    >
      <label htmlFor="pin-check">{PAGE_TEXT.pinLabel}</label>
      <span className="pin-check__row">
        <input
          id="pin-check"
          name="pin"
          inputMode="numeric"
          autoComplete="postal-code"
          maxLength={6}
          aria-describedby="pin-check-answer"
        />
        <button type="submit" className="btn btn--secondary">
          {PAGE_TEXT.pinCheck}
        </button>
      </span>
      <span
        id="pin-check-answer"
        role="status"
        className="pin-check__answer"
        data-testid="pin-check-answer"
      />
    </form>
  )
}

/** The Product JSON-LD with its reviews' average rating, when it has one. */
function withRating<T extends object>(ld: T, rating: RatingSummary | null) {
  if (!rating) return ld
  return {
    ...ld,
    aggregateRating: {
      '@type': 'AggregateRating',
      ratingValue: rating.average,
      reviewCount: rating.count,
      bestRating: 5,
      worstRating: 1,
    },
  }
}

async function renderProductView(c: Context<AppEnv>, data: ProductPageData) {
  const { product, child, attributes, taxRules, now, recommendations } = data
  const { currency, country } = c.var.store
  const price = priceView(product, { now, currency, taxRules, country })
  const [sizeGuide, reviews] = await Promise.all([data.sizeGuide, data.reviews])
  // The stars of the approved reviews (the document's own summary when the reviews carry none).
  const rating =
    reviewsRating(reviews as ReadonlyArray<Record<string, unknown>>) ??
    documentRating(product as Record<string, unknown>)
  const summary: ProductSummary = {
    sku: product.sku,
    id: product.id,
    parent_id: product.parent_id ?? null,
    name: product.name,
    url: productUrl(product),
    image: product.image ?? null,
    price: price.finalInclTax,
    regularPrice: price.isOnSale ? price.regularInclTax : null,
    attributes: comparableValues(product, attributes),
  }
  const variantImages: Record<string, GalleryImage> = {}
  for (const ch of product.configurable_children) {
    if (ch.image && ch.image !== product.image)
      variantImages[ch.sku] = galleryImage(ch.image, ch.name ?? product.name)
  }
  const firstCategory = product.category[0]
  const crumbs = breadcrumbs(
    firstCategory ? [{ name: firstCategory.name, slug: firstCategory.slug ?? '' }] : [],
    product.name,
  )
  const designer = designerName(product, attributes)
  // Only attributes the product has: an empty one is left out rather than shown as a placeholder.
  const rows = customAttributeRows(product, attributes, '').filter((r) => r.value !== '')
  const { fabric, details } = splitFabricRows(rows, product as Record<string, unknown>)
  const meta = product.meta_description
    ? {
        description: product.meta_description,
        og: {
          'og:title': product.meta_title || product.name,
          'og:description': product.meta_description,
          // Absolute: crawlers resolve og:image without the page's base URL.
          'og:image': new URL(
            imageUrl(product.image, IMAGE_SIZES.gallery.width, IMAGE_SIZES.gallery.height),
            c.var.config.PUBLIC_ORIGIN,
          ).href,
          'og:type': 'product',
        },
      }
    : {}
  const images = productGallery(product)
  const origin = c.var.config.PUBLIC_ORIGIN
  const canonical = origin + productPath(product.sku, product.slug)
  const inStock = child ? child.stock.is_in_stock : isProductInStock(product)
  const deliveryDate = estimatedDelivery(
    {
      delivery_days: product.delivery_days,
      rts_qty: child?.rts_qty ?? product.rts_qty,
      rts_delivery_time: product.rts_delivery_time,
    },
    now,
  )
  const shipsBy = inStock ? pieceShipsBy(product, child, await data.madeToOrder, now) : null
  const jsonLd = [
    withRating(
      productJsonLd({
        name: product.name,
        sku: child?.sku ?? product.sku,
        description: htmlToText(product.meta_description || product.description, 1000),
        image: new URL(imageUrl(product.image, IMAGE_SIZES.gallery.width, IMAGE_SIZES.gallery.height), origin)
          .href,
        url: canonical,
        brand: designer,
        priceInBase: price.finalInclTax,
        currency,
        inStock,
      }),
      rating,
    ),
    breadcrumbJsonLd(crumbs, origin, canonical),
  ]
  // Anonymous product HTML may enter the edge output cache (product page type + the sku tag).
  c.set('cacheTags', ['product', `P${product.sku}`])

  return renderPage(
    c,
    <article
      className="product-page"
      data-testid="product-page"
      data-sku={product.sku}
      data-type={product.type_id}
    >
      <Breadcrumbs crumbs={crumbs} />
      <div className="product-page__top">
        <div className="product-page__gallery">
          <GalleryIsland images={images} name={product.name} />
        </div>
        <div className="product-page__info">
          <h1 className="product-page__name" data-testid="product-name">
            {product.name}
          </h1>
          {designer ? (
            <p className="product-page__designer" data-testid="product-designer">
              {designer}
            </p>
          ) : null}
          {rating ? (
            <a href="#reviews-title" className="product-page__rating">
              <StarRating rating={rating} />
            </a>
          ) : null}
          <FitNote product={product as Record<string, unknown>} />
          <ProductFormIsland
            product={toFormProduct(product)}
            childSku={child?.sku ?? null}
            currency={currency}
            country={country}
            now={now}
            taxRules={pageTaxRules(taxRules, country)}
            summary={summary}
            variantImages={variantImages}
            sizeGuide={
              sizeGuide ? { title: sizeGuide.title, rows: sizeGuide.rows, note: sizeGuide.note } : null
            }
          />
          {shipsBy ? (
            <p className="product-page__made-to-order" data-testid="made-to-order">
              {madeToOrderNote(shipsBy)}
            </p>
          ) : null}
          {inStock ? <PinCheck delivery={deliveryDate} /> : null}
        </div>
      </div>
      <section className="product-page__details" aria-labelledby="product-details-title">
        <h2 id="product-details-title">{PAGE_TEXT.productDetails}</h2>
        {/* Native disclosure widgets: they open and close without JavaScript and say so to assistive tech. */}
        <details className="accordion" open data-testid="accordion-description">
          <summary>
            {PAGE_TEXT.descriptionTitle}
            <Icon name="chevron-down" className="accordion__icon" />
          </summary>
          <ProductDescription html={product.description} />
          <CustomAttributes rows={details} />
        </details>
        {fabric.length ? (
          <details className="accordion" data-testid="accordion-fabric">
            <summary>
              {PAGE_TEXT.fabricCareTitle}
              <Icon name="chevron-down" className="accordion__icon" />
            </summary>
            <CustomAttributes rows={fabric} />
          </details>
        ) : null}
        <details className="accordion" data-testid="accordion-shipping">
          <summary>
            {PAGE_TEXT.shippingReturnsTitle}
            <Icon name="chevron-down" className="accordion__icon" />
          </summary>
          <p>{PAGE_TEXT.shippingReturnsText}</p>
        </details>
      </section>
      <Suspense fallback={null}>
        <RecommendationsSection data={recommendations} currency={currency} />
      </Suspense>
      <section className="product-page__reviews reviews" aria-labelledby="reviews-title">
        <h2 id="reviews-title">Reviews</h2>
        <Suspense fallback={<p className="reviews__loading">Loading reviews…</p>}>
          <ReviewsList reviews={data.reviews} />
        </Suspense>
        {/* The review submit form mounts here. */}
        <div id="product-reviews-form" data-product-id={product.id} />
      </section>
      <RecentlyViewedIsland current={summary} currency={currency} />
    </article>,
    {
      title: product.meta_title || product.name,
      meta: { ...meta, canonical },
      head: (
        <>
          <link rel="amphtml" href={`${origin}/amp${productPath(product.sku, product.slug, child?.sku)}`} />
          {jsonLd.map((d, i) => (
            <script
              // biome-ignore lint/suspicious/noArrayIndexKey: fixed list
              key={i}
              type="application/ld+json"
              // JSON-LD is data, not script: `<` escaped so it cannot close the tag.
              dangerouslySetInnerHTML={{ __html: jsonForScript(d) }}
            />
          ))}
        </>
      ),
      layout: 'default',
      entry: 'product',
      // The recommendations stream in after the shell when they are not ready with it (the
      // reviews have been awaited for the rating above).
      deferred: [recommendations, data.reviews],
    },
  )
}

export const productPages = { product: productPage } satisfies RouteHandlers
