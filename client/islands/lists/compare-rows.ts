/**
 * The garment rows of the compare table, read from each piece's catalogue product: designer,
 * fabric, care, ready to ship or made to order (with its time), and the sizes in stock (sold-out
 * ones named as such). A row no compared piece has a value for is left out; a piece without the
 * value shows a dash.
 */
import type { Product } from '@shared/schemas/catalog'
import { bagOffer } from './bag-choices'

export interface CompareRow {
  key: string
  label: string
  /** One value per compared piece, in order ('' when the piece has none). */
  values: string[]
}

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '')

/** How soon a piece ships, in words: ready to ship (with its time) or made to order (about N days). */
function makeTime(p: Product): string {
  if ((p.rts_qty ?? 0) > 0 && p.rts_delivery_time) return `Ready to ship: ${p.rts_delivery_time}`
  const days = p.delivery_days
  if (p.type_id === 'virtual' || p.type_id === 'downloadable') return ''
  return days != null && days > 0 ? `Made to order: ships in about ${days} days` : ''
}

/** The sizes (or other options) a configurable piece has, the sold-out ones said so. */
function sizes(p: Product): string {
  const offer = bagOffer(p)
  if (offer.kind === 'sold-out') return 'Sold out'
  if (offer.kind !== 'sizes') return p.type_id === 'configurable' ? '' : 'One size'
  const open = offer.choices.filter((c) => !c.soldOut).map((c) => c.label)
  const out = offer.choices.filter((c) => c.soldOut).map((c) => c.label)
  return out.length ? `${open.join(', ')} (sold out: ${out.join(', ')})` : open.join(', ')
}

const GARMENT_ROWS: [key: string, label: string, read: (p: Product) => string][] = [
  ['designer', 'Designer', (p) => text((p as Record<string, unknown>).designer_name)],
  ['fabric', 'Fabric', (p) => text((p as Record<string, unknown>).fabric)],
  ['care', 'Care', (p) => text((p as Record<string, unknown>).care)],
  ['make', 'Ready to ship or made to order', makeTime],
  ['sizes', 'Sizes in stock', sizes],
]

/** The garment rows for the compared pieces (null: not in the catalogue now). */
export function garmentRows(products: readonly (Product | null)[]): CompareRow[] {
  return GARMENT_ROWS.map(([key, label, read]) => ({
    key,
    label,
    values: products.map((p) => (p ? read(p) : '')),
  })).filter((row) => row.values.some(Boolean))
}
