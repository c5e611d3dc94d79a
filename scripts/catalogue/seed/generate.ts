/**
 * The deterministic demo catalogue generator: an Indian designer-fashion shop in INR. Pure (no
 * I/O, no clock): the same options always give the same catalogue. Runs in workerd (test setup)
 * and, bundled with esbuild, in Node (scripts/seed.mjs).
 *
 * Default: 300 configurable apparel products (colour × size children) plus simple, virtual,
 * downloadable, bundle, grouped and custom-option products. `scale` = number of configurables
 * (10,000 gives ≈10,000 products and ≈110,000 variants for benchmarks).
 */
import type {
  Attribute,
  BundleOption,
  Category,
  CmsBlock,
  CmsPage,
  ConfigurableChild,
  CustomOption,
  Product,
  ProductLink,
  Review,
  StoreLocation,
  TaxRule,
} from '../../../shared/schemas/catalog'
import type { UrlMapping } from '../../../worker/catalog/url-map'
import { categoryMapping, cmsPageMapping, productMapping } from '../../../worker/catalog/url-map'
import {
  ACCESSORY_OPTION,
  ADJECTIVES,
  APPAREL_SIZES,
  CATEGORY_DEFS,
  CITIES,
  COLORS,
  type ColorDef,
  DESIGNERS,
  DISCOUNT_OPTIONS,
  FREE_SIZE,
  GARMENTS,
  type GarmentDef,
  GENDERS,
  GIFT_OPTION,
  RTS_OPTIONS,
  SIZES,
} from './data'
import { createRng, type Rng } from './prng'

/** The fixed generation date; special-price windows and "new" flags are relative to it. */
export const GENERATED_AT = '2026-01-01 00:00:00'
/** Special-price windows: wide enough that 'present' stays present for years. */
export const WINDOWS = {
  past: { from: '2019-01-01 00:00:00', to: '2019-12-31 23:59:59' },
  present: { from: '2020-01-01 00:00:00', to: '2035-12-31 23:59:59' },
  future: { from: '2036-01-01 00:00:00', to: '2037-12-31 23:59:59' },
} as const

export const ATTRIBUTE_IDS = {
  color: 93,
  size: 142,
  gender: 150,
  designer: 160,
  rts: 170,
  discount: 180,
  category_product: 190,
} as const

export interface InventorySeedRow {
  sku: string
  product_id: number
  parent_sku: string | null
  qty: number
  is_in_stock: boolean
}

export interface Catalogue {
  generatedAt: string
  products: Product[]
  inventory: InventorySeedRow[]
  /** Flat list (children_data empty; the tree is rebuilt from parent_id). */
  categories: Category[]
  attributes: Attribute[]
  taxRules: TaxRule[]
  cmsPages: CmsPage[]
  cmsBlocks: CmsBlock[]
  stores: StoreLocation[]
  reviews: Review[]
  /** Singleton content documents by kind: home, common-config, otw. */
  content: Record<string, unknown>
  sizeGuides: Array<{ id: number; code: string; doc: Record<string, unknown> }>
  searchContent: Array<{ term: string; doc: Record<string, unknown> }>
  urlMappings: Array<[string, UrlMapping]>
}

export interface GenerateOptions {
  seed?: number
  /** Number of configurable apparel products (default 300). */
  scale?: number
}

const kebab = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')

const round = (n: number, step: number) => Math.max(step, Math.round(n / step) * step - 1)

function addDays(date: string, days: number): string {
  const d = new Date(`${date.replace(' ', 'T')}Z`)
  d.setUTCDate(d.getUTCDate() + days)
  return d.toISOString().slice(0, 19).replace('T', ' ')
}

/** Whether a special price applies at `at` (it is below the price and `at` is inside its window). */
function specialApplies(
  price: number,
  special: number | null | undefined,
  from?: string | null,
  to?: string | null,
) {
  if (!special || special >= price) return false
  if (from && GENERATED_AT < from) return false
  if (to && GENERATED_AT > to) return false
  return true
}

/** The image path (served by GET /img/:w/:h/...) of a garment silhouette in a colour. */
export function productImagePath(silhouette: string, colorSlug: string, back = false): string {
  return `/p/${silhouette}-${colorSlug}${back ? '-b' : ''}.svg`
}

interface Ctx {
  rng: Rng
  categories: Map<number, { name: string; slug: string; urlPath: string; parent: number }>
}

function categoryRefs(ctx: Ctx, ids: number[]) {
  return ids.flatMap((id) => {
    const c = ctx.categories.get(id)
    return c ? [{ category_id: id, name: c.name, slug: c.slug }] : []
  })
}

function withParents(ctx: Ctx, id: number): number[] {
  const out: number[] = []
  let cur = ctx.categories.get(id)
  let curId = id
  while (cur && curId !== 2) {
    out.unshift(curId)
    curId = cur.parent
    cur = ctx.categories.get(curId)
  }
  return out
}

type PriceKind = 'none' | 'past' | 'present' | 'future' | 'open' | 'not-lower'

function pickPriceKind(rng: Rng): PriceKind {
  const r = rng.next()
  if (r < 0.38) return 'none'
  if (r < 0.48) return 'past'
  if (r < 0.82) return 'present'
  if (r < 0.9) return 'future'
  if (r < 0.96) return 'open'
  return 'not-lower'
}

function specialFields(kind: PriceKind, price: number, pct: number) {
  if (kind === 'none') return { special_price: null, special_from_date: null, special_to_date: null }
  const special = kind === 'not-lower' ? price + 500 : round(price * (1 - pct / 100), 50)
  const window = kind === 'past' || kind === 'present' || kind === 'future' ? WINDOWS[kind] : null
  return {
    special_price: special,
    special_from_date: window?.from ?? null,
    special_to_date: window?.to ?? null,
  }
}

