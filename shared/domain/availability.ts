/**
 * Availability rules: variant and product stock, product rejection, tile
 * visibility, estimated delivery and the product load guard. Pure: config and `now` are arguments.
 */

import { baseCurrency, STORE_UTC_OFFSET_MINUTES } from '../config/store'
import { PRODUCT_LOAD_GUARD_MS } from '../config/transactions'
import { MSG, msgProductRejected } from '../i18n/messages'

interface StockFields {
  qty?: number | null
  is_in_stock?: boolean | null
  stock_status?: number | null
  /** Magento: false means the quantity is not tracked and the item is always sellable. */
  manage_stock?: boolean | null
  /** Magento: above 0 means the item may be sold at or below zero quantity. */
  backorders?: number | null
}

export interface VariantFields {
  sku: string
  status?: number | null
  stock?: StockFields | null
}

interface AvailabilityProduct {
  type_id?: string
  status?: number | null
  visibility?: number | null
  stock?: StockFields | null
  configurable_children?: readonly VariantFields[] | null
}

export interface AvailabilityOptions {
  /** Out-of-stock listing setting (FLAGS.listOutOfStockProducts; on by default). */
  listOutOfStock: boolean
}

/** The stock of an item is tracked by quantity unless manage_stock is explicitly off. */
const managesStock = (stock: StockFields) => stock.manage_stock !== false

/**
 * THE definition of sellable, used by listings, the stock endpoints, carts and orders: an item
 * whose stock is not managed is always sellable; otherwise it must be in stock (is_in_stock true,
 * or stock_status 1 without a flag; a false flag or another status switches it off) and needs a
 * quantity above 0 unless backorders are allowed. No stock record at all is not sellable.
 */
export function isSellable(stock: StockFields | null | undefined): boolean {
  return (
    !!stock &&
    (!managesStock(stock) ||
      ((stock.is_in_stock ?? stock.stock_status === 1) &&
        (stock.stock_status ?? 1) === 1 &&
        ((stock.qty ?? 0) > 0 || (stock.backorders ?? 0) > 0)))
  )
}

/**
 * How many units a buyer may take at once: unlimited (Infinity) when the stock is not managed or
 * backorders are allowed, the quantity when sellable, else 0.
 */
export function sellableUnits(stock: StockFields | null | undefined): number {
  if (!isSellable(stock) || !stock) return 0
  if (!managesStock(stock) || (stock.backorders ?? 0) > 0) return Number.POSITIVE_INFINITY
  return Math.max(0, stock.qty ?? 0)
}

/** A configurable child counts as in stock when its stock is sellable. */
export const isChildInStock = (child: VariantFields) => isSellable(child.stock)

/** A variant is available unless its status is ≥ 2, or it is out of stock while out-of-stock listing is off. */
export function isVariantAvailable(child: VariantFields, opts: AvailabilityOptions): boolean {
  if ((child.status ?? 1) >= 2) return false
  return opts.listOutOfStock || isChildInStock(child)
}

/** The configurable's available children: enabled, and in stock unless out-of-stock products are listed. */
export function availableVariants<T extends VariantFields>(
  children: readonly T[] | null | undefined,
  opts: AvailabilityOptions,
): T[] {
  return (children ?? []).filter((c) => isVariantAvailable(c, opts))
}

/** 'No available product variants' when a configurable has children but none is available, else null. */
export function variantsError(product: AvailabilityProduct, opts: AvailabilityOptions): string | null {
  if (product.type_id !== 'configurable') return null
  return availableVariants(product.configurable_children, opts).length === 0 ? MSG.noAvailableVariants : null
}

/**
 * A product is in stock: a configurable with children when its own flag is not switched off and
 * an enabled child is sellable; anything else when its own stock is sellable.
 */
export function isProductInStock(product: AvailabilityProduct): boolean {
  const children = product.configurable_children ?? []
  return product.type_id === 'configurable' && children.length > 0
    ? product.stock?.is_in_stock !== false && children.some((c) => (c.status ?? 1) < 2 && isChildInStock(c))
    : isSellable(product.stock)
}

