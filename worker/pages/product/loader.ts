/**
 * Product page data. Critical:
 * the product by parentSku (+ optional childSku), its attributes metadata and tax rules; a missing
 * product is a 404 with 'Product query returned empty result', a rejected one (status ≥ 2 or
 * visibility 1) a 404 with its status/visibility message, and a variant sku used as the
 * parent sku is a 301 to the parent's URL with the variant as childSku. Deferred (never failing
 * the page): approved reviews and the size guide.
 */

import { designerName } from '@shared/components/product/view'
import { productPath } from '@shared/config/links'
import { productRejection } from '@shared/domain/availability'
import { chartCodes } from '@shared/domain/size-chart'
import { PAGE_TEXT } from '@shared/i18n/messages'
import type { Attribute, ConfigurableChild, Product, Review, TaxRule } from '@shared/schemas/catalog'
import type { Context } from 'hono'
import { listedMadeToOrder } from '../../catalog/made-to-order'
import { type Commerce, getCommerce } from '../../commerce'
import { markDegraded } from '../../platform/cache/output-cache'
import type { AppEnv } from '../../platform/env'
import { createMemo } from '../../platform/memo'
import { loadRecommendations, type RecommendationInputs, recommendationInputs } from './recommendations'

interface SizeGuide {
  code: string
  title: string
  /** Header row then data rows. */
  rows: string[][]
  note?: string
}

export interface ProductPageData {
  product: Product
  /** The configurable child named by the URL's childSku (null when absent or unknown). */
  child: ConfigurableChild | null
  /** Attribute metadata: labels and option labels for custom attributes, designer, compare. */
  attributes: Attribute[]
  taxRules: TaxRule[]
  /** Approved reviews; resolves to [] on failure. */
  reviews: Promise<Review[]>
  /** The product's size guide; resolves to null when there is none or on failure. */
  sizeGuide: Promise<SizeGuide | null>
  /**
   * The skus of the product and the chosen size listed as made to order; read beside the reviews
   * (the same round trip), resolves to none on failure.
   */
  madeToOrder: Promise<ReadonlySet<string>>
  /** "Complete the look" / "You may also like": read beside the reviews, never failing the page. */
  recommendations: ReturnType<typeof loadRecommendations>
  /** The moment the page is priced at (ms). */
  now: number
}

export type ProductLoadResult =
  | { kind: 'ok'; data: ProductPageData }
  | { kind: 'redirect'; location: string }
  | { kind: 'not-found'; message: string }

function logDeferred(c: Context<AppEnv>, what: string, err: unknown): void {
  markDegraded(c)
  console.error(JSON.stringify({ requestId: c.var.requestId, msg: `${what} failed`, err: String(err) }))
}

/** Reads a size guide document in the shapes the backend stores (code, title, rows | headers+rows). */
export function toSizeGuide(doc: unknown): SizeGuide | null {
  if (!doc || typeof doc !== 'object') return null
  const d = doc as Record<string, unknown>
  const code = typeof d.code === 'string' ? d.code : ''
  const title = typeof d.title === 'string' ? d.title : typeof d.name === 'string' ? d.name : 'Size guide'
  const toRow = (r: unknown): string[] | null =>
    Array.isArray(r) ? r.map((cell) => String(cell ?? '')) : null
  let rows: string[][] = []
  if (Array.isArray(d.rows)) rows = d.rows.map(toRow).filter((r): r is string[] => r !== null)
  const header = Array.isArray(d.headers) ? d.headers : Array.isArray(d.columns) ? d.columns : null
  if (header) rows = [header.map(String), ...rows]
  if (rows.length === 0) return null
  return { code, title, rows, note: typeof d.note === 'string' ? d.note : undefined }
}

/** The size-guide codes of a product, the one that applies first: its own, its designer's, its categories'. */
export function sizeGuideCodes(product: Product, designer: string | null = null): string[] {
  return chartCodes(
    (product as Record<string, unknown>).size_guide,
    designer,
    product.category.map((cat) => cat.slug),
  )
}

/**
 * The size-guide codes a product's page reads, in the order they apply (the first that exists is
 * shown); null when the product has no size to choose (no guide is shown).
 */
function guideCodes(product: Product, designer: string | null): string[] | null {
  if (
    product.type_id !== 'configurable' ||
    product.configurable_options.every((o) => o.attribute_code !== 'size')
  ) {
    return null
  }
  return sizeGuideCodes(product, designer)
}