const STATUS_DISABLED_AT = new Set([5, 17, 29])
const NOT_VISIBLE_AT = new Set([41, 53, 65])

function configurableProduct(ctx: Ctx, i: number, g: GarmentDef) {
  const { rng } = ctx
  const id = 1001 + i
  const sku = `${g.key.replace(/-/g, '').slice(0, 3).toUpperCase()}${id}`
  const adjective = rng.pick(ADJECTIVES)
  const fabric = rng.pick(g.fabrics)
  const name = `${adjective} ${fabric} ${g.label}`
  const slug = `${kebab(name)}-${sku.toLowerCase()}`
  const designer = rng.pick(DESIGNERS)
  const basePrice = round(rng.int(g.minPrice, g.maxPrice), 100)
  const colors: ColorDef[] = rng.sample(COLORS, rng.int(2, 3))
  const sizes = g.freeSize ? [FREE_SIZE] : APPAREL_SIZES.slice(rng.int(0, 2))
  const priceKind = pickPriceKind(rng)
  const pct = rng.pick([10, 15, 20, 25, 30, 40, 50])
  const bigSizesDearer = rng.chance(0.2)
  const createdAt = addDays(GENERATED_AT, -rng.int(1, 720))
  const updatedAt = addDays(createdAt, rng.int(0, 30))
  const isNew = createdAt > addDays(GENERATED_AT, -60) || rng.chance(0.1)
  const rts = rng.chance(0.3)
  const allOut = rng.chance(0.05)
  const manualOut = !allOut && rng.chance(0.015)

  const inventory: InventorySeedRow[] = []
  const children: ConfigurableChild[] = []
  let j = 0
  for (const color of colors) {
    for (const size of sizes) {
      j++
      const childSku = `${sku}-${color.slug.toUpperCase()}-${size.label.replace(/\s+/g, '').toUpperCase()}`
      const price =
        bigSizesDearer && (size.label === 'XL' || size.label === 'XXL')
          ? round(basePrice * 1.1, 100)
          : basePrice
      const sp = specialFields(priceKind, price, pct)
      const applies = specialApplies(price, sp.special_price, sp.special_from_date, sp.special_to_date)
      const qty = allOut || rng.chance(0.15) ? 0 : rng.int(1, 12)
      const childId = id * 100 + j
      children.push({
        sku: childSku,
        id: childId,
        name: `${name} - ${color.label} / ${size.label}`,
        price,
        ...sp,
        final_price: applies ? (sp.special_price as number) : price,
        image: productImagePath(g.silhouette, color.slug),
        color: color.id,
        size: size.id,
        rts_qty: rts && qty > 0 ? Math.min(qty, rng.int(1, 4)) : null,
        status: rng.chance(0.03) ? 2 : 1,
        stock: { qty, is_in_stock: qty > 0, stock_status: qty > 0 ? 1 : 0 },
        custom_attributes: null,
      })
      inventory.push({ sku: childSku, product_id: childId, parent_sku: sku, qty, is_in_stock: true })
    }
  }
  const minPrice = Math.min(...children.map((c) => c.price))
  const minFinal = Math.min(...children.map((c) => c.final_price ?? c.price))
  const parentSp = specialFields(priceKind, minPrice, pct)
  const onSale = minFinal < minPrice
  const discountPct = onSale ? Math.round((1 - minFinal / minPrice) * 100) : 0
  const discountOpt = [...DISCOUNT_OPTIONS].reverse().find((d) => discountPct >= d.min)
  const catIds = withParents(ctx, g.categoryId)
  if (onSale) catIds.push(6)
  if (isNew) catIds.push(7)
  const media = colors.flatMap((c, k) => [
    { image: productImagePath(g.silhouette, c.slug), pos: k * 2, typ: 'image', lab: c.label, vid: null },
    {
      image: productImagePath(g.silhouette, c.slug, true),
      pos: k * 2 + 1,
      typ: 'image',
      lab: `${c.label} back`,
      vid: null,
    },
  ])
  const first = colors[0] as ColorDef
  const totalQty = children.reduce((s, c) => s + c.stock.qty, 0)
  const inStock = !manualOut && children.some((c) => c.stock.is_in_stock && c.status < 2)
  const product: Product = {
    id,
    sku,
    parent_id: null,
    parent_sku: null,
    name,
    type_id: 'configurable',
    designer: designer.id,
    designer_name: designer.label,
    description: `<p>A ${fabric.toLowerCase()} ${g.label.toLowerCase()} by ${designer.label}, handcrafted in small batches. Available in ${colors.map((c) => c.label.toLowerCase()).join(', ')}.</p><ul><li>Fabric: ${fabric}</li><li>Care: dry clean only</li></ul>`,
    short_description: `${fabric} ${g.label.toLowerCase()} by ${designer.label}`,
    price: minPrice,
    ...parentSp,
    final_price: minFinal,
    tax_class_id: 2,
    tier_prices: [],
    status: STATUS_DISABLED_AT.has(i) ? 2 : 1,
    visibility: NOT_VISIBLE_AT.has(i) ? 1 : i === 77 ? 2 : i === 89 ? 3 : 4,
    created_at: createdAt,
    updated_at: updatedAt,
    image: productImagePath(g.silhouette, first.slug),
    thumbnail: productImagePath(g.silhouette, first.slug),
    small_image: productImagePath(g.silhouette, first.slug),
    hover_image: productImagePath(g.silhouette, first.slug, true),
    media_gallery: media,
    url_key: slug,
    url_path: `${ctx.categories.get(g.categoryId)?.urlPath ?? g.key}/${slug}`,
    slug,
    meta_title: `${name} by ${designer.label} | Buy Online`,
    meta_description: rng.chance(0.8)
      ? `Shop the ${name} by ${designer.label}. ${fabric}, made in India.`
      : null,
    category: categoryRefs(ctx, catIds),
    category_ids: catIds,
    product_links: [],
    color: null,
    size: null,
    gender: g.gender,
    rts: rts ? RTS_OPTIONS[0].id : RTS_OPTIONS[1].id,
    discount: discountOpt?.id ?? null,
    category_product: g.optionId,
    color_options: colors.map((c) => c.id),
    size_options: sizes.map((s) => s.id),
    sale: onSale ? '1' : '0',
    new: isNew ? '1' : '0',
    product_tag: rng.pick([
      null,
      null,
      null,
      null,
      'Bestseller',
      'Handcrafted',
      'Limited Edition',
      'Celebrity Pick',
    ]),
    product_banner: rng.chance(0.08) ? `/b/product-${kebab(g.label)}-offer.svg` : null,
    celeb_image: rng.chance(0.05) ? `/b/celeb-${sku.toLowerCase()}.svg` : null,
    international_flag: rng.chance(0.1) ? '1' : '0',
    delivery_days: rng.int(7, 28),
    rts_qty: rts ? Math.max(0, ...children.map((c) => c.rts_qty ?? 0)) || null : null,
    rts_delivery_time: rts ? rng.pick(['2-3 business days', '3-5 business days', 'Ships in 48 hours']) : null,
    rts_disclaimer: rts ? 'Ready-to-ship pieces are dispatched from our Mumbai studio.' : null,
    stock: { qty: totalQty, is_in_stock: inStock, stock_status: inStock ? 1 : 0 },
    configurable_options: [
      {
        attribute_code: 'color',
        attribute_id: ATTRIBUTE_IDS.color,
        label: 'Color',
        position: 0,
        values: colors.map((c) => ({ value_index: c.id, label: c.label })),
      },
      {
        attribute_code: 'size',
        attribute_id: ATTRIBUTE_IDS.size,
        label: 'Size',
        position: 1,
        values: sizes.map((s) => ({ value_index: s.id, label: s.label })),
      },
    ],
    configurable_children: children,
    custom_options: i % 23 === 4 ? stitchingOptions(id) : [],
    bundle_options: [],
    size_guide: g.freeSize ? null : g.key,
  }
  // The manual out-of-stock switch on the parent (no inventory row of its own).
  if (manualOut) product.stock = { qty: totalQty, is_in_stock: false, stock_status: 0 }
  return { product, inventory }
}

