// Reads made at the same moment share one D1 round trip (worker/platform/d1-reads.ts): every caller
// gets what its own call would have returned, a failing statement fails only its own caller, a read
// issued before a write still reads before it; and the pages a shopper opens most cost the database
// one round trip each in the steady state (the version read goes with the page's data reads; a
// product page's reads that follow the product go with it once the isolate has rendered it).
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import app from '../../../worker/app'
import { coalesceReads } from '../../../worker/platform/d1-reads'
import { countingDb } from '../../helpers/recording-db'

/**
 * The shop's answer to `path` rendered afresh (the output cache off) with `db` as its database, the
 * rest of the environment as in every test.
 */
async function page(path: string, db: D1Database = env.DB): Promise<Response & { html: string }> {
  const ctx = createExecutionContext()
  const res = await app.fetch(
    new Request(`https://shop.test${path}`),
    { ...env, DB: db, OUTPUT_CACHE_ENABLED: 'false' },
    ctx,
  )
  const html = await res.text()
  await waitOnExecutionContext(ctx)
  return Object.assign(res, { html })
}

const VERSION_SQL = "SELECT value FROM search_meta WHERE key = 'version'"

/** A catalogue write as the importer ends one: the version every isolate's catalogue memos are valid for moves on. */
const bumpVersion = () =>
  env.DB.prepare("UPDATE search_meta SET value = value + 1 WHERE key = 'version'").run()

beforeAll(async () => {
  await env.DB.exec(
    'CREATE TABLE IF NOT EXISTS coalesce_probe (id INTEGER PRIMARY KEY, v TEXT); DELETE FROM coalesce_probe; INSERT INTO coalesce_probe (id, v) VALUES (1, "one"), (2, "two")',
  )
})

describe('reads made at the same moment', () => {
  it('reach the database in one batch, each caller getting what its own call returns', async () => {
    const { db: counting, seen } = countingDb(env.DB)
    const db = coalesceReads(counting)
    const [version, one, all, none] = await Promise.all([
      db.prepare(VERSION_SQL).first(),
      db.prepare('SELECT v FROM coalesce_probe WHERE id = ?').bind(1).first<{ v: string }>(),
      db.prepare('SELECT id, v FROM coalesce_probe ORDER BY id').all<{ id: number; v: string }>(),
      db.prepare('SELECT v FROM coalesce_probe WHERE id = ?').bind(99).first(),
    ])
    expect(seen.trips).toBe(1)
    expect(version).toEqual(await env.DB.prepare(VERSION_SQL).first())
    expect(one).toEqual({ v: 'one' })
    expect(all.results).toEqual([
      { id: 1, v: 'one' },
      { id: 2, v: 'two' },
    ])
    expect(all.success).toBe(true)
    expect(none).toBeNull()
    // A column asked for by name, and reads one after another, are answered as D1 answers them.
    expect(await db.prepare('SELECT v FROM coalesce_probe WHERE id = 2').first('v')).toBe('two')
    expect(await db.prepare('SELECT v FROM coalesce_probe WHERE id = 1').first()).toEqual({ v: 'one' })
  })

  it('a statement that fails fails only its own caller', async () => {
    const db = coalesceReads(env.DB)
    const [good, bad, other] = await Promise.allSettled([
      db.prepare('SELECT v FROM coalesce_probe WHERE id = 1').first(),
      db.prepare('SELECT nope FROM no_such_table').first(),
      db.prepare('SELECT COUNT(*) AS n FROM coalesce_probe').all(),
    ])
    expect(good).toEqual({ status: 'fulfilled', value: { v: 'one' } })
    expect(bad.status).toBe('rejected')
    expect(String((bad as PromiseRejectedResult).reason)).toMatch(/no_such_table/)
    expect(other.status === 'fulfilled' && other.value.results).toEqual([{ n: 2 }])
  })

  it('a read issued before a write reads before it; a batch of reads joins the waiting reads', async () => {
    const { db: counting, seen } = countingDb(env.DB)
    const db = coalesceReads(counting)
    const before = db.prepare('SELECT v FROM coalesce_probe WHERE id = 1').first<{ v: string }>()
    await db.prepare('UPDATE coalesce_probe SET v = ? WHERE id = 1').bind('uno').run()
    expect(await before).toEqual({ v: 'one' })
    const after = await db.prepare('SELECT v FROM coalesce_probe WHERE id = 1').first()
    expect(after).toEqual({ v: 'uno' })
    await env.DB.prepare("UPDATE coalesce_probe SET v = 'one' WHERE id = 1").run()

    const trips = seen.trips
    const [batched, single] = await Promise.all([
      db.batch([
        db.prepare('SELECT v FROM coalesce_probe WHERE id = 1'),
        db.prepare('WITH x AS (SELECT 2 AS id) SELECT v FROM coalesce_probe JOIN x USING (id)'),
      ]),
      db.prepare(VERSION_SQL).first(),
    ])
    expect(seen.trips - trips).toBe(1)
    expect(batched.map((r) => r.results)).toEqual([[{ v: 'one' }], [{ v: 'two' }]])
    expect(single).not.toBeNull()
  })
})