async function loadSizeGuide(
  c: Context<AppEnv>,
  commerce: Commerce,
  codes: string[] | null,
): Promise<SizeGuide | null> {
  // The port's size guides (POST /api/product/size-guide-collection: failures ignored silently).
  if (codes === null || !commerce.getSizeGuides) return null
  try {
    const docs = await commerce.getSizeGuides(codes)
    const guides = docs.map(toSizeGuide).filter((g): g is SizeGuide => g !== null)
    return codes.map((code) => guides.find((g) => g.code === code)).find(Boolean) ?? guides[0] ?? null
  } catch (err) {
    logDeferred(c, 'size guide', err)
    return null
  }
}

/**
 * What every page of a product needs besides the product: attribute metadata (labels, option
 * labels) and tax rules. A failure of either gives none (the page shows less and is not cached).
 */
export async function productMetadata(
  c: Context<AppEnv>,
  commerce: Commerce,
): Promise<{ attributes: Attribute[]; taxRules: TaxRule[] }> {
  const [attributes, taxRules] = await Promise.all([
    commerce.getAttributes().catch((err) => {
      logDeferred(c, 'attributes', err)
      return [] as Attribute[]
    }),
    commerce.getTaxRules().catch((err) => {
      logDeferred(c, 'tax rules', err)
      return [] as TaxRule[]
    }),
  ])
  return { attributes, taxRules }
}

/** The skus of the pieces a grouped or bundle product is made of (none for other types). */
function pieceSkus(product: Product): string[] {
  if (product.type_id === 'grouped') return product.product_links.map((l) => l.linked_product_sku)
  if (product.type_id === 'bundle')
    return product.bundle_options.flatMap((o) => o.product_links.map((l) => l.sku))
  return []
}

/**
 * A grouped or bundle product with each piece's stock and picture (`docs`: the pieces as read): the
 * page shows every piece as it is (out of stock marked, and left out of the add), so the shopper sees
 * before adding what will (and will not) go in the bag. `docs` is null for a product without
 * pieces, and when the pieces could not be read: then they show no stock state or picture, and the
 * cart's own stock check still applies.
 */
function withPieceStock(product: Product, docs: Product[] | null): Product {
  if (docs === null) return product
  const bySku = new Map(docs.map((d) => [d.sku, d]))
  const piece = <T extends object>(current: T, doc: Product): T => ({
    ...current,
    stock: doc.stock,
    image: doc.thumbnail ?? doc.image ?? null,
  })
  return {
    ...product,
    product_links: product.product_links.map((l) => {
      const doc = bySku.get(l.linked_product_sku)
      if (!l.product || !doc) return l
      // A piece with options the shopper must choose (an engraving, a size) cannot be added from
      // here: the page links to its own page instead.
      const needsOptions = doc.custom_options.some((o) => o.is_require)
      return {
        ...l,
        product: {
          ...piece(l.product, doc),
          ...(needsOptions ? { options_url: productPath(doc.sku, doc.slug) } : {}),
        },
      }
    }),
    bundle_options: product.bundle_options.map((o) => ({
      ...o,
      product_links: o.product_links.map((l) => {
        const doc = bySku.get(l.sku)
        return doc ? { ...l, product: piece(l.product ?? { name: doc.name }, doc) } : l
      }),
    })),
  }
}

/**
 * Where a product URL is sent instead of being rendered, or null when it names the page itself.
 * One rule for the product page and its AMP page; `path` builds the page's own URL:
 * - "If the loaded product is a variant of a configurable parent, the route is replaced with the
 *   parent's sku, the variant's sku as childSku, and the parent's slug."
 * - A childSku that is not one of the product's variants selects nothing: the URL is the page with
 *   no variant, so each spelling costs a redirect after the product's read, never a page render
 *   and a cache entry of its own.
 */
export function productUrlRedirect(
  product: Product,
  child: ConfigurableChild | null,
  params: { parentSku: string; childSku?: string | null },
  path: (parentSku: string, slug: string, childSku?: string | null) => string,
): string | null {
  if (child && product.sku !== params.parentSku && product.type_id === 'configurable')
    return path(product.sku, product.slug, child.sku)
  if (params.childSku && !child) return path(product.sku, product.slug)
  return null
}

/**
 * What the reads that follow the product depend on, all taken from the product, its variant and
 * its designer's name: the product's id (its reviews), its pieces' skus, its recommendations'
 * inputs, its size guide's codes, and the skus whose made-to-order listing is read.
 */
