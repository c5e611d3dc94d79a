/**
 * The exact-match lookup query (products by sku, categories by slug, reviews of a product, …) in
 * the catalogue search DSL. Kept apart from the listing builder (./search-query) so a page that
 * only looks documents up does not load the listing rules.
 */

export type TermValue = string | number | boolean

/** A query matching documents whose `field` is one of `values`, with any extra must-clauses. */
export function termsQuery(
  field: string,
  values: TermValue[],
  extra: Record<string, unknown>[] = [],
): Record<string, unknown> {
  return { query: { bool: { filter: { bool: { must: [{ terms: { [field]: values } }, ...extra] } } } } }
}
