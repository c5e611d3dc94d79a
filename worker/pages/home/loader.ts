/**
 * Home page data (the home data document and the curated content) through the
 * Commerce port. First the home data document (sections, banners, head image, popups/strip); then
 * every product section (the curated category queries 189 'Performance Fabrics' and 190 'Tees', sku
 * lists) and CMS block at once — helpers that never throw (a failed section renders empty).
 */

import { type TileData, visibleTiles } from '@shared/components/catalog/tile-data'
import { CURATED_HOME_QUERIES, HOME_POPUP_TYPES } from '@shared/config/content'
import { descendantIds } from '@shared/domain/menu'
import { sanitizeHtml } from '@shared/domain/sanitize-html'
import type { Category } from '@shared/schemas/catalog'
import type { Context } from 'hono'
import { z } from 'zod'
import { type Commerce, getCommerce } from '../../commerce'
import { derivedFrom } from '../../commerce/derived'
import { markDegraded } from '../../platform/cache/output-cache'
import type { AppEnv } from '../../platform/env'
import { pagePricing } from '../layout/pricing'
import { productTile } from '../layout/tiles'

/** Products per home carousel. */
const HOME_SECTION_SIZE = 8

const BannerSchema = z.looseObject({
  id: z.coerce.number().optional(),
  title: z.string().default(''),
  image: z.string(),
  mobile_image: z.string().nullish(),
  link: z.string().default('/'),
  sku: z.string().nullish(),
})
export type Banner = z.infer<typeof BannerSchema>

const SectionSchema = z.looseObject({
  id: z.coerce.number(),
  type: z.string(),
  title: z.string().default(''),
  position: z.number().default(0),
  category_id: z.number().nullish(),
  category_name: z.string().nullish(),
  skus: z.array(z.string()).nullish(),
  block_identifier: z.string().nullish(),
})
export type HomeSection = z.infer<typeof SectionSchema>

const PopupSchema = z.looseObject({
  id: z.coerce.number(),
  type: z.enum(HOME_POPUP_TYPES),
  title: z.string().nullish(),
  text: z.string().default(''),
  link: z.string().nullish(),
  image: z.string().nullish(),
  active: z.boolean().default(true),
})
export type HomePopup = z.infer<typeof PopupSchema>

/** The home data document, validated leniently: a malformed part is dropped, not fatal. */
const HomeDataSchema = z.object({
  sections: z.array(z.unknown()).catch([]),
  banners: z
    .object({
      main: z.array(z.unknown()).catch([]),
      small: z.array(z.unknown()).catch([]),
      product: z.array(z.unknown()).catch([]),
    })
    .partial()
    .catch({}),
  head_image: z.unknown().optional(),
  popups: z.array(z.unknown()).catch([]),
})

function parseEach<T>(schema: z.ZodType<T>, items: readonly unknown[] | undefined): T[] {
  const out: T[] = []
  for (const item of items ?? []) {
    const r = schema.safeParse(item)
    if (r.success) out.push(r.data)
  }
  return out
}

interface HomeView {
  sections: HomeSection[]
  mainBanners: Banner[]
  smallBanners: Banner[]
  productBanners: Banner[]
  headImage: Banner | null
  strip: HomePopup | null
  exitPopup: HomePopup | null
  genericPopup: HomePopup | null
}

