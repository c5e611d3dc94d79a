/**
 * The configurable apparel products: a garment in 2–3 colours × its sizes, each child with its
 * own price, special price and stock, plus the stitching custom options some of them carry.
 * Length: one garment's generation from colours to children to options reads top to bottom.
 */
import type { ConfigurableChild, CustomOption, Product } from '../../../shared/schemas/catalog'
import { COLORS, type ColorDef, type Textile, type View } from '../../../worker/pages/images/palette'
import {
  addDays,
  type Ctx,
  categoryRefs,
  kebab,
  productImagePath,
  productRng,
  round,
  specialApplies,
  withParents,
} from './context'
import { colourList, garmentDescription, uniqueName } from './copy'
import { choiceOption, textOption } from './custom-options'
import {
  APPAREL_SIZES,
  DESIGNERS,
  DISCOUNT_OPTIONS,
  FREE_SIZE,
  type GarmentDef,
  RTS_OPTIONS,
  type SizeDef,
} from './data'
import { FABRICS } from './fabrics'
import type { Rng } from './prng'
import { ATTRIBUTE_IDS, GENERATED_AT, type InventorySeedRow, WINDOWS } from './types'

/** How a product's special price relates to the generation date (or to the price, for 'not-lower'). */
type PriceKind = 'none' | 'past' | 'present' | 'future' | 'open' | 'not-lower'

/** A special-price kind, about a third of products currently reduced. */
function pickPriceKind(rng: Rng): PriceKind {
  const r = rng.next()
  if (r < 0.38) return 'none'
  if (r < 0.48) return 'past'
  if (r < 0.82) return 'present'
  if (r < 0.9) return 'future'
  if (r < 0.96) return 'open'
  return 'not-lower'
}

/** The special price fields for a kind: `pct` % off (or 500 above the price), with its window. */
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

const VIEW_LABEL: Readonly<Record<View, string>> = {
  front: 'front',
  back: 'back',
  detail: 'fabric detail',
  figure: 'on figure',
}

/** Configurable numbers that are disabled, and that are not visible individually (pages reject them). */
const STATUS_DISABLED_AT = new Set([5, 17, 29])
const NOT_VISIBLE_AT = new Set([41, 53, 65])

interface ChildPlan {
  id: number
  sku: string
  name: string
  silhouette: string
  textile: Textile
  colors: ColorDef[]
  sizes: readonly SizeDef[]
  basePrice: number
  priceKind: PriceKind
  pct: number
  /** XL and XXL cost 10 % more. */
  bigSizesDearer: boolean
  rts: boolean
  /** Every child sold out. */
  allOut: boolean
}

/**
 * Every configurable keeps at least one enabled variant, and unless it is meant to be sold out,
 * one enabled variant in stock: the first variant is switched on, or given one piece, when the
 * draws left none (rare, but certain among a million variants). Nothing is drawn, so the random
 * stream and every other product stay as they are.
 */
function keepOneSellable(children: ConfigurableChild[], allOut: boolean): void {
  const first = children[0]
  if (!first) return
  if (!children.some((c) => c.status === 1)) first.status = 1
  if (allOut || children.some((c) => c.status === 1 && c.stock.qty > 0)) return
  const target = children.find((c) => c.status === 1) as ConfigurableChild
  target.stock = { qty: 1, is_in_stock: true, stock_status: 1 }
}

/** The colour × size children of a configurable and their inventory rows. */
function configurableChildren(rng: Rng, plan: ChildPlan) {
  const { id, sku, name, basePrice, priceKind, pct, bigSizesDearer, rts, allOut } = plan
  const inventory: InventorySeedRow[] = []
  const children: ConfigurableChild[] = []
  let j = 0
  for (const color of plan.colors) {
    for (const size of plan.sizes) {
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
      const child: ConfigurableChild = {
        sku: childSku,
        id: childId,
        name: `${name} - ${color.label} / ${size.label}`,
        price,
        ...sp,
        final_price: applies ? (sp.special_price as number) : price,
        image: productImagePath(plan.silhouette, color.slug, { textile: plan.textile }),
        color: color.id,
        size: size.id,
        rts_qty: rts && qty > 0 ? Math.min(qty, rng.int(1, 4)) : null,
        status: rng.chance(0.03) ? 2 : 1,
        stock: { qty, is_in_stock: qty > 0, stock_status: qty > 0 ? 1 : 0 },
        custom_attributes: null,
      }
      children.push(child)
    }
  }
  keepOneSellable(children, allOut)
  // A disabled variant is not sold: it gets no stock row (neither the in-stock filter nor a cart
  // counts it).
  for (const ch of children)
    if (ch.status === 1)
      inventory.push({
        sku: ch.sku,
        product_id: ch.id,
        parent_sku: sku,
        qty: ch.stock.qty,
        is_in_stock: true,
      })
  return { children, inventory }
}

