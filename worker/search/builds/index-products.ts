/**
 * Statements that (re)build one product's rows in the search index (migration 0002). The seeder,
 * the importer and any product write call this and run the statements in the same D1 batch as the
 * `products` write, so the index never drifts from the documents.
 */
import type { TaxRuleFields } from '@shared/domain/tax-rules'
import type { Product } from '@shared/schemas/catalog'
import { bumpIndexVersionStatement } from '../held/index-version'
import { extractFacts, HOT_COLUMNS, hotValues } from '../semantics/facts'
import { withIndexedFinalPrice } from '../semantics/server-prices'
import { shownPriceNumbers } from '../semantics/shown-prices'

/** Statements deleting a product's index rows (used before a rebuild, or when a product is deleted). */
function deleteProductIndexStatements(db: D1Database, productId: number): D1PreparedStatement[] {
  return [
    db.prepare('DELETE FROM search_terms WHERE product_id = ?1').bind(productId),
    db.prepare('DELETE FROM search_numbers WHERE product_id = ?1').bind(productId),
    db.prepare('DELETE FROM search_tokens WHERE product_id = ?1').bind(productId),
    db.prepare('DELETE FROM search_docs WHERE product_id = ?1').bind(productId),
    bumpIndexVersionStatement(db),
  ]
}

/**
 * Statements that delete and rebuild a product's search-index rows (run them in a D1 batch). A
 * product (or variant) without a final_price is indexed with the derived one, so the price filter
 * and the price sort find it; a grouped set is indexed with its listing price (its cheapest piece:
 * withIndexedFinalPrice). With the catalogue's tax rules, the prices each shopper is shown are
 * indexed too (semantics/shown-prices.ts); a write without them leaves the product to the
 * scheduled build (builds/shown-prices.ts), and the price filter falls back to the catalogue price
 * for it until then.
 */
export function indexProductStatements(
  db: D1Database,
  product: Product | Record<string, unknown>,
  now: number = Date.now(),
  taxRules?: readonly TaxRuleFields[],
): D1PreparedStatement[] {
  const doc = withIndexedFinalPrice(product as Record<string, unknown>, now)
  const id = Number(doc.id)
  if (!Number.isSafeInteger(id))
    throw new Error(`Cannot index a product without a numeric id (sku ${String(doc.sku)})`)
  const facts = extractFacts(doc, 'product')
  const terms: [string, string][] = []
  for (const [field, values] of facts.terms) for (const v of values) terms.push([field, v])
  const numbers: [string, number][] = []
  for (const [field, values] of facts.numbers) for (const v of values) numbers.push([field, v])
  if (taxRules) numbers.push(...shownPriceNumbers(doc, taxRules, now))
  const tokens: [string, string, number][] = []
  for (const [field, map] of facts.tokens) for (const [t, pos] of map) tokens.push([t, field, pos])
  const stmts = deleteProductIndexStatements(db, id).slice(0, 4)
  stmts.push(
    db
      .prepare(
        `INSERT INTO search_docs (product_id, sku, type_id, ${HOT_COLUMNS.map((h) => h.column).join(', ')})
         VALUES (?1, ?2, ?3, ${HOT_COLUMNS.map((_, i) => `?${i + 4}`).join(', ')})`,
      )
      .bind(id, String(doc.sku ?? ''), String(doc.type_id ?? ''), ...hotValues(doc)),
    db
      .prepare(
        `INSERT OR IGNORE INTO search_terms (field, value, product_id)
         SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), ?1 FROM json_each(?2)`,
      )
      .bind(id, JSON.stringify(terms)),
    db
      .prepare(
        `INSERT OR IGNORE INTO search_numbers (field, value, product_id)
         SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), ?1 FROM json_each(?2)`,
      )
      .bind(id, JSON.stringify(numbers)),
    db
      .prepare(
        `INSERT OR IGNORE INTO search_tokens (token, field, product_id, pos)
         SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), ?1, json_extract(value, '$[2]')
         FROM json_each(?2)`,
      )
      .bind(id, JSON.stringify(tokens)),
    bumpIndexVersionStatement(db),
  )
  return stmts
}
