/**
 * Stock as an export holds it: Magento's stock fields, the documented array form folded into one,
 * read with the shop's one rule for "sellable".
 */
import { z } from 'zod'
import { isSellable, readExportedStock } from '../../../shared/domain/availability'
import { type CoercionCounts, coerce } from './coerce'

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** Adds one to a coercion counter. */
export function note(counts: CoercionCounts, key: string) {
  counts.set(key, (counts.get(key) ?? 0) + 1)
}

/** Magento's stock fields, coerced like the rest of the document. */
const ExportedStockSchema = z.looseObject({
  qty: z.number().default(0),
  is_in_stock: z.boolean().default(false),
  manage_stock: z.boolean().default(true),
  backorders: z.number().default(0),
  stock_status: z.number().nullish(),
})

/**
 * One stock object from what an export holds: the documented array form ([{…}], one entry per
 * stock) is folded into one (quantities added, in stock when any entry is, backorders and
 * unmanaged stock when any entry allows them).
 */
export function foldStock(raw: unknown, counts: CoercionCounts, path: string): unknown {
  if (!Array.isArray(raw)) return raw
  note(counts, `stock array → object (${path})`)
  const entries = raw.filter(isObject)
  if (entries.length <= 1) return entries[0] ?? undefined
  const typed = entries.map((e) =>
    ExportedStockSchema.safeParse(coerce(ExportedStockSchema, e, counts, path)),
  )
  if (typed.some((t) => !t.success)) return entries[0]
  const ok = typed.map((t) => (t.success ? t.data : null)).filter((t) => t !== null)
  return {
    ...entries[0],
    qty: ok.reduce((n, t) => n + t.qty, 0),
    is_in_stock: ok.some((t) => t.is_in_stock),
    manage_stock: ok.every((t) => t.manage_stock),
    backorders: Math.max(...ok.map((t) => t.backorders)),
  }
}

/**
 * The stock an imported item keeps: Magento's fields coerced, then read with the shared stock
 * rules (an item flagged in stock at no quantity, counted and without backorders, is sold out);
 * the stored flag is whether it is sellable right now, so the listing filter and the documents agree.
 */
export function importedStock(
  raw: unknown,
  counts: CoercionCounts,
  path: string,
): Record<string, unknown> | null {
  if (!isObject(raw)) return null
  const parsed = ExportedStockSchema.safeParse(coerce(ExportedStockSchema, raw, counts, path))
  if (!parsed.success) return raw
  const read = readExportedStock(parsed.data)
  if (read.soldOut) note(counts, `in stock at qty ≤ 0 without backorders → sold out (${path})`)
  const { soldOut: _s, ...stock } = read
  const sellable = isSellable(stock)
  return { ...parsed.data, ...stock, is_in_stock: sellable, stock_status: sellable ? 1 : 0 }
}