/** Magento's stock fields as an export carries them (any JSON types; coerced by the importer). */
interface ExportedStock {
  qty: number
  is_in_stock: boolean
  manage_stock: boolean
  backorders: number
}

/**
 * Reads an exported Magento stock record. An item exported as in stock with no quantity, counted
 * and without backorders, has nothing to sell: it stays counted, so it is sold out rather than
 * sold without limit (an export does not say whether Magento counted it, and guessing "not
 * counted" would let every such item be oversold). It is sellable at no quantity only when its
 * stock is not managed or backorders are on. `soldOut` says whether the in-stock flag was overruled.
 */
export function readExportedStock(stock: ExportedStock): ExportedStock & { soldOut: boolean } {
  const soldOut = stock.is_in_stock && stock.manage_stock && stock.qty <= 0 && stock.backorders <= 0
  return { ...stock, is_in_stock: stock.is_in_stock && !soldOut, soldOut }
}

/** The rejection message when status ≥ 2 (disabled) or visibility is 1 (not visible individually), else null (product may be shown). */
export function productRejection(product: Pick<AvailabilityProduct, 'status' | 'visibility'>): string | null {
  const status = product.status ?? 1
  const visibility = product.visibility ?? 4
  return status >= 2 || visibility === 1 ? msgProductRejected(status, visibility) : null
}

/** True for VSF flag values '1', 1, true (and 'true'). */
export function isFlagSet(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 'true'
}

/** A tile is hidden when the product has international_flag and the current currency is not the base (home) currency. */
export function isTileVisible(product: { international_flag?: unknown }, currencyCode: string): boolean {
  return !(isFlagSet(product.international_flag) && currencyCode !== baseCurrency())
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
]

/** English ordinal of a day of month: 1 → '1st', 2 → '2nd', 11 → '11th', 23 → '23rd'. */
export function ordinal(n: number): string {
  const mod100 = n % 100
  if (mod100 >= 11 && mod100 <= 13) return `${n}th`
  const suffix = ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'
  return `${n}${n % 10 > 3 ? 'th' : suffix}`
}

/** Formats a calendar date (its UTC fields) as 'Do of MMMM, YYYY', e.g. '3rd of March, 2027'. */
export function formatDeliveryDate(date: Date): string {
  return `${ordinal(date.getUTCDate())} of ${MONTHS[date.getUTCMonth()]}, ${date.getUTCFullYear()}`
}

/**
 * The delivery time a piece shipped from counted stock shows (a product authored in the back office
 * without a made-to-order lead time): the ready-to-ship time the shop's stocked pieces carry.
 */
export const READY_TO_SHIP_DELIVERY = '2-3 business days'

interface DeliveryFields {
  delivery_days?: number | null
  rts_qty?: number | null
  rts_delivery_time?: string | null
}

/**
 * Estimated delivery: rts_delivery_time when rts_qty is set (> 0), else today (in the store's time
 * zone) plus delivery_days as 'Do of MMMM, YYYY'; null when neither is known.
 */
export function estimatedDelivery(
  product: DeliveryFields,
  now: number | Date,
  utcOffsetMinutes: number = STORE_UTC_OFFSET_MINUTES,
): string | null {
  if ((product.rts_qty ?? 0) > 0 && product.rts_delivery_time) return product.rts_delivery_time
  const days = product.delivery_days
  if (days == null || !Number.isFinite(days) || days < 0) return null
  const ms = typeof now === 'number' ? now : now.getTime()
  const local = new Date(ms + utcOffsetMinutes * 60_000)
  const day = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() + Math.round(days))
  return formatDeliveryDate(new Date(day))
}

/** Product load guard: start a load unless one started less than 20 s before `now` (ms epoch). */
export function shouldStartLoad(lastStart: number | null | undefined, now: number): boolean {
  return lastStart == null || now - lastStart >= PRODUCT_LOAD_GUARD_MS || now < lastStart
}