function stitchingOptions(id: number): CustomOption[] {
  return [
    {
      option_id: id * 10 + 1,
      title: 'Blouse stitching',
      type: 'radio',
      is_require: true,
      price: null,
      price_type: null,
      values: [
        { option_type_id: id * 100 + 11, title: 'Unstitched', price: 0, price_type: 'fixed', sort_order: 0 },
        {
          option_type_id: id * 100 + 12,
          title: 'Standard stitching',
          price: 1500,
          price_type: 'fixed',
          sort_order: 1,
        },
        {
          option_type_id: id * 100 + 13,
          title: 'Designer stitching',
          price: 10,
          price_type: 'percent',
          sort_order: 2,
        },
      ],
    },
    {
      option_id: id * 10 + 2,
      title: 'Monogram',
      type: 'field',
      is_require: false,
      price: 500,
      price_type: 'fixed',
      values: [],
    },
    {
      option_id: id * 10 + 3,
      title: 'Gift wrap',
      type: 'checkbox',
      is_require: false,
      price: null,
      price_type: null,
      values: [
        {
          option_type_id: id * 100 + 31,
          title: 'Add gift wrap',
          price: 250,
          price_type: 'fixed',
          sort_order: 0,
        },
      ],
    },
  ]
}

interface SimpleSpec {
  name: string
  type: 'simple' | 'virtual' | 'downloadable'
  categoryId: number
  price: number
  silhouette: string
  color: ColorDef
  qty: number
  special?: number
  customOptions?: boolean
}

