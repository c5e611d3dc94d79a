/**
 * Changing many products at once: a CSV file of prices, special prices and stock (./bulk-csv.ts),
 * or an action on products picked from the list (publish, unpublish, add to a category, a price
 * change by a percentage). Both are planned first and applied only when confirmed:
 * - The plan (the dry run) reads the catalogue, refuses the whole request at its first bad row
 *   (its line and why), and lists what would change, in rupees; it writes nothing.
 * - The plan carries a fingerprint of what it shows (each product's revision and change). Applying
 *   plans again and goes ahead only when the fingerprint is the one the operator confirmed, so
 *   what is written is what was shown; a product saved by someone else meanwhile makes it a 409.
 * - Applying writes every changed product through the catalogue's one writer in one D1 batch
 *   (document, search rows, catalogue version, revision, stock, audit rows), each product behind
 *   its compare-and-set, then purges the pages that show them. Applying a plan twice changes
 *   nothing the second time: rows equal to the catalogue are not changes.
 * - A configurable's price moves its sizes by the same amount (the catalogue's rule,
 *   ./catalogue.ts); a size's row sets that size's stock only.
 */
import { baseCurrency } from '@shared/config/store'
import { formatMinorForOperator } from '@shared/domain/currency'
import { finalPrice } from '@shared/domain/price-window'
import type { Product } from '@shared/schemas/catalog'
import { HTTPException } from 'hono/http-exception'
import { productMapping, urlMappingKey } from '../catalog/url-map'
import { categoryCountStatement, productDocumentStatements, stockQtyStatement } from '../catalog/writer'
import { purgeCacheTags, purgedCount } from '../platform/cache/purge'
import { fail } from '../platform/http'
import { auditStatement } from './audit'
import { revisionGuard, withLiveStock } from './authoring'
import { CsvRefusal, type PriceRow, readPriceFile } from './bulk-csv'
import { patchedDocument } from './catalogue'
import { EVERY_PAGE } from './categories'
import { addressesTaken, type Refusal } from './product-address'

/**
 * The most products one file or action changes: each is about fourteen statements of the one
 * batch, and a request may run at most 1,000 queries (the batch, the reads and the purges).
 */
export const MAX_CHANGED_PRODUCTS = 50

type Doc = Record<string, unknown>

/** One product's change: the document before and after, its stock moves, and the change in words. */
interface Change {
  id: number
  sku: string
  name: string
  revision: number
  before: Doc
  after: Doc
  stock: { sku: string; from: number; to: number }[]
  words: string[]
  /** The dispatcher's address: written when published, removed when unpublished. */
  address?: 'put' | 'delete'
}

export interface Plan {
  changes: Change[]
  /** Products picked but left out: publishing one whose address another holds. */
  refused: Refusal[]
  /** The rows of the file, or the products picked. */
  rows: number
  fingerprint: string
}

interface Stored {
  id: number
  sku: string
  doc: Doc
  revision: number
}

const rupees = (amount: unknown) =>
  typeof amount === 'number' && Number.isFinite(amount)
    ? formatMinorForOperator(Math.round(amount * 100), baseCurrency())
    : 'none'

/** The change of one product in words (prices in rupees, en-IN grouping). */
function changeWords(before: Doc, after: Doc, stock: Change['stock']): string[] {
  const words: string[] = []
  const sizes = Array.isArray(after.configurable_children) ? after.configurable_children.length : 0
  const follow = sizes > 0 ? ` (its ${sizes} sizes by the same amount)` : ''
  if (before.price !== after.price)
    words.push(`Price ${rupees(before.price)} → ${rupees(after.price)}${follow}`)
  if ((before.special_price ?? null) !== (after.special_price ?? null))
    words.push(`Special price ${rupees(before.special_price)} → ${rupees(after.special_price)}`)
  const window = (d: Doc) => `${d.special_from_date ?? '…'} to ${d.special_to_date ?? '…'}`
  if (after.special_price != null && window(before) !== window(after))
    words.push(`Special price from ${window(after)}`)
  if (before.status !== after.status) words.push(after.status === 1 ? 'Published' : 'Unpublished (a draft)')
  const cats = (d: Doc) => (Array.isArray(d.category) ? d.category : []) as { name?: string }[]
  for (const c of cats(after).slice(cats(before).length)) words.push(`Added to ${c.name ?? 'a category'}`)
  for (const s of stock) words.push(`Stock of ${s.sku}: ${s.from} → ${s.to}`)
  return words
}