interface FollowUpInputs {
  id: number
  pieces: string[]
  recommendations: RecommendationInputs
  guide: string[] | null
  madeToOrder: string[]
}

function followUpInputs(
  product: Product,
  child: ConfigurableChild | null,
  attributes: Attribute[],
): FollowUpInputs {
  return {
    id: product.id,
    pieces: pieceSkus(product),
    recommendations: recommendationInputs(product),
    guide: guideCodes(product, designerName(product, attributes)),
    madeToOrder: child ? [product.sku, child.sku] : [product.sku],
  }
}

/**
 * The follow-up inputs of each product page this isolate rendered, by its URL's skus, as JSON. A
 * page whose inputs are known starts its follow-up reads together with the product's read, so they
 * share its round trip to the database; the inputs the product then gives are compared with the
 * ones predicted, and on any difference (the product changed since) the reads are made again with
 * the new ones. A stale entry costs that second round trip, never a wrong page. The budget is what
 * the isolate's memo total had left (docs/caches.md): an entry of about 150 characters is counted
 * as some 360 bytes, so about ninety of the products most recently shown.
 */
const predicted = createMemo<string>({
  name: 'product page follow-up inputs',
  ttlMs: Number.POSITIVE_INFINITY,
  maxEntries: 512,
  maxBytes: 32 * 1024,
  // A V8 string of two bytes a character at most, and its entry.
  sizeOf: (json) => 2 * json.length + 64,
})

/** The follow-up reads, started at once (each resolves, never fails: see the loaders). */
function startFollowUps(c: Context<AppEnv>, commerce: Commerce, inputs: FollowUpInputs, now: number) {
  return {
    pieces:
      inputs.pieces.length === 0
        ? Promise.resolve(null)
        : commerce.getProductsBySkus(inputs.pieces).catch((err): Product[] | null => {
            logDeferred(c, 'set pieces', err)
            return null
          }),
    recommendations: loadRecommendations(c, inputs.recommendations, now),
    reviews: commerce.getReviews(inputs.id).catch((err) => {
      logDeferred(c, 'reviews', err)
      return [] as Review[]
    }),
    sizeGuide: loadSizeGuide(c, commerce, inputs.guide),
    madeToOrder: listedMadeToOrder(c.env.DB, inputs.madeToOrder).catch((err): ReadonlySet<string> => {
      logDeferred(c, 'made to order', err)
      return new Set()
    }),
  }
}

/** Loads everything the product page needs, or says why it cannot be shown. */
export async function loadProductPage(
  c: Context<AppEnv>,
  params: { parentSku: string; slug?: string; childSku?: string | null },
): Promise<ProductLoadResult> {
  const commerce = getCommerce(c)
  const now = Date.now()
  // Every product page needs the attribute metadata and tax rules: asked for together with the
  // product, so their reads share its round trip to the database; so do the follow-up reads when
  // this isolate knows what they will be.
  const metadata = productMetadata(c, commerce)
  const key = `${params.parentSku}\n${params.childSku ?? ''}`
  const guess = predicted.peek(key)
  const early = guess ? startFollowUps(c, commerce, JSON.parse(guess) as FollowUpInputs, now) : null
  const found = await commerce.getProduct({ parentSku: params.parentSku, childSku: params.childSku ?? null })
  const product = found?.product
  const child = found?.child ?? null
  const location = product ? productUrlRedirect(product, child, params, productPath) : null
  const rejected = product ? productRejection(product) : null
  if (!product || location || rejected) {
    // A URL that no longer shows its product keeps no guess.
    if (guess) predicted.delete(key)
    if (location) return { kind: 'redirect', location }
    return { kind: 'not-found', message: rejected ?? PAGE_TEXT.productQueryEmpty }
  }

  const { attributes, taxRules } = await metadata
  const inputs = followUpInputs(product, child, attributes)
  const json = JSON.stringify(inputs)
  const same = guess === json
  if (!same) predicted.set(key, json)
  // The reads started with the product's when the guess holds; otherwise they start now, together,
  // in a round trip of their own.
  const follow = same && early ? early : startFollowUps(c, commerce, inputs, now)
  return {
    kind: 'ok',
    data: {
      product: withPieceStock(product, await follow.pieces),
      child,
      attributes,
      taxRules,
      reviews: follow.reviews,
      sizeGuide: follow.sizeGuide,
      madeToOrder: follow.madeToOrder,
      recommendations: follow.recommendations,
      now,
    },
  }
}