function simpleProduct(
  ctx: Ctx,
  id: number,
  s: SimpleSpec,
): { product: Product; inventory: InventorySeedRow } {
  const sku = `${s.type === 'simple' ? 'ACC' : s.type === 'virtual' ? 'VIR' : 'DWN'}${id}`
  const slug = `${kebab(s.name)}-${sku.toLowerCase()}`
  const catIds = withParents(ctx, s.categoryId)
  const special = s.special ?? null
  const applies = specialApplies(s.price, special, WINDOWS.present.from, WINDOWS.present.to)
  if (applies) catIds.push(6)
  const createdAt = addDays(GENERATED_AT, -((id * 7) % 400) - 1)
  const gift = s.type !== 'simple'
  const product: Product = {
    id,
    sku,
    parent_id: null,
    parent_sku: null,
    name: s.name,
    type_id: s.type,
    designer: DESIGNERS[id % DESIGNERS.length]?.id ?? null,
    designer_name: DESIGNERS[id % DESIGNERS.length]?.label ?? null,
    description: `<p>${s.name}. ${gift ? 'Delivered by e-mail.' : 'Handmade by artisans across India.'}</p>`,
    short_description: s.name,
    price: s.price,
    special_price: special,
    special_from_date: special ? WINDOWS.present.from : null,
    special_to_date: special ? WINDOWS.present.to : null,
    final_price: applies ? (special as number) : s.price,
    tax_class_id: gift ? 5 : 2,
    tier_prices: [],
    status: 1,
    visibility: 4,
    created_at: createdAt,
    updated_at: createdAt,
    image: productImagePath(s.silhouette, s.color.slug),
    thumbnail: productImagePath(s.silhouette, s.color.slug),
    small_image: productImagePath(s.silhouette, s.color.slug),
    hover_image: productImagePath(s.silhouette, s.color.slug, true),
    media_gallery: [
      {
        image: productImagePath(s.silhouette, s.color.slug),
        pos: 0,
        typ: 'image',
        lab: s.color.label,
        vid: null,
      },
    ],
    url_key: slug,
    url_path: `${ctx.categories.get(s.categoryId)?.urlPath ?? 'accessories'}/${slug}`,
    slug,
    meta_title: s.name,
    meta_description: `${s.name} from our ${ctx.categories.get(s.categoryId)?.name ?? 'accessories'} collection.`,
    category: categoryRefs(ctx, catIds),
    category_ids: catIds,
    product_links: [],
    color: s.color.id,
    size: null,
    gender: GENDERS[0].id,
    rts: RTS_OPTIONS[0].id,
    discount: null,
    category_product: gift ? GIFT_OPTION.id : ACCESSORY_OPTION.id,
    color_options: null,
    size_options: null,
    sale: applies ? '1' : '0',
    new: '0',
    product_tag: null,
    product_banner: null,
    celeb_image: null,
    international_flag: '0',
    delivery_days: gift ? 0 : 5,
    rts_qty: gift ? null : Math.min(s.qty, 3) || null,
    rts_delivery_time: gift ? null : '2-3 business days',
    rts_disclaimer: null,
    stock: { qty: s.qty, is_in_stock: s.qty > 0, stock_status: s.qty > 0 ? 1 : 0 },
    configurable_options: [],
    configurable_children: [],
    custom_options: s.customOptions
      ? [
          {
            option_id: id * 10 + 1,
            title: 'Engraving',
            type: 'field',
            is_require: true,
            price: 300,
            price_type: 'fixed',
            values: [],
          },
          {
            option_id: id * 10 + 2,
            title: 'Finish',
            type: 'drop_down',
            is_require: false,
            price: null,
            price_type: null,
            values: [
              {
                option_type_id: id * 100 + 21,
                title: 'Gold plated',
                price: 0,
                price_type: 'fixed',
                sort_order: 0,
              },
              {
                option_type_id: id * 100 + 22,
                title: 'Rose gold plated',
                price: 5,
                price_type: 'percent',
                sort_order: 1,
              },
            ],
          },
        ]
      : [],
    bundle_options: [],
  }
  return { product, inventory: { sku, product_id: id, parent_sku: null, qty: s.qty, is_in_stock: true } }
}

const col = (slug: string) => COLORS.find((c) => c.slug === slug) as ColorDef

const SIMPLE_SPECS: SimpleSpec[] = [
  {
    name: 'Kundan Jhumka Earrings',
    type: 'simple',
    categoryId: 30,
    price: 3499,
    silhouette: 'jewel',
    color: col('gold'),
    qty: 14,
  },
  {
    name: 'Polki Choker Necklace',
    type: 'simple',
    categoryId: 30,
    price: 18999,
    silhouette: 'jewel',
    color: col('gold'),
    qty: 3,
    customOptions: true,
  },
  {
    name: 'Meenakari Bangles (Set of 4)',
    type: 'simple',
    categoryId: 30,
    price: 2999,
    silhouette: 'jewel',
    color: col('red'),
    qty: 9,
    special: 2499,
  },
  {
    name: 'Pearl Drop Maang Tikka',
    type: 'simple',
    categoryId: 30,
    price: 2299,
    silhouette: 'jewel',
    color: col('ivory'),
    qty: 0,
  },
  {
    name: 'Temple Coin Necklace',
    type: 'simple',
    categoryId: 30,
    price: 7999,
    silhouette: 'jewel',
    color: col('gold'),
    qty: 6,
  },
  {
    name: 'Silver Oxidised Anklets',
    type: 'simple',
    categoryId: 30,
    price: 1499,
    silhouette: 'jewel',
    color: col('white'),
    qty: 20,
  },
  {
    name: 'Emerald Stud Earrings',
    type: 'simple',
    categoryId: 30,
    price: 4599,
    silhouette: 'jewel',
    color: col('green'),
    qty: 5,
  },
  {
    name: 'Brocade Potli Bag',
    type: 'simple',
    categoryId: 31,
    price: 1899,
    silhouette: 'bag',
    color: col('maroon'),
    qty: 11,
  },
  {
    name: 'Zardozi Clutch',
    type: 'simple',
    categoryId: 31,
    price: 4999,
    silhouette: 'bag',
    color: col('gold'),
    qty: 4,
    special: 3999,
  },
  {
    name: 'Handwoven Jute Tote',
    type: 'simple',
    categoryId: 31,
    price: 1299,
    silhouette: 'bag',
    color: col('beige'),
    qty: 17,
  },
  {
    name: 'Velvet Box Clutch',
    type: 'simple',
    categoryId: 31,
    price: 3599,
    silhouette: 'bag',
    color: col('navy'),
    qty: 0,
  },
  {
    name: 'Mirror-work Sling Bag',
    type: 'simple',
    categoryId: 31,
    price: 2199,
    silhouette: 'bag',
    color: col('fuchsia'),
    qty: 8,
  },
  {
    name: 'Block-print Bookmark',
    type: 'simple',
    categoryId: 32,
    price: 49,
    silhouette: 'book',
    color: col('teal'),
    qty: 50,
  },
  {
    name: 'Cotton Scrunchie',
    type: 'simple',
    categoryId: 32,
    price: 79,
    silhouette: 'bag',
    color: col('pink'),
    qty: 40,
  },
  {
    name: 'Handmade Fabric Coaster Set',
    type: 'simple',
    categoryId: 32,
    price: 99,
    silhouette: 'bag',
    color: col('mustard'),
    qty: 35,
  },
  {
    name: 'Mini Brocade Pouch',
    type: 'simple',
    categoryId: 32,
    price: 129,
    silhouette: 'bag',
    color: col('purple'),
    qty: 25,
    special: 89,
  },
  {
    name: 'Silk Tassel Keychain',
    type: 'simple',
    categoryId: 32,
    price: 149,
    silhouette: 'jewel',
    color: col('orange'),
    qty: 30,
  },
  {
    name: 'Ikat Eye Mask',
    type: 'simple',
    categoryId: 32,
    price: 199,
    silhouette: 'bag',
    color: col('blue'),
    qty: 22,
  },
  {
    name: 'Embroidered Hair Clip',
    type: 'simple',
    categoryId: 32,
    price: 59,
    silhouette: 'jewel',
    color: col('peach'),
    qty: 0,
  },
  {
    name: 'Kalamkari Notebook',
    type: 'simple',
    categoryId: 32,
    price: 349,
    silhouette: 'book',
    color: col('wine'),
    qty: 15,
  },
  {
    name: 'E-Gift Card ₹2,000',
    type: 'virtual',
    categoryId: 8,
    price: 2000,
    silhouette: 'voucher',
    color: col('gold'),
    qty: 9999,
  },
  {
    name: 'E-Gift Card ₹5,000',
    type: 'virtual',
    categoryId: 8,
    price: 5000,
    silhouette: 'voucher',
    color: col('maroon'),
    qty: 9999,
  },
  {
    name: 'Personal Styling Session',
    type: 'virtual',
    categoryId: 8,
    price: 2500,
    silhouette: 'voucher',
    color: col('teal'),
    qty: 20,
  },
  {
    name: 'Saree Draping Guide (PDF)',
    type: 'downloadable',
    categoryId: 8,
    price: 299,
    silhouette: 'book',
    color: col('red'),
    qty: 9999,
  },
  {
    name: 'Embroidery Motifs Pattern Book (PDF)',
    type: 'downloadable',
    categoryId: 8,
    price: 499,
    silhouette: 'book',
    color: col('navy'),
    qty: 9999,
  },
]