async function fingerprintOf(changes: Change[], refused: Refusal[]): Promise<string> {
  const shown = [changes.map((c) => [c.id, c.revision, c.words]), refused.map((r) => [r.id, r.why])]
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify(shown)))
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')
}

/** The products of `where` with their revision, and the live stock of their skus. */
async function load(db: D1Database, where: string, values: (string | number)[]) {
  const [products, stock] = await db.batch([
    db
      .prepare(
        `SELECT p.id, p.sku, p.doc, COALESCE(r.revision, 0) AS revision FROM products p
         LEFT JOIN product_revisions r ON r.product_id = p.id
         WHERE ${where} IN (SELECT value FROM json_each(?1))`,
      )
      .bind(JSON.stringify(values)),
    db
      .prepare(
        `SELECT i.sku, i.parent_sku, i.qty FROM inventory i
         WHERE i.sku IN (SELECT value FROM json_each(?1)) OR i.parent_sku IN (SELECT value FROM json_each(?1))
           OR i.product_id IN (SELECT value FROM json_each(?1))
           OR i.parent_sku IN (SELECT sku FROM products WHERE ${where.replace('p.', '')} IN (SELECT value FROM json_each(?1)))`,
      )
      .bind(JSON.stringify(values)),
  ])
  const rows = (products?.results ?? []) as { id: number; sku: string; doc: string; revision: number }[]
  return {
    products: rows.map((r) => ({ ...r, doc: JSON.parse(r.doc) as Doc })) as Stored[],
    stock: ((stock?.results ?? []) as { sku: string; parent_sku: string | null; qty: number }[]).map((s) => ({
      ...s,
      qty: Number(s.qty),
    })),
  }
}

/** Finishes a plan: live stock into each document, the words, what is unchanged, the fingerprint. */
async function finish(
  drafts: Map<number, { stored: Stored; after: Doc; stock: Change['stock'] }>,
  live: Record<string, number>,
  rows: number,
  refused: Refusal[] = [],
): Promise<Plan> {
  const changes: Change[] = []
  for (const { stored, after, stock } of drafts.values()) {
    const moved = stock.filter((s) => s.from !== s.to)
    const next = { ...live, ...Object.fromEntries(moved.map((s) => [s.sku, s.to])) }
    const words = changeWords(stored.doc, after, moved)
    if (words.length === 0) continue
    changes.push({
      id: stored.id,
      sku: stored.sku,
      name: String(stored.doc.name ?? stored.sku),
      revision: stored.revision,
      before: stored.doc,
      after: withLiveStock(after as unknown as Product, next) as unknown as Doc,
      stock: moved,
      words,
      address:
        stored.doc.status !== 1 && after.status === 1
          ? 'put'
          : stored.doc.status === 1 && after.status !== 1
            ? 'delete'
            : undefined,
    })
  }
  if (changes.length > MAX_CHANGED_PRODUCTS)
    fail(
      400,
      `Invalid bulk change: it changes ${changes.length} products; at most ${MAX_CHANGED_PRODUCTS} at a time (split the file or the selection)`,
    )
  return { changes, refused, rows, fingerprint: await fingerprintOf(changes, refused) }
}

/** The file's message for an operator: the line and why, beside the file field. */
function refuseFile(message: string): never {
  throw new HTTPException(400, {
    message: `The file was not read: ${message}. Nothing was changed.`,
    cause: { fields: { csv: message } },
  })
}

/** The patch a product row asks for, and whether it gives nothing to change. */
function rowPatch(row: PriceRow) {
  const patch: Record<string, unknown> = {}
  if (row.price !== undefined) patch.price = row.price / 100
  if (row.special !== undefined) {
    patch.special_price = row.special === null ? null : row.special / 100
    patch.special_from_date = row.special === null ? null : (row.from ?? null)
    patch.special_to_date = row.special === null ? null : (row.to ?? null)
  } else {
    if (row.from !== undefined) patch.special_from_date = row.from
    if (row.to !== undefined) patch.special_to_date = row.to
  }
  return patch
}