describe('round trips to the database per page', () => {
  // Reads of this isolate's memos are warm after the first request: the steady state is measured.
  const pages = [
    ['/', 1],
    ['/c/sarees', 1],
    ['/c/sarees?sort=price-asc', 1],
    ['/search?q=silk', 1],
  ] as const
  for (const [path, most] of pages) {
    it(`${path}: at most ${most}`, async () => {
      await page(path)
      const { db, seen } = countingDb(env.DB)
      expect((await page(path, db)).status).toBe(200)
      expect(seen.trips).toBeLessThanOrEqual(most)
    })
  }

  it("a product page: its follow-up reads join the product's round trip once the isolate knows them", async () => {
    const { results } = await env.DB.prepare(
      "SELECT sku, slug FROM products WHERE type_id = 'configurable' AND status = 1 AND visibility = 4 LIMIT 1",
    ).all<{ sku: string; slug: string }>()
    const path = `/p/${encodeURIComponent(results[0]?.sku ?? '')}/${results[0]?.slug}`
    await page(path)
    const { db, seen, calls } = countingDb(env.DB)
    const res = await page(path, db)
    expect(res.status).toBe(200)
    expect(seen.trips, calls.join('\n')).toBe(1)
    // The versions, the reviews, the made-to-order listing, the product with its stock (one
    // statement) and the recommendations' pieces (the engine's page read): five statements.
    for (const read of [
      'SELECT (SELECT value FROM sear',
      'FROM reviews',
      'FROM made_to_order',
      'WITH d AS',
      'SELECT (SELECT json_group_arra',
    ])
      expect(calls[0]).toContain(read)
    expect(calls[0]?.split(' | ')).toHaveLength(5)
  })

  it('a product whose links changed since the isolate last rendered it: its new links shown at once', async () => {
    const { results } = await env.DB.prepare(
      "SELECT sku, slug FROM products WHERE type_id = 'configurable' AND status = 1 AND visibility = 4 LIMIT 2 OFFSET 1",
    ).all<{ sku: string; slug: string }>()
    const [row, other] = results
    const path = `/p/${encodeURIComponent(row?.sku ?? '')}/${row?.slug}`
    await page(path)
    // The product now links another piece as its look (a catalogue write, the version bumped).
    const linked =
      (await env.DB.prepare('SELECT doc FROM products WHERE sku = ?').bind(row?.sku).first<{ doc: string }>())
        ?.doc ?? '{}'
    const doc = JSON.parse(linked)
    doc.product_links = [
      { sku: row?.sku, link_type: 'crosssell', linked_product_sku: other?.sku, position: 0 },
    ]
    await env.DB.prepare('UPDATE products SET doc = ? WHERE sku = ?')
      .bind(JSON.stringify(doc), row?.sku)
      .run()
    await bumpVersion()
    try {
      // The first page after the write: its follow-up reads were started with the old links, and
      // are made again with the new ones.
      const res = await page(path)
      expect(res.status).toBe(200)
      expect(res.html).toContain('Complete the look')
      expect(res.html).toContain(`data-sku="${other?.sku}"`)
      // The next one knows the new links: one round trip again.
      const { db, seen, calls } = countingDb(env.DB)
      expect((await page(path, db)).html).toContain(`data-sku="${other?.sku}"`)
      expect(seen.trips, calls.join('\n')).toBe(1)
    } finally {
      await env.DB.prepare('UPDATE products SET doc = ? WHERE sku = ?').bind(linked, row?.sku).run()
      await bumpVersion()
    }
  })

  it("a grouped or bundle product page: its pieces' stock and pictures join the product's round trip", async () => {
    for (const type of ['grouped', 'bundle']) {
      const row = await env.DB.prepare(
        'SELECT sku, slug FROM products WHERE type_id = ? AND status = 1 AND visibility = 4 LIMIT 1',
      )
        .bind(type)
        .first<{ sku: string; slug: string }>()
      const path = `/p/${encodeURIComponent(row?.sku ?? '')}/${row?.slug}`
      await page(path)
      const { db, seen } = countingDb(env.DB)
      expect((await page(path, db)).status).toBe(200)
      expect(seen.trips, type).toBe(1)
    }
  })
})

describe('filter values no filter offers', () => {
  it('never reach the search: a category URL naming made-up values asks the database what the page without them asks', async () => {
    // The page without filters, warm: its result set is held, so it reads the page's documents.
    await page('/c/sarees')
    const plain = countingDb(env.DB)
    expect((await page('/c/sarees', plain.db)).status).toBe(200)
    // Each spelling of made-up values is new to the isolate, as an attacker's would be.
    for (const made of ['zz-1,zz-2', 'nope', Array.from({ length: 40 }, (_, i) => `v${i}`).join(',')]) {
      const probe = countingDb(env.DB)
      const res = await page(`/c/sarees?color=${made}&size=${made}`, probe.db)
      expect(res.status).toBe(200)
      expect(res.html).not.toContain('zz-1')
      expect(probe.calls).toEqual(plain.calls)
    }
  })
})
