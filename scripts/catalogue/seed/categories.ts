/** The category documents, with the number of listed products each one holds. */
import type { Category, Product } from '../../../shared/schemas/catalog'
import type { Ctx } from './context'
import { CATEGORY_DEFS } from './data'

/** Every category; `product_count` counts the enabled, visible products of `products`. */
export function buildCategories(ctx: Ctx, products: Product[]): Category[] {
  const counts = new Map<number, number>()
  for (const p of products) {
    if (p.status >= 2 || p.visibility === 1) continue
    for (const id of p.category_ids) counts.set(id, (counts.get(id) ?? 0) + 1)
  }
  const byId = new Map(CATEGORY_DEFS.map((d) => [d.id, d]))
  const pathOf = (id: number): number[] => {
    const d = byId.get(id)
    return d && d.id !== 1 && byId.has(d.parent) ? [...pathOf(d.parent), id] : [1, id]
  }
  return CATEGORY_DEFS.map((d) => {
    const path = pathOf(d.id)
    const info = ctx.categories.get(d.id)
    const urlPath = info?.urlPath ?? d.slug
    const children = CATEGORY_DEFS.filter((c) => c.parent === d.id).length
    return {
      id: d.id,
      name: d.name,
      slug: d.slug,
      display_name: d.name,
      url_key: d.slug,
      url_path: urlPath,
      parent_id: d.parent,
      level: path.length - 1,
      path: path.join('/'),
      position: d.position,
      children_data: [],
      children_count: children,
      product_count: counts.get(d.id) ?? 0,
      is_active: d.isActive ?? true,
      include_in_menu: d.includeInMenu ? 1 : 0,
      description:
        d.id === 2 ? null : `<p>Discover ${d.name.toLowerCase()} from India's finest designers.</p>`,
      meta_title: d.id === 2 ? null : `${d.name} | Designer ${d.name} Online`,
      meta_description:
        d.id === 2 ? null : `Shop designer ${d.name.toLowerCase()} online. Free shipping across India.`,
      route_link: d.id === 2 ? '/' : `/${urlPath}`,
      category_banner: d.id === 2 ? null : `/b/cat-${d.slug}.svg`,
      custom_image: d.id === 2 ? null : `/b/cat-${d.slug}-tile.svg`,
      mobile_image: d.id === 2 ? null : `/b/cat-${d.slug}-mobile.svg`,
      desktop_image: d.id === 2 ? null : `/b/cat-${d.slug}.svg`,
      mp_new_attribute: d.menuOrder ?? null,
    }
  })
}