/** The dry run of a CSV file: what it would change, or a 400 naming its first bad line. */
export async function planFile(db: D1Database, text: string, now: number): Promise<Plan> {
  let rows: PriceRow[]
  try {
    rows = readPriceFile(text)
  } catch (err) {
    if (err instanceof CsvRefusal) refuseFile(err.message)
    throw err
  }
  const skus = rows.map((r) => r.sku)
  const found = await load(db, 'p.sku', skus)
  const live = Object.fromEntries(found.stock.map((s) => [s.sku, s.qty]))
  const parentOf = new Map(
    found.stock.filter((s) => s.parent_sku).map((s) => [s.sku, s.parent_sku as string]),
  )
  const parents = [...new Set(rows.map((r) => parentOf.get(r.sku)).filter((s): s is string => !!s))]
  const more = parents.length ? await load(db, 'p.sku', parents) : { products: [], stock: [] }
  const bySku = new Map([...found.products, ...more.products].map((p) => [p.sku, p]))
  const drafts = new Map<number, { stored: Stored; after: Doc; stock: Change['stock'] }>()
  const draft = (p: Stored) => {
    const d = drafts.get(p.id) ?? { stored: p, after: p.doc, stock: [] }
    drafts.set(p.id, d)
    return d
  }
  for (const row of rows) {
    const product = bySku.get(row.sku)
    const parentSku = parentOf.get(row.sku)
    if (!product && !parentSku) refuseFile(`line ${row.line}: no product or size has the sku ${row.sku}`)
    if (!product) {
      // A size of a configurable: its stock only.
      if (row.price !== undefined || (row.special !== undefined && row.special !== null))
        refuseFile(
          `line ${row.line}: ${row.sku} is a size of ${parentSku}; its price follows the product's, so change the row of ${parentSku}`,
        )
      const parent = bySku.get(parentSku as string)
      if (parent && row.qty !== undefined)
        draft(parent).stock.push({ sku: row.sku, from: live[row.sku] ?? 0, to: row.qty })
      continue
    }
    const d = draft(product)
    const patch = rowPatch(row)
    if (Object.keys(patch).length > 0) {
      try {
        const next = patchedDocument(d.after, patch as never, now)
        // Only a real difference is a change (a file brought back as exported changes nothing).
        const same = ['price', 'special_price', 'special_from_date', 'special_to_date'].every(
          (k) => (d.after[k] ?? null) === (next[k] ?? null),
        )
        if (!same) d.after = next
      } catch (err) {
        if (err instanceof HTTPException)
          refuseFile(`line ${row.line}: ${err.message.replace(/^Invalid product change: /, '')}`)
        throw err
      }
    }
    if (row.qty !== undefined) {
      if (live[row.sku] === undefined)
        refuseFile(
          `line ${row.line}: ${row.sku} keeps no stock of its own${product.doc.type_id === 'configurable' ? '; set the stock on the rows of its sizes' : ''}`,
        )
      d.stock.push({ sku: row.sku, from: live[row.sku] ?? 0, to: row.qty })
    }
  }
  return finish(
    drafts,
    { ...live, ...Object.fromEntries(more.stock.map((s) => [s.sku, s.qty])) },
    rows.length,
  )
}

/** An action on products picked from the list. */
export type BulkAction =
  | { kind: 'publish' | 'unpublish' }
  | { kind: 'category'; categoryId: number }
  | { kind: 'percent'; percent: number }

/** A price moved by `percent`, to the nearest rupee. */
const byPercent = (price: number, percent: number) => Math.round(price * (1 + percent / 100))