function compositeProduct(
  ctx: Ctx,
  id: number,
  type: 'bundle' | 'grouped',
  name: string,
  parts: Product[],
  silhouette: string,
  color: ColorDef,
): Product {
  const sku = `${type === 'bundle' ? 'BUN' : 'GRP'}${id}`
  const slug = `${kebab(name)}-${sku.toLowerCase()}`
  const catIds = withParents(ctx, 30)
  const links: ProductLink[] =
    type === 'grouped'
      ? parts.map((p, k) => ({
          sku,
          link_type: 'associated',
          linked_product_sku: p.sku,
          linked_product_type: p.type_id,
          position: k,
          product: { name: p.name, price: p.price, sku: p.sku },
        }))
      : []
  const bundle: BundleOption[] =
    type === 'bundle'
      ? [
          {
            option_id: id * 10 + 1,
            title: 'Earrings',
            required: true,
            type: 'radio',
            sku,
            product_links: parts.slice(0, 2).map((p, k) => ({
              id: id * 100 + k + 1,
              sku: p.sku,
              qty: 1,
              is_default: k === 0,
              price: p.price,
              product: { name: p.name, price: p.price },
            })),
          },
          {
            option_id: id * 10 + 2,
            title: 'Bag',
            required: true,
            type: 'radio',
            sku,
            product_links: parts.slice(2).map((p, k) => ({
              id: id * 100 + k + 11,
              sku: p.sku,
              qty: 1,
              is_default: false,
              price: p.price,
              product: { name: p.name, price: p.price },
            })),
          },
        ]
      : []
  const price =
    type === 'grouped'
      ? parts.reduce((s, p) => s + p.price, 0)
      : (bundle[0]?.product_links[0]?.price ?? 0) + (bundle[1]?.product_links[0]?.price ?? 0)
  const inStock = parts.some((p) => p.stock.is_in_stock)
  return {
    id,
    sku,
    parent_id: null,
    parent_sku: null,
    name,
    type_id: type,
    designer: null,
    designer_name: null,
    description: `<p>${name}: ${parts.map((p) => p.name).join(', ')}.</p>`,
    short_description: name,
    price,
    special_price: null,
    special_from_date: null,
    special_to_date: null,
    final_price: price,
    tax_class_id: 2,
    tier_prices: [],
    status: 1,
    visibility: 4,
    created_at: addDays(GENERATED_AT, -30 - (id % 7)),
    updated_at: addDays(GENERATED_AT, -30 - (id % 7)),
    image: productImagePath(silhouette, color.slug),
    thumbnail: productImagePath(silhouette, color.slug),
    small_image: productImagePath(silhouette, color.slug),
    hover_image: productImagePath(silhouette, color.slug, true),
    media_gallery: [
      { image: productImagePath(silhouette, color.slug), pos: 0, typ: 'image', lab: name, vid: null },
    ],
    url_key: slug,
    url_path: `${ctx.categories.get(30)?.urlPath ?? 'accessories'}/${slug}`,
    slug,
    meta_title: name,
    meta_description: null,
    category: categoryRefs(ctx, catIds),
    category_ids: catIds,
    product_links: links,
    color: color.id,
    size: null,
    gender: GENDERS[0].id,
    rts: RTS_OPTIONS[0].id,
    discount: null,
    category_product: ACCESSORY_OPTION.id,
    color_options: null,
    size_options: null,
    sale: '0',
    new: '0',
    product_tag: 'Gift Set',
    product_banner: null,
    celeb_image: null,
    international_flag: '0',
    delivery_days: 7,
    rts_qty: null,
    rts_delivery_time: null,
    rts_disclaimer: null,
    stock: { qty: inStock ? 1 : 0, is_in_stock: inStock, stock_status: inStock ? 1 : 0 },
    configurable_options: [],
    configurable_children: [],
    custom_options: [],
    bundle_options: bundle,
  }
}

