/** The category documents, with the number of listed products each one holds. */
import type { Category, Product } from '../../../shared/schemas/catalog'
import type { Ctx } from './context'
import { CATEGORY_DEFS } from './data'

/** Counts a product in each of its categories when it is enabled and visible (a listed product). */
export function countListed(counts: Map<number, number>, p: Product): void {
  if (p.status >= 2 || p.visibility === 1) return
  for (const id of p.category_ids) counts.set(id, (counts.get(id) ?? 0) + 1)
}

/** Every category; `product_count` is the number of listed products `counts` holds for it. */
export function buildCategories(ctx: Ctx, counts: ReadonlyMap<number, number>): Category[] {
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
      description: d.id === 2 ? null : `<p>${CATEGORY_COPY[d.slug] ?? `${d.name} from the studio.`}</p>`,
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

/** Each category's introduction, in the words a shop assistant would use. */
const CATEGORY_COPY: Readonly<Record<string, string>> = {
  women: 'Sarees, lehengas, kurtas, dresses and anarkalis, woven and embroidered by hand across India.',
  men: 'Sherwanis for the wedding, bandhgalas for the reception, and linen and khadi for every day after.',
  accessories: 'Kundan and temple jewellery, brocade potlis and zardozi clutches to finish the look.',
  sale: 'Pieces from this and last season at up to half price, while the last sizes last.',
  'new-in': 'Just off the looms: the newest pieces from our eight designers, added every week.',
  gifts: 'E-gift cards, styling sessions and small handmade things for the people you love.',
  'bridal-edit': 'Lehengas, sarees and sherwanis for the wedding, by appointment in our stores.',
  archive: 'Pieces from past collections, kept for those who missed them the first time.',
  'retired-collection': 'A collection no longer on sale.',
  'performance-fabrics': 'Track jackets in bamboo and recycled knits that breathe through a Mumbai summer.',
  tees: 'Tees in organic, slub and Supima cotton, knitted in Tiruppur and cut to last.',
  sarees:
    'Banarasi, Kanjeevaram and Chanderi silks, organza and georgette: six metres, each one woven by hand.',
  lehengas:
    'Velvet, raw silk, net and brocade lehengas with full skirts, fitted cholis and dupattas to match.',
  kurtas: 'Chikankari, block-printed and khadi kurtas to wear every day, and silk ones for the evenings.',
  dresses: 'Midi and maxi dresses in crepe, linen, satin and printed poplin.',
  anarkalis: 'Floor-length anarkalis that open into a full circle, in georgette, silk and Chanderi.',
  shirts: 'Linen, Oxford, khadi and Pochampally ikat shirts with band and spread collars.',
  sherwanis: 'Jacquard, raw silk and velvet sherwanis, tailored close, with churidars to match.',
  jackets: 'Nehru jackets, bandhgalas, kantha-quilted cottons and Kullu tweed.',
  'men-kurtas': 'Cotton, silk and linen kurtas for men, long enough for a churidar, short enough for jeans.',
  jewellery: 'Kundan, polki, meenakari and temple jewellery, made by hand in Jaipur and the South.',
  bags: 'Brocade potlis, zardozi and velvet clutches, jute totes and mirror-work slings.',
  'small-gifts': 'Small handmade things from our workshop offcuts: bookmarks, coasters, pouches and more.',
}