/** The dry run of an action on the products `ids`. */
export async function planAction(env: Env, ids: number[], action: BulkAction, now: number): Promise<Plan> {
  const db = env.DB
  const found = await load(db, 'p.id', ids)
  if (found.products.length !== ids.length) fail(404, 'A product picked no longer exists; search again.')
  const category =
    action.kind === 'category'
      ? await db
          .prepare('SELECT id, name, slug FROM categories WHERE id = ?1')
          .bind(action.categoryId)
          .first<{ id: number; name: string; slug: string }>()
      : null
  if (action.kind === 'category' && !category)
    throw new HTTPException(400, {
      message: 'Invalid bulk change: that category does not exist',
      cause: { fields: { category_id: 'that category does not exist' } },
    })
  const drafts = new Map<number, { stored: Stored; after: Doc; stock: Change['stock'] }>()
  const refused = action.kind === 'publish' ? await addressesTaken(env, found.products) : []
  for (const p of found.products) {
    if (refused.some((r) => r.id === p.id)) continue
    let after: Doc = p.doc
    if (action.kind === 'publish' || action.kind === 'unpublish')
      after = patchedDocument(p.doc, { status: action.kind === 'publish' ? 1 : 2 }, now)
    else if (action.kind === 'percent') {
      const price = byPercent(Number(p.doc.price ?? 0), action.percent)
      const special = p.doc.special_price
      if (price <= 0) fail(400, `Invalid bulk change: ${p.sku} would cost nothing or less`)
      try {
        after = patchedDocument(
          p.doc,
          typeof special === 'number'
            ? { price, special_price: byPercent(special, action.percent) }
            : { price },
          now,
        )
      } catch (err) {
        if (err instanceof HTTPException) fail(400, `Invalid bulk change: ${p.sku}: ${err.message}`)
        throw err
      }
    } else if (category) {
      const ids = Array.isArray(p.doc.category_ids) ? p.doc.category_ids.map(Number) : []
      if (!ids.includes(category.id)) {
        after = structuredClone(p.doc)
        after.category_ids = [...ids, category.id]
        after.category = [
          ...(Array.isArray(p.doc.category) ? p.doc.category : []),
          { category_id: category.id, name: category.name, slug: category.slug },
        ]
        after.final_price = finalPrice(after, now)
      }
    }
    drafts.set(p.id, { stored: p, after, stock: [] })
  }
  return finish(drafts, Object.fromEntries(found.stock.map((s) => [s.sku, s.qty])), ids.length, refused)
}

/**
 * Applies a plan the operator confirmed (`fingerprint` from its dry run): one batch, each product
 * behind its compare-and-set, then the addresses and the purge. Answers what was applied.
 */
export async function applyPlan(env: Env, plan: Plan, confirmed: string, actor: string, now: number) {
  if (plan.fingerprint !== confirmed)
    throw new HTTPException(409, {
      message:
        'The catalogue changed since this dry run (or the file did): nothing was applied. Run the dry run again and check its changes.',
    })
  const refused = plan.refused.map(({ sku, name, url, why }) => ({ sku, name, url, why }))
  if (plan.changes.length === 0) return { applied: 0, refused, purged: 0 }
  const db = env.DB
  const statements: D1PreparedStatement[] = []
  for (const c of plan.changes) {
    statements.push(
      revisionGuard(db, c.id, c.revision, c.sku),
      ...productDocumentStatements(db, c.after as unknown as Product),
      ...c.stock.map((s) => stockQtyStatement(db, s.sku, s.to)),
      auditStatement(
        db,
        {
          actor,
          action: 'product.bulk',
          target: `product:${c.sku}`,
          before: pick(c.before),
          after: { ...pick(c.after), stock: c.stock },
        },
        now,
      ),
    )
  }
  const categories = [
    ...new Set(
      plan.changes.flatMap((c) =>
        [c.before, c.after].flatMap((d) => (Array.isArray(d.category_ids) ? d.category_ids.map(Number) : [])),
      ),
    ),
  ].filter(Number.isSafeInteger)
  // Publishing, unpublishing and adding to a category change what the menu counts (on every page).
  const recount = plan.changes.some((c) => c.address || c.words.some((w) => w.startsWith('Added to')))
  if (recount) statements.push(categoryCountStatement(db, categories))
  try {
    await db.batch(statements)
  } catch (err) {
    if (/stale_edit|CHECK constraint failed/.test(String(err)))
      fail(
        409,
        'A product of this change was saved by someone else meanwhile: nothing was applied. Run the dry run again.',
      )
    throw err
  }
  for (const c of plan.changes) {
    const [key, mapping] = productMapping(c.after as unknown as Product)
    if (c.address === 'put') await env.URL_MAPPINGS.put(key, JSON.stringify(mapping))
    if (c.address === 'delete') await env.URL_MAPPINGS.delete(urlMappingKey(String(c.before.url_path ?? '')))
  }
  const tags = [
    ...plan.changes.map((c) => `P${c.sku}`),
    ...categories.map((id) => `C${id}`),
    ...(recount ? EVERY_PAGE : ['search']),
  ]
  return { applied: plan.changes.length, refused, purged: purgedCount(await purgeCacheTags(env, tags)) }
}

/** What the audit row keeps of a document. */
const pick = (d: Doc) => ({
  price: d.price ?? null,
  special_price: d.special_price ?? null,
  status: d.status ?? null,
  category_ids: d.category_ids ?? null,
})