function buildCategories(ctx: Ctx, products: Product[]): Category[] {
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

function buildAttributes(): Attribute[] {
  const select = (
    id: number,
    code: string,
    label: string,
    options: Array<{ value: string; label: string; swatch?: string | null }>,
  ) => ({
    attribute_id: id,
    attribute_code: code,
    default_frontend_label: label,
    frontend_label: label,
    frontend_input: 'select',
    options,
    is_visible: true,
    is_user_defined: true,
    is_visible_on_front: true,
    is_comparable: true,
    is_filterable: 1,
  })
  const garmentOptions = [
    ...new Map(
      GARMENTS.map((g) => [
        g.optionId,
        { value: String(g.optionId), label: g.key === 'mens-kurta' ? "Men's Kurta" : g.label },
      ]),
    ).values(),
    { value: String(ACCESSORY_OPTION.id), label: ACCESSORY_OPTION.label },
    { value: String(GIFT_OPTION.id), label: GIFT_OPTION.label },
  ]
  return [
    select(
      ATTRIBUTE_IDS.color,
      'color',
      'Color',
      COLORS.map((c) => ({ value: String(c.id), label: c.label, swatch: c.hex })),
    ),
    select(
      ATTRIBUTE_IDS.size,
      'size',
      'Size',
      SIZES.map((s) => ({ value: String(s.id), label: s.label })),
    ),
    select(
      ATTRIBUTE_IDS.gender,
      'gender',
      'Gender',
      GENDERS.map((g) => ({ value: String(g.id), label: g.label })),
    ),
    select(
      ATTRIBUTE_IDS.designer,
      'designer',
      'Designer',
      DESIGNERS.map((d) => ({ value: String(d.id), label: d.label })),
    ),
    select(
      ATTRIBUTE_IDS.rts,
      'rts',
      'Ready to Ship',
      RTS_OPTIONS.map((o) => ({ value: String(o.id), label: o.label })),
    ),
    select(
      ATTRIBUTE_IDS.discount,
      'discount',
      'Discount',
      DISCOUNT_OPTIONS.map((o) => ({ value: String(o.id), label: o.label })),
    ),
    select(ATTRIBUTE_IDS.category_product, 'category_product', 'Product Type', garmentOptions),
    {
      attribute_id: 200,
      attribute_code: 'price',
      default_frontend_label: 'Price',
      frontend_label: 'Price',
      frontend_input: 'price',
      options: [],
      is_visible: true,
      is_user_defined: false,
      is_visible_on_front: true,
      is_comparable: false,
    },
    {
      attribute_id: 201,
      attribute_code: 'description',
      default_frontend_label: 'Description',
      frontend_label: 'Description',
      frontend_input: 'textarea',
      options: [],
      is_visible: true,
      is_user_defined: false,
      is_visible_on_front: true,
      is_comparable: true,
    },
  ]
}

function buildTaxRules(): TaxRule[] {
  const rates = (inRate: number, usRate: number, gbRate: number) => [
    { rate: inRate, code: `IN-GST-${inRate}`, tax_country_id: 'IN', region_name: '*', tax_region_id: 0 },
    { rate: usRate, code: `US-${usRate}`, tax_country_id: 'US', region_name: '*', tax_region_id: 0 },
    { rate: gbRate, code: `GB-VAT-${gbRate}`, tax_country_id: 'GB', region_name: '*', tax_region_id: 0 },
    { rate: 0, code: 'ROW-0', tax_country_id: 'ROW', region_name: '*', tax_region_id: 0 },
  ]
  return [
    {
      id: 1,
      code: 'Apparel and accessories',
      priority: 0,
      product_tax_class_ids: [2],
      customer_tax_class_ids: [3],
      rates: rates(12, 7.25, 20),
    },
    {
      id: 2,
      code: 'Gift cards and digital goods',
      priority: 0,
      product_tax_class_ids: [5],
      customer_tax_class_ids: [3],
      rates: rates(18, 0, 20),
    },
  ]
}

/** CMS page identifiers for every content route the shop serves. */
export const CMS_PAGE_IDENTIFIERS = [
  'about-us',
  'magazine',
  'covers',
  'press',
  'past-collections',
  'about-us-author',
  'stockists',
  'ode-to-handloom',
  'ode-to-chikankari',
  'ode-to-banaras',
  'shipping-and-returns',
  'contact',
  'privacy-policy',
  'terms-and-conditions',
  'faq',
  'size-guide',
  'home',
  'no-route',
] as const

function titleOf(identifier: string): string {
  if (identifier === 'no-route') return '404 Not Found'
  if (identifier === 'faq') return 'FAQ'
  return identifier
    .split('-')
    .map((w) => (w === 'to' || w === 'and' || w === 'us' ? w : (w[0]?.toUpperCase() ?? '') + w.slice(1)))
    .join(' ')
    .replace(/^./, (c) => c.toUpperCase())
}

function buildCmsPages(): CmsPage[] {
  return CMS_PAGE_IDENTIFIERS.map((identifier, k) => {
    const title = titleOf(identifier)
    return {
      id: k + 1,
      identifier,
      title,
      content: `<h2>${title}</h2><p>${title}: stories of Indian craft, design and the people behind them.</p><p><a href="/">Continue shopping</a></p>`,
      content_heading: title,
      meta_title: title,
      meta_description: `${title} - designer fashion from India.`,
      meta_keywords: null,
      is_active: true,
      page_layout: '1column',
      store_id: 0,
      creation_time: '2025-01-01 00:00:00',
      update_time: '2025-06-01 00:00:00',
    }
  })
}

function buildCmsBlocks(): CmsBlock[] {
  const blocks: Array<[string, string, string]> = [
    [
      'footer-about',
      'About the shop',
      '<p>Designer Indian fashion, handcrafted by artisans and shipped worldwide.</p>',
    ],
    [
      'footer-links',
      'Footer links',
      '<ul><li><a href="/about-us">About us</a></li><li><a href="/i/shipping-and-returns">Shipping &amp; returns</a></li><li><a href="/contact">Contact</a></li><li><a href="/store-locator">Store locator</a></li></ul>',
    ],
    [
      'home-intro',
      'Home intro',
      "<p>New festive edit: sarees, lehengas and sherwanis from India's finest designers.</p>",
    ],
    [
      'product-care',
      'Product care',
      '<p>Dry clean only. Store in a muslin bag away from direct sunlight.</p>',
    ],
    [
      'shipping-info',
      'Shipping information',
      '<p>Free shipping within India on orders above ₹2,999. International shipping to 40+ countries.</p>',
    ],
    ['size-chart-note', 'Size chart note', '<p>Measurements are body measurements in inches.</p>'],
    ['newsletter-text', 'Newsletter', '<p>Sign up for early access to new collections.</p>'],
    [
      'contact-details',
      'Contact details',
      '<p>Call +91 22 4000 1234 (10am to 7pm IST) or write to care@example.com.</p>',
    ],
    ['checkout-note', 'Checkout note', '<p>All prices include GST for deliveries within India.</p>'],
    ['inactive-block', 'Inactive block', '<p>Not shown.</p>'],
  ]
  return blocks.map(([identifier, title, content], k) => ({
    id: k + 1,
    identifier,
    title,
    content,
    is_active: identifier !== 'inactive-block',
    store_id: 0,
    creation_time: '2025-01-01 00:00:00',
    update_time: '2025-06-01 00:00:00',
  }))
}

function buildStores(): StoreLocation[] {
  return CITIES.map((c, k) => ({
    id: k + 1,
    code: c.code,
    name: c.name,
    city: c.city,
    address: [c.street, `${c.city}, India`],
    phone: `+91 ${['22', '11', '80', '40', '33', '141'][k]} 4000 ${String(1000 + k * 111)}`,
    email: `${c.code}@example.com`,
    hours: ['Mon-Sat: 11:00 - 20:00', 'Sun: 12:00 - 19:00'],
    lat: c.lat,
    lng: c.lng,
    description: `Our ${c.name} in ${c.city}: the full ready-to-wear collection, bridal appointments and alterations.`,
    image: `/b/store-${c.code}.svg`,
    country_id: 'IN',
    position: k,
  }))
}

function buildReviews(rng: Rng, products: Product[]): Review[] {
  const out: Review[] = []
  const titles = [
    'Absolutely beautiful',
    'Lovely fabric',
    'Fits perfectly',
    'Worth every rupee',
    'Colour slightly different',
    'Gorgeous work',
  ]
  const names = ['Priya', 'Ananya', 'Rohan', 'Sneha', 'Arjun', 'Kavya', 'Ishaan', 'Diya']
  let id = 1
  for (const p of products.slice(0, 60)) {
    const n = rng.int(0, 3)
    for (let k = 0; k < n; k++) {
      const status = k === 2 ? 2 : id % 17 === 0 ? 3 : 1
      out.push({
        id,
        product_id: p.id,
        title: rng.pick(titles),
        detail: `I bought the ${p.name} and ${rng.pick(['loved it', 'got many compliments', 'would buy again', 'the finish is excellent'])}.`,
        nickname: rng.pick(names),
        review_status: status,
        review_entity: 'product',
        ratings: [{ rating_name: 'Quality', value: rng.int(3, 5) }],
        created_at: addDays(GENERATED_AT, -rng.int(1, 300)),
      })
      id++
    }
  }
  return out
}

function buildContent(products: Product[]) {
  const listed = products.filter((p) => p.status === 1 && p.visibility === 4 && p.type_id === 'configurable')
  const skusOf = (pred: (p: Product) => boolean, n: number) =>
    listed
      .filter(pred)
      .slice(0, n)
      .map((p) => p.sku)
  const home = {
    sections: [
      { id: 1, type: 'banner', title: 'The Festive Edit', position: 1 },
      {
        id: 2,
        type: 'category_products',
        title: 'Performance Fabrics',
        category_id: 189,
        category_name: 'Performance Fabrics',
        position: 2,
      },
      {
        id: 3,
        type: 'category_products',
        title: 'Tees',
        category_id: 190,
        category_name: 'Tees',
        position: 3,
      },
      { id: 4, type: 'products', title: 'New In', skus: skusOf((p) => p.new === '1', 8), position: 4 },
      {
        id: 5,
        type: 'products',
        title: 'Bestsellers',
        skus: skusOf((p) => p.product_tag === 'Bestseller', 8),
        position: 5,
      },
      { id: 6, type: 'cms_block', title: 'Our story', block_identifier: 'home-intro', position: 6 },
    ],
    banners: {
      main: [
        {
          id: 1,
          title: 'The Festive Edit',
          image: '/b/home-festive-edit.svg',
          mobile_image: '/b/home-festive-edit-mobile.svg',
          link: '/women/sarees',
        },
        {
          id: 2,
          title: 'Bridal Lehengas',
          image: '/b/home-bridal-lehengas.svg',
          mobile_image: '/b/home-bridal-lehengas-mobile.svg',
          link: '/women/lehengas',
        },
        {
          id: 3,
          title: 'Menswear Sherwanis',
          image: '/b/home-sherwanis.svg',
          mobile_image: '/b/home-sherwanis-mobile.svg',
          link: '/men/sherwanis',
        },
      ],
      small: [
        { id: 4, title: 'Kurtas under ₹5,000', image: '/b/home-kurtas.svg', link: '/women/kurtas' },
        { id: 5, title: 'Ready to Ship', image: '/b/home-ready-to-ship.svg', link: '/new-in' },
        { id: 6, title: 'Sale', image: '/b/home-sale.svg', link: '/sale' },
      ],
      product: [
        {
          id: 7,
          title: "Editor's pick",
          image: '/b/home-editors-pick.svg',
          sku: listed[0]?.sku ?? null,
          link: listed[0] ? `/${listed[0].url_path}` : '/',
        },
      ],
    },
    head_image: {
      image: '/b/head-festive.svg',
      mobile_image: '/b/head-festive-mobile.svg',
      title: 'Celebrate in colour',
      link: '/new-in',
    },
    popups: [
      {
        id: 1,
        type: 'strip',
        text: 'Free shipping in India on orders above ₹2,999',
        link: '/i/shipping-and-returns',
        active: true,
      },
      {
        id: 2,
        type: 'exit_popup',
        title: 'Before you go…',
        text: 'Get 10% off your first order with code WELCOME10.',
        image: '/b/popup-welcome.svg',
        active: true,
      },
      {
        id: 3,
        type: 'generic_popup',
        title: 'Visit our stores',
        text: 'Six stores across India. Book a styling appointment.',
        link: '/store-locator',
        image: '/b/popup-stores.svg',
        active: true,
      },
    ],
  }
  const commonConfig = {
    support_email: 'care@example.com',
    support_phone: '+91 22 4000 1234',
    free_shipping_threshold: 2999,
    currency_default: 'INR',
    whatsapp_number: '+919800000000',
    social: { instagram: 'https://instagram.com/example', facebook: 'https://facebook.com/example' },
    announcement: 'Complimentary gift wrap on all orders this festive season.',
  }
  const otw = {
    title: 'Outfit of the Week',
    description: 'Our stylists pick one look every week.',
    skus: skusOf((p) => p.category_ids.includes(10) || p.category_ids.includes(30), 4),
    image: '/b/otw-look.svg',
  }
  return { home, 'common-config': commonConfig, otw }
}

function buildSizeGuides() {
  const bodies = ['Bust', 'Waist', 'Hip']
  const base = [32, 26, 35]
  return GARMENTS.filter((g) => !g.freeSize).map((g, k) => ({
    id: k + 1,
    code: g.key,
    doc: {
      id: k + 1,
      code: g.key,
      title: `${g.label} size guide`,
      unit: 'in',
      columns: ['Size', ...(g.gender === 202 ? ['Chest', 'Waist', 'Shoulder'] : bodies)],
      rows: APPAREL_SIZES.map((s, n) => [s.label, ...base.map((b) => String(b + n * 2))]),
      note: 'Body measurements in inches. Between sizes? Choose the larger size.',
    },
  }))
}

function buildSearchContent() {
  return [
    {
      term: '',
      doc: {
        term: '',
        popular_searches: ['saree', 'lehenga', 'kurta', 'sherwani', 'jhumka'],
        trending_categories: [
          { id: 10, name: 'Sarees', url: '/women/sarees' },
          { id: 11, name: 'Lehengas', url: '/women/lehengas' },
          { id: 21, name: 'Sherwanis', url: '/men/sherwanis' },
        ],
        banner: { image: '/b/search-festive.svg', link: '/new-in', title: 'The Festive Edit' },
      },
    },
    {
      term: 'saree',
      doc: {
        term: 'saree',
        popular_searches: ['banarasi saree', 'kanjeevaram saree', 'organza saree'],
        trending_categories: [{ id: 10, name: 'Sarees', url: '/women/sarees' }],
        banner: { image: '/b/search-sarees.svg', link: '/women/sarees', title: 'Sarees' },
      },
    },
  ]
}

/** Generates the whole demo catalogue deterministically from the options. */
export function generateCatalogue(options: GenerateOptions = {}): Catalogue {
  const rng = createRng(options.seed ?? 20260101)
  const scale = Math.max(1, Math.floor(options.scale ?? 300))
  const defs = new Map(CATEGORY_DEFS.map((d) => [d.id, d]))
  const urlPathOf = (id: number): string => {
    const d = defs.get(id)
    if (!d || d.id === 2) return d?.slug ?? ''
    return d.parent === 2 ? d.slug : `${urlPathOf(d.parent)}/${d.slug}`
  }
  const ctx: Ctx = {
    rng,
    categories: new Map(
      CATEGORY_DEFS.map((d) => [
        d.id,
        { name: d.name, slug: d.slug, urlPath: urlPathOf(d.id), parent: d.parent },
      ]),
    ),
  }

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
  }
}
