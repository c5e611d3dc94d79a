/**
 * "Complete the look" / "You may also like" on the product page, server-rendered after the shell
 * (it streams in and never fails the page).
 *
 * The pieces are the product's own links first — cross-sells, then related, then up-sells, each in
 * its position order, the way the catalogue import stores them — and, while fewer than
 * RECOMMENDED are found, pieces by the same designer, then from the product's first category. Only
 * listed, enabled, in-stock pieces are shown (the catalogue query's own rules), never the product
 * itself, never one twice, and only those the shopper's currency may buy. With at least one linked
 * piece the section is "Complete the look"; with none it is "You may also like".
 */
import type { TileData } from '@shared/components/catalog/tile-data'
import { IMAGE_SIZES } from '@shared/config/images'
import { formatUnitPrice } from '@shared/domain/currency'
import { imageUrl } from '@shared/domain/image-url'
import type { Product } from '@shared/schemas/catalog'
import type { Context } from 'hono'
import { use } from 'react'
import { getCommerce } from '../../commerce'
import { markDegraded } from '../../platform/cache/output-cache'
import type { AppEnv } from '../../platform/env'
import { gridTiles } from '../layout/grid-tiles'
import { pagePricing } from '../layout/pricing'

/** How many pieces the section shows. */
const RECOMMENDED = 4
/** The link kinds that make a look, in the order they are offered. */
const LOOK_LINKS = ['crosssell', 'related', 'upsell'] as const

interface Recommendations {
  /** True when the pieces start with the product's own links. */
  linked: boolean
  tiles: TileData[]
}

/** The linked skus in offer order: by link kind, then position; the product itself and repeats left out. */
export function lookSkus(product: Pick<Product, 'sku' | 'product_links'>): string[] {
  const rank = (t: string) => LOOK_LINKS.indexOf(t as (typeof LOOK_LINKS)[number])
  const skus = product.product_links
    .filter((l) => rank(l.link_type) >= 0 && l.linked_product_sku !== product.sku)
    .sort((a, b) => rank(a.link_type) - rank(b.link_type) || (a.position ?? 0) - (b.position ?? 0))
    .map((l) => l.linked_product_sku)
  return [...new Set(skus)].slice(0, RECOMMENDED * 2)
}

/** What the section's reads depend on: the product's sku, its look's skus, designer and first category. */
export interface RecommendationInputs {
  sku: string
  look: string[]
  designer: Product['designer'] | null
  category: number | null
}

export function recommendationInputs(product: Product): RecommendationInputs {
  return {
    sku: product.sku,
    look: lookSkus(product),
    designer: product.designer ?? null,
    category: product.category[0]?.category_id ?? null,
  }
}

/** The pieces to show for a product (`product`: its inputs); none on any failure (the page is then not cached). */
export async function loadRecommendations(
  c: Context<AppEnv>,
  product: RecommendationInputs,
  now: number,
): Promise<Recommendations> {
  try {
    const commerce = getCommerce(c)
    const pricing = pagePricing(c)
    const chosen: Product[] = []
    const seen = new Set([product.sku])
    const take = (items: Product[]) => {
      for (const p of items) {
        if (chosen.length >= RECOMMENDED || seen.has(p.sku)) continue
        seen.add(p.sku)
        chosen.push(p)
      }
    }
    const skus = product.look
    const wanted = RECOMMENDED + 1
    const byDesigner = () =>
      product.designer == null
        ? Promise.resolve({ items: [] as Product[] })
        : commerce.searchProducts({
            filters: { designer: [product.designer] },
            size: wanted,
            inStockOnly: true,
          })
    // A look of fewer pieces than the section shows needs the designer's pieces whatever its stock:
    // both searches start together, so their reads share one round trip.
    const designerFirst = skus.length < RECOMMENDED ? byDesigner() : null
    // Its failure is met where it is awaited; until then it must not count as unhandled.
    designerFirst?.catch(() => {})
    if (skus.length) {
      const res = await commerce.searchProducts({
        terms: { sku: skus },
        size: skus.length,
        inStockOnly: true,
      })
      const bySku = new Map(res.items.map((p) => [p.sku, p]))
      take(skus.flatMap((sku) => bySku.get(sku) ?? []))
    }
    const linked = chosen.length > 0
    if (chosen.length < RECOMMENDED && product.designer != null)
      take((await (designerFirst ?? byDesigner())).items)
    const category = product.category
    if (chosen.length < RECOMMENDED && category != null)
      take(
        (
          await commerce.searchProducts({
            categoryIds: [category],
            size: wanted + RECOMMENDED,
            inStockOnly: true,
          })
        ).items,
      )
    const prices = await pricing
    return {
      linked,
      // The engine's frozen products: their tiles are kept ones where exact (layout/tiles.ts).
      tiles: gridTiles(chosen, now, prices, {}, c.var.store.currency),
    }
  } catch (err) {
    markDegraded(c)
    console.error(
      JSON.stringify({ requestId: c.var.requestId, msg: 'recommendations failed', err: String(err) }),
    )
    return { linked: false, tiles: [] }
  }
}

/** The section: a heading and up to RECOMMENDED linked pictures with name and price; nothing when empty. */
export function RecommendationsSection({
  data,
  currency,
}: {
  data: Promise<Recommendations>
  currency: string
}) {
  const { linked, tiles } = use(data)
  if (tiles.length === 0) return null
  const { width, height } = IMAGE_SIZES.listing
  return (
    <section
      className="recommendations"
      aria-labelledby="recommendations-title"
      data-testid="recommendations"
      data-linked={linked ? 'true' : 'false'}
    >
      <h2 id="recommendations-title">{linked ? 'Complete the look' : 'You may also like'}</h2>
      <ul className="recommendations__list">
        {tiles.map((t) => (
          <li key={t.sku} className="recommendations__item" data-sku={t.sku}>
            <a href={t.url}>
              {/* The name is the link's text: the picture adds nothing a screen reader should hear twice. */}
              <img
                src={imageUrl(t.image, width, height)}
                alt=""
                width={width}
                height={height}
                loading="lazy"
                decoding="async"
              />
              {t.designer ? <span className="recommendations__designer">{t.designer}</span> : null}
              <span className="recommendations__name">{t.name}</span>
            </a>
            <span className="price">{formatUnitPrice(t.finalPrice, currency)}</span>
          </li>
        ))}
      </ul>
    </section>
  )
}
