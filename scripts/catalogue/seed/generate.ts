/**
 * The deterministic demo catalogue generator: an Indian designer-fashion shop in INR. Pure (no
 * I/O, no clock): the same options always give the same catalogue. Runs in workerd (test setup)
 * and, bundled with esbuild, in Node (scripts/seed.mjs).
 *
 * Default: 300 configurable apparel products (colour × size children) plus simple, virtual,
 * downloadable, bundle, grouped and custom-option products. `scale` = number of configurables
 * (10,000 gives ≈10,000 products and ≈110,000 variants for benchmarks).
 *
 * One file per part: context.ts (shared helpers), configurable.ts (apparel with colour × size
 * variants), simple.ts + simple-specs.ts, composite.ts (bundles, grouped), categories.ts,
 * attributes.ts (attributes, tax rules), cms.ts, content.ts, reviews.ts, stores.ts; types.ts holds
 * the catalogue's shape.
 */
import type { Product } from '../../../shared/schemas/catalog'
import type { UrlMapping } from '../../../worker/catalog/url-map'
import { categoryMapping, cmsPageMapping, productMapping } from '../../../worker/catalog/url-map'
import { buildAttributes, buildTaxRules } from './attributes'
import { buildCategories, countListed } from './categories'
import { buildCmsBlocks, buildCmsPages } from './cms'
import { compositeProduct } from './composite'
import { configurableProduct } from './configurable'
import { buildContent, buildSearchContent, contentPicker } from './content'
import { col, createContext } from './context'
import { buildSizeGuides } from './copy'
import { DEMO_COUPONS } from './coupons'
import { GARMENTS, type GarmentDef } from './data'
import { createRng } from './prng'
import { buildReviews, summariseRatings } from './reviews'
import { simpleProduct } from './simple'
import { SIMPLE_SPECS } from './simple-specs'
import { buildStores } from './stores'
import { type Catalogue, GENERATED_AT, type GenerateOptions, type InventorySeedRow } from './types'

/** How many products the reviews go to (the first ones generated); they are written last. */
const REVIEWED_PRODUCTS = 60

/** A part of the catalogue: products with their stock rows and URL mappings. */
export interface CatalogueSlice {
  products: Product[]
  inventory: InventorySeedRow[]
  urlMappings: Array<[string, UrlMapping]>
}

/** What follows the products: documents that depend on all of them (counts, reviews, picks). */
export type CatalogueRest = Omit<Catalogue, 'products' | 'inventory' | 'urlMappings'>

/**
 * The demo catalogue in slices of about `size` products, so a large catalogue is written while it
 * is generated and never held whole. The last slice carries `rest` and the reviewed products
 * (their rating summary needs the reviews, drawn after every product). The random stream is
 * drawn in the same order as when the catalogue is built at once, so the result is the same.
 */
export function* catalogueSlices(
  options: GenerateOptions = {},
  size = 500,
): Generator<CatalogueSlice & { rest?: CatalogueRest }> {
  const rng = createRng(options.seed ?? 20260101)
  const scale = Math.max(1, Math.floor(options.scale ?? 300))
  const ctx = createContext(rng)
  const listedCounts = new Map<number, number>()
  const picks = contentPicker()
  const reviewed: Product[] = []
  let slice: CatalogueSlice = { products: [], inventory: [], urlMappings: [] }
  const add = (product: Product, inventory: readonly InventorySeedRow[]) => {
    countListed(listedCounts, product)
    picks.offer(product)
    slice.inventory.push(...inventory)
    if (product.status === 1 && product.visibility !== 1) slice.urlMappings.push(productMapping(product))
    if (reviewed.length < REVIEWED_PRODUCTS) reviewed.push(product)
    else {
      summariseRatings([product], [])
      slice.products.push(product)
    }
  }
  const full = () => slice.products.length + slice.inventory.length / 10 >= size
  const take = () => {
    const out = slice
    slice = { products: [], inventory: [], urlMappings: [] }
    return out
  }

  const weights = GARMENTS.flatMap((g) => Array.from({ length: g.weight }, () => g))
  for (let i = 0; i < scale; i++) {
    // Round-robin over the weighted garment list keeps every garment present even in small runs.
    const g = weights[i % weights.length] as GarmentDef
    const made = configurableProduct(ctx, i, g)
    add(made.product, made.inventory)
    if (full()) yield take()
  }
  let nextId = 1001 + scale + 1000
  const simples: Product[] = []
  for (const spec of SIMPLE_SPECS) {
    const made = simpleProduct(ctx, nextId++, spec)
    simples.push(made.product)
    add(made.product, [made.inventory])
  }
  const jewels = simples.filter((p) => p.category_ids.includes(30) && p.type_id === 'simple')
  const bags = simples.filter((p) => p.category_ids.includes(31))
  const composites = [
    compositeProduct(
      ctx,
      nextId++,
      'bundle',
      'Festive Jewellery and Potli Bundle',
      [jewels[0], jewels[6], bags[0], bags[2]] as Product[],
      'jewel',
      col('gold'),
    ),
    compositeProduct(
      ctx,
      nextId++,
      'bundle',
      'Wedding Guest Bundle',
      [jewels[4], jewels[5], bags[1], bags[4]] as Product[],
      'bag',
      col('maroon'),
    ),
    compositeProduct(
      ctx,
      nextId++,
      'grouped',
      'Bridal Jewellery Set',
      [jewels[0], jewels[1], jewels[3]] as Product[],
      'jewel',
      col('gold'),
    ),
    compositeProduct(
      ctx,
      nextId++,
      'grouped',
      'Everyday Silver Set',
      [jewels[5], jewels[6]] as Product[],
      'jewel',
      col('white'),
    ),
  ]
  for (const p of composites) add(p, [])
  if (slice.products.length || slice.inventory.length) yield take()

  const categories = buildCategories(ctx, listedCounts)
  const cmsPages = buildCmsPages()
  const reviews = buildReviews(rng, reviewed)
  yield {
    products: reviewed,
    inventory: [],
    urlMappings: [
      ...categories.filter((c) => c.id !== 2 && c.is_active).map(categoryMapping),
      ...cmsPages.map(cmsPageMapping),
    ],
    rest: {
      generatedAt: GENERATED_AT,
      categories,
      attributes: buildAttributes(),
      taxRules: buildTaxRules(),
      cmsPages,
      cmsBlocks: buildCmsBlocks(),
      stores: buildStores(),
      reviews,
      content: buildContent(picks.chosen),
      sizeGuides: buildSizeGuides(),
      searchContent: buildSearchContent(),
      coupons: DEMO_COUPONS,
    },
  }
}

/** Generates the whole demo catalogue at once (products in the order they are made). */
export function generateCatalogue(options: GenerateOptions = {}): Catalogue {
  const slices = [...catalogueSlices(options)]
  const last = slices.at(-1) as CatalogueSlice & { rest: CatalogueRest }
  const { rest } = last
  return {
    generatedAt: rest.generatedAt,
    // The reviewed products come last in the slices and first in the catalogue.
    products: [...last.products, ...slices.slice(0, -1).flatMap((s) => s.products)],
    inventory: slices.flatMap((s) => s.inventory),
    categories: rest.categories,
    attributes: rest.attributes,
    taxRules: rest.taxRules,
    cmsPages: rest.cmsPages,
    cmsBlocks: rest.cmsBlocks,
    stores: rest.stores,
    reviews: rest.reviews,
    content: rest.content,
    sizeGuides: rest.sizeGuides,
    searchContent: rest.searchContent,
    urlMappings: slices.flatMap((s) => s.urlMappings),
    coupons: rest.coupons,
  }
}