/** Normalises the port's home data (null → an empty home with the curated sections only). */
export function toHomeView(raw: unknown): HomeView {
  const data = HomeDataSchema.safeParse(raw ?? {})
  const d = data.success
    ? data.data
    : { sections: [], banners: {}, popups: [] as unknown[], head_image: undefined }
  let sections = parseEach(SectionSchema, d.sections).sort((a, b) => a.position - b.position)
  // The curated queries are always on the home page (shared/config/content), even if the document lacks them.
  for (const q of CURATED_HOME_QUERIES) {
    if (!sections.some((s) => s.type === 'category_products' && s.category_id === q.categoryId)) {
      sections = [
        ...sections,
        {
          id: 1000 + q.categoryId,
          type: 'category_products',
          title: q.name,
          position: 1000 + q.categoryId,
          category_id: q.categoryId,
          category_name: q.name,
        },
      ]
    }
  }
  const popups = parseEach(PopupSchema, d.popups).filter((p) => p.active)
  const head = BannerSchema.safeParse(d.head_image)
  return {
    sections,
    mainBanners: parseEach(BannerSchema, d.banners?.main),
    smallBanners: parseEach(BannerSchema, d.banners?.small),
    productBanners: parseEach(BannerSchema, d.banners?.product),
    headImage: head.success ? head.data : null,
    strip: popups.find((p) => p.type === 'strip') ?? null,
    exitPopup: popups.find((p) => p.type === 'exit_popup') ?? null,
    genericPopup: popups.find((p) => p.type === 'generic_popup') ?? null,
  }
}

/** Critical: the home data document (a failure gives the curated-only home, never an error page). */
export async function loadHomeView(c: Context<AppEnv>): Promise<HomeView> {
  try {
    const raw = await getCommerce(c).getHomeData()
    // Parsed once per version of the (memoised) home document.
    return raw && typeof raw === 'object'
      ? derivedFrom(raw, 'home view', () => toHomeView(raw))
      : toHomeView(raw)
  } catch (err) {
    markDegraded(c)
    console.error(JSON.stringify({ requestId: c.var.requestId, msg: 'home data failed', err: String(err) }))
    return toHomeView(null)
  }
}

function findCategory(tree: readonly Category[], id: number): Category | null {
  for (const cat of tree) {
    if (cat.id === id) return cat
    const hit = findCategory(cat.children_data ?? [], id)
    if (hit) return hit
  }
  return null
}

async function sectionProducts(c: Context<AppEnv>, commerce: Commerce, section: HomeSection) {
  if (section.type === 'category_products' && section.category_id) {
    const tree = await commerce.getCategoryTree().catch(() => {
      markDegraded(c)
      return [] as Category[]
    })
    const cat = findCategory(tree, section.category_id)
    const res = await commerce.searchProducts({
      categoryIds: cat ? descendantIds(cat) : [section.category_id],
      size: HOME_SECTION_SIZE,
    })
    return res.items
  }
  if (section.type === 'products' && section.skus?.length) {
    // A catalogue query like any listing: only listed products (visibility, status), and the same
    // per-isolate search caches; tiles keep the curated order.
    const skus = [...new Set(section.skus.slice(0, HOME_SECTION_SIZE))]
    const res = await commerce.searchProducts({ terms: { sku: skus }, size: skus.length })
    const bySku = new Map(res.items.map((p) => [p.sku, p]))
    return skus.flatMap((sku) => bySku.get(sku) ?? [])
  }
  return []
}

/** A product section's tiles for the request's currency; [] on any failure. */
export async function loadSectionTiles(
  c: Context<AppEnv>,
  section: HomeSection,
  now: number,
): Promise<TileData[]> {
  try {
    const [items, pricing] = await Promise.all([sectionProducts(c, getCommerce(c), section), pagePricing(c)])
    return visibleTiles(
      items.map((p) => productTile(p, now, pricing)),
      c.var.store.currency,
    )
  } catch (err) {
    markDegraded(c)
    console.error(
      JSON.stringify({
        requestId: c.var.requestId,
        msg: 'home section failed',
        id: section.id,
        err: String(err),
      }),
    )
    return []
  }
}

/** A CMS block's sanitised HTML, or null. */
export async function loadCmsBlockHtml(c: Context<AppEnv>, identifier: string): Promise<string | null> {
  try {
    const [block] = await getCommerce(c).getCmsBlocks([identifier])
    if (block?.is_active === false || !block) return null
    // Sanitised once per version of the (memoised) block.
    return derivedFrom(block, 'sanitized html', () => sanitizeHtml(block.content))
  } catch (err) {
    markDegraded(c)
    console.error(
      JSON.stringify({ requestId: c.var.requestId, msg: 'cms block failed', identifier, err: String(err) }),
    )
    return null
  }
}
