/**
 * Whether a shown-price field (semantics/shown-prices.ts) is indexed for every priced product: it
 * has as many numbers as `final_price` has. Read once per field and index version in this isolate
 * (two counts over the field's index range), so a listing's request costs no read in the steady
 * state; a write moves the version and the next request reads again.
 */
import { PRICE_FILTER_KEY } from '@shared/config/catalog'
import { indexVersionSeen } from './index-version'

/** Fields remembered at most (zones × currencies of one set of tax rules, with room for a change). */
const MAX_FIELDS = 64

const seen = new Map<string, { version: number; indexed: boolean }>()

/**
 * Is `field` indexed for every product that has a catalogue price, and at which index version was
 * that read (null: always, `final_price`)? A caller whose statement then reads another version asks
 * again (index.ts).
 */
export async function shownPriceIndexed(
  db: D1Database,
  field: string,
): Promise<{ indexed: boolean; version: number | null }> {
  if (field === PRICE_FILTER_KEY) return { indexed: true, version: null }
  const held = seen.get(field)
  const version = indexVersionSeen()
  if (held && version !== null && held.version === version) return held
  const row = await db
    .prepare(
      `SELECT (SELECT COUNT(*) FROM search_numbers WHERE field = ?1) >= (SELECT COUNT(*) FROM search_numbers WHERE field = ?2) AS indexed,
              (SELECT value FROM search_meta WHERE key = 'version') AS ver`,
    )
    .bind(field, PRICE_FILTER_KEY)
    .first<{ indexed: number; ver: number }>()
  const out = { indexed: row?.indexed === 1, version: Number(row?.ver ?? 0) }
  if (seen.size >= MAX_FIELDS) seen.clear()
  seen.set(field, out)
  return out
}
