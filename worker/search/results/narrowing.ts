/**
 * What a statement visits: the postings, word lists and hot columns a search would be narrowed with
 * are read (what the isolate lacks), then narrowQuery lists the products to visit.
 */
import type { SearchPlan } from '../dsl'
import { postingsFor } from '../held/facet-index'
import { heldHotColumns, hotColumnsFor } from '../held/hot-columns'
import type { Vocabulary } from '../held/vocabulary'
import { wordPostingsFor } from '../held/word-postings'
import { narrowingFields, narrowingHotFields, narrowingWords } from '../narrow/leaves'
import { type Narrowing, narrowQuery } from '../narrow/narrow-query'
import { effectiveSort } from '../semantics/results'

/**
 * A narrowed statement visiting at least this many products reads the hot columns it could use
 * (held/hot-columns.ts) before it runs, once per index version: from then on such searches test, sort
 * and count those columns in the isolate. A smaller one is cheap enough as it is.
 */
const HOT_READ_MIN_VISITS = 5000

/**
 * The products a statement of `plan` needs to visit (narrow/), from the field postings, word
 * lists and hot columns the isolate holds, read first when missing; null when nothing narrows it.
 */
export async function narrowing(
  db: D1Database,
  plan: SearchPlan,
  vocab: Vocabulary,
): Promise<Narrowing | null> {
  const fields = narrowingFields(plan.query)
  const held = fields.length > 0 ? await postingsFor(db, fields) : new Map()
  const refs = narrowingWords(plan.query, held, vocab)
  const words = refs.length > 0 ? await wordPostingsFor(db, refs) : new Map()
  const shape = { sort: effectiveSort(plan), aggs: plan.aggs }
  const hotFields = narrowingHotFields(plan.query, shape)
  const hot = heldHotColumns(hotFields)
  const narrow = narrowQuery(plan.query, { fields: held, words, vocab, hot }, undefined, shape)
  if (hot.size === hotFields.length || (narrow?.count ?? 0) < HOT_READ_MIN_VISITS) return narrow
  const read = await hotColumnsFor(db, hotFields)
  if (read.size === hot.size) return narrow
  return narrowQuery(plan.query, { fields: held, words, vocab, hot: read }, undefined, shape)
}
