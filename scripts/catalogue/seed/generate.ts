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
import { buildCategories } from './categories'
import { buildCmsBlocks, buildCmsPages } from './cms'
import { compositeProduct } from './composite'
import { configurableProduct } from './configurable'
import { buildContent, buildSearchContent } from './content'
import { col, createContext } from './context'
import { buildSizeGuides } from './copy'
import { DEMO_COUPONS } from './coupons'
import { GARMENTS, type GarmentDef } from './data'
import { createRng } from './prng'
import { buildReviews } from './reviews'
import { simpleProduct } from './simple'
import { SIMPLE_SPECS } from './simple-specs'
import { buildStores } from './stores'
import { type Catalogue, GENERATED_AT, type GenerateOptions, type InventorySeedRow } from './types'

/** Generates the whole demo catalogue deterministically from the options. */
export function generateCatalogue(options: GenerateOptions = {}): Catalogue {
  const rng = createRng(options.seed ?? 20260101)
  const scale = Math.max(1, Math.floor(options.scale ?? 300))
  const ctx = createContext(rng)

  const products: Product[] = []
  const inventory: InventorySeedRow[] = []
  const weights = GARMENTS.flatMap((g) => Array.from({ length: g.weight }, () => g))
  for (let i = 0; i < scale; i++) {
    // Round-robin over the weighted garment list keeps every garment present even in small runs.
    const g = weights[i % weights.length] as GarmentDef
    const made = configurableProduct(ctx, i, g)
    products.push(made.product)
    inventory.push(...made.inventory)
  }
  let nextId = 1001 + scale + 1000
  const simples: Product[] = []
  for (const spec of SIMPLE_SPECS) {
    const made = simpleProduct(ctx, nextId++, spec)
    simples.push(made.product)
    products.push(made.product)
    inventory.push(made.inventory)
  }
  const jewels = simples.filter((p) => p.category_ids.includes(30) && p.type_id === 'simple')
  const bags = simples.filter((p) => p.category_ids.includes(31))
  products.push(
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
  )

  const categories = buildCategories(ctx, products)
  const cmsPages = buildCmsPages()
  const urlMappings: Array<[string, UrlMapping]> = [
    ...products.filter((p) => p.status === 1 && p.visibility !== 1).map(productMapping),
    ...categories.filter((c) => c.id !== 2 && c.is_active).map(categoryMapping),
    ...cmsPages.map(cmsPageMapping),
  ]
  return {
    generatedAt: GENERATED_AT,
    products,
    inventory,
    categories,
    attributes: buildAttributes(),
    taxRules: buildTaxRules(),
    cmsPages,
    cmsBlocks: buildCmsBlocks(),
    stores: buildStores(),
    reviews: buildReviews(rng, products),
    content: buildContent(products),
    sizeGuides: buildSizeGuides(),
    searchContent: buildSearchContent(),
    urlMappings,
    coupons: DEMO_COUPONS,
  }
}
