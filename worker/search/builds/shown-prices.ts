/**
 * The scheduled build of the shown prices (semantics/shown-prices.ts) for products written without
 * the catalogue's tax rules (a back-office edit), and for every product after a change of the tax
 * rules or the currency table (their digest names new fields): it writes the missing numbers and
 * deletes those of any other digest, a bounded amount per run, so the price filter abroad is exact
 * again within a run or two of the scheduled job.
 */
import { baseCurrency, HOME_COUNTRY } from '@shared/config/store'
import type { TaxRuleFields } from '@shared/domain/tax-rules'
import { bumpIndexVersionStatement } from '../held/index-version'
import { withIndexedFinalPrice } from '../semantics/server-prices'
import { SHOWN_PRICE_PREFIX, shownPriceFieldPrefix, shownPriceNumbers } from '../semantics/shown-prices'

/** Products read and written per statement. */
const FILL_BATCH = 200
/** Most products one run prices (the rest wait for the next run). */
const FILL_MOST_PER_RUN = 5_000
/** Rows of an old digest deleted per statement. */
const DELETE_BATCH = 20_000

/** The rows of shown-price fields outside `prefix` (another digest's), as a WHERE clause on `field`. */
const OTHER_DIGESTS = `field >= '${SHOWN_PRICE_PREFIX}' AND field < 'sp/' AND substr(field, 1, length(?1)) <> ?1`

/**
 * Writes the shown prices of products that have none under the rules in force and deletes those of
 * other digests. Answers how many products it priced.
 */
export async function fillShownPrices(db: D1Database, now: number = Date.now()): Promise<number> {
  const rules = (
    await db.prepare('SELECT doc FROM tax_rules ORDER BY id').all<{ doc: string }>()
  ).results.map((r) => JSON.parse(r.doc) as TaxRuleFields)
  const prefix = shownPriceFieldPrefix(rules)
  let changed = false
  for (;;) {
    const res = await db
      .prepare(
        `DELETE FROM search_numbers WHERE (field, value, product_id) IN (SELECT field, value, product_id FROM search_numbers WHERE ${OTHER_DIGESTS} LIMIT ${DELETE_BATCH})`,
      )
      .bind(prefix)
      .run()
    if (!res.meta.changes) break
    changed = true
  }
  // Every priced product has its home price in the base currency: one field tells which lack them.
  const marker = `${prefix}${HOME_COUNTRY}.${baseCurrency()}`
  let priced = 0
  while (priced < FILL_MOST_PER_RUN) {
    const rows = (
      await db
        .prepare(
          `SELECT p.doc AS doc FROM search_numbers n JOIN products p ON p.id = n.product_id
           WHERE n.field = 'final_price'
             AND NOT EXISTS (SELECT 1 FROM search_numbers m WHERE m.product_id = n.product_id AND m.field = ?1)
           LIMIT ${FILL_BATCH}`,
        )
        .bind(marker)
        .all<{ doc: string }>()
    ).results
    if (rows.length === 0) break
    const numbers: [string, number, number][] = []
    for (const row of rows) {
      const doc = withIndexedFinalPrice(JSON.parse(row.doc) as Record<string, unknown>, now)
      for (const [field, value] of shownPriceNumbers(doc, rules, now))
        numbers.push([field, value, Number(doc.id)])
    }
    // Only a document the index prices but that has no price itself prices nothing: not read again.
    if (numbers.length === 0) break
    await db.batch([
      db
        .prepare(
          `INSERT OR IGNORE INTO search_numbers (field, value, product_id)
           SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]') FROM json_each(?1)`,
        )
        .bind(JSON.stringify(numbers)),
    ])
    changed = true
    priced += rows.length
  }
  if (changed) await db.batch([bumpIndexVersionStatement(db)])
  return priced
}