/** Configurable product number `i` (0-based) of garment `g`, with its children's inventory. */
export function configurableProduct(ctx: Ctx, i: number, g: GarmentDef) {
  const { rng } = ctx
  const id = 1001 + i
  const sku = `${g.key.replace(/-/g, '').slice(0, 3).toUpperCase()}${id}`
  // The shared stream is drawn in the same order as ever (ids, prices, colours and stock stay
  // put); the words come from the product's own stream once its colours are known.
  rng.next()
  const fabric = rng.pick(g.fabrics)
  const spec = FABRICS[fabric] as (typeof FABRICS)[string]
  const designer = rng.pick(DESIGNERS)
  const basePrice = round(rng.int(g.minPrice, g.maxPrice), 100)
  const colors: ColorDef[] = rng.sample(COLORS, rng.int(2, 3))
  const words = productRng(id)
  const name = uniqueName(ctx, words.int(0, 1000), fabric, g.label, colors, id)
  const slug = `${kebab(name)}-${sku.toLowerCase()}`
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

  const { children, inventory } = configurableChildren(rng, {
    id,
    sku,
    name,
    silhouette: g.silhouette,
    textile: spec.textile,
    colors,
    sizes,
    basePrice,
    priceKind,
    pct,
    bigSizesDearer,
    rts,
    allOut,
  })
  const minPrice = Math.min(...children.map((c) => c.price))
  const minFinal = Math.min(...children.map((c) => c.final_price ?? c.price))
  const parentSp = specialFields(priceKind, minPrice, pct)
  const onSale = minFinal < minPrice
  const discountPct = onSale ? Math.round((1 - minFinal / minPrice) * 100) : 0
  const discountOpt = [...DISCOUNT_OPTIONS].reverse().find((d) => discountPct >= d.min)
  const catIds = withParents(ctx, g.categoryId)
  if (onSale) catIds.push(6)
  if (isNew) catIds.push(7)
  // The first colour in four views (front, back as the hover image, fabric detail, on figure),
  // every other colour in front and on figure.
  const view = (c: ColorDef, v: View | undefined) =>
    productImagePath(g.silhouette, c.slug, { textile: spec.textile, view: v })
  const media = colors
    .flatMap((c, k) =>
      (k === 0 ? ([undefined, 'back', 'detail', 'figure'] as const) : ([undefined, 'figure'] as const)).map(
        (v) => ({
          image: view(c, v),
          typ: 'image',
          lab: `${name} in ${c.label.toLowerCase()}, ${VIEW_LABEL[v ?? 'front']}`,
          vid: null,
        }),
      ),
    )
    .map((m, pos) => ({ ...m, pos }))
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
    description: garmentDescription(words, g, fabric, spec, designer.label, colors),
    short_description: `${fabric} ${g.label.toLowerCase()} by ${designer.label}, in ${colourList(colors)}`,
    fabric: spec.material,
    care: spec.care,
    price: minPrice,
    ...parentSp,
    final_price: minFinal,
    tax_class_id: 2,
    hsn_code: g.hsn,
    tier_prices: [],
    status: STATUS_DISABLED_AT.has(i) ? 2 : 1,
    visibility: NOT_VISIBLE_AT.has(i) ? 1 : i === 77 ? 2 : i === 89 ? 3 : 4,
    created_at: createdAt,
    updated_at: updatedAt,
    image: view(first, undefined),
    thumbnail: view(first, undefined),
    small_image: view(first, undefined),
    hover_image: view(first, 'back'),
    media_gallery: media,
    url_key: slug,
    url_path: `${ctx.categories.get(g.categoryId)?.urlPath ?? g.key}/${slug}`,
    slug,
    meta_title: `${name} by ${designer.label} | Buy Online`,
    meta_description: rng.chance(0.8)
      ? `${name} by ${designer.label}: ${spec.material.toLowerCase()}, made in India, in ${colourList(colors)}.`
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
    custom_options: i % 23 === 4 ? garmentOptions(id, g) : [],
    bundle_options: [],
    size_guide: g.key,
  }
  // The manual out-of-stock switch on the parent (no inventory row of its own).
  if (manualOut) product.stock = { qty: totalQty, is_in_stock: false, stock_status: 0 }
  return { product, inventory }
}

/** Garments that come with a blouse piece, the only ones offered blouse stitching. */
const WITH_BLOUSE = new Set(['saree', 'lehenga', 'blouse'])
const MENSWEAR = new Set(['shirt', 'sherwani', 'jacket', 'mens-kurta'])

/** A required radio with a free choice, a fixed-price one and a percent-priced one. */
function radio(id: number, title: string, values: [string, string, string], fixed: number): CustomOption {
  return choiceOption(id, 1, title, 'radio', true, [
    [values[0], 0, 'fixed'],
    [values[1], fixed, 'fixed'],
    [values[2], 10, 'percent'],
  ])
}

/**
 * The custom options that fit the garment: blouse stitching only where a blouse piece comes with
 * it (sarees, lehengas, blouses), tailoring for menswear, length alterations for women's
 * kurtas, dresses and anarkalis, a monogram only on tees and track jackets; gift wrap for all.
 */
function garmentOptions(id: number, g: GarmentDef): CustomOption[] {
  const first: CustomOption = WITH_BLOUSE.has(g.key)
    ? radio(id, 'Blouse stitching', ['Unstitched', 'Standard stitching', 'Designer stitching'], 1500)
    : MENSWEAR.has(g.key)
      ? radio(id, 'Tailoring', ['Standard fit', 'Altered to your measurements', 'Made to measure'], 1500)
      : g.gender === 201
        ? radio(id, 'Length', ['As shown', 'Shortened or lengthened', 'Made to measure'], 800)
        : textOption(id, 1, 'Monogram', 500)
  const extra: CustomOption =
    g.key === 'saree'
      ? choiceOption(id, 2, 'Fall and pico', 'checkbox', false, [['Add fall and pico', 350, 'fixed']])
      : textOption(id, 2, 'Note for the atelier', 0)
  return [
    first,
    extra,
    choiceOption(id, 3, 'Gift wrap', 'checkbox', false, [['Add gift wrap', 250, 'fixed']]),
  ]
}
