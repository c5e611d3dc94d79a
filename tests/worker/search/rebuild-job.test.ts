// The scheduled rebuild: a back-office product edit drops the persisted postings and the pre-built
// listings and vocabulary (their triggers), and the Cron job builds them again from the index, so
// no shopper's request has to group the terms.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import worker from '../../../worker/index'
import { clearAllMemos } from '../../../worker/platform/memo'
import { facetPostingsStatements } from '../../../worker/search/builds/catalogue-build'
import { indexProductStatements } from '../../../worker/search/builds/index-products'
import { MAX_FACET_VALUES, readGaps } from '../../../worker/search/held/stored-builds'
import { readPrebuiltVocabulary } from '../../../worker/search/held/vocabulary'
import { admin, operator } from '../admin/operator'
import { generatedPoints } from './generated-runs'

/** Runs every scheduled job once, the way a Cron Trigger does, and waits for them. */
async function cron() {
  const pending: Promise<unknown>[] = []
  const ctx = { waitUntil: (p: Promise<unknown>) => pending.push(p), passThroughOnException() {} }
  worker.scheduled(
    { scheduledTime: Date.now(), cron: '*/5 * * * *', noRetry() {} } as ScheduledController,
    env,
    ctx as unknown as ExecutionContext,
  )
  await Promise.all(pending)
}

const count = async (sql: string) => (await env.DB.prepare(sql).first<{ n: number }>())?.n ?? 0

/** Every field's postings as stored, and as grouped from search_terms now. */
async function postingsVersusTerms() {
  const { results: stored } = await env.DB.prepare(
    'SELECT field, value, n, id_sum, gaps FROM search_postings ORDER BY field, value',
  ).all<{ field: string; value: string; n: number; id_sum: number; gaps: string }>()
  const { results: terms } = await env.DB.prepare(
    `SELECT t.field AS field, t.value AS value, json_group_array(t.product_id) AS ids FROM search_terms t
     WHERE t.field IN (SELECT field FROM search_terms GROUP BY field HAVING COUNT(DISTINCT value) <= ${MAX_FACET_VALUES})
     GROUP BY t.field, t.value ORDER BY t.field, t.value`,
  ).all<{ field: string; value: string; ids: string }>()
  return {
    stored: stored.map((r) => [r.field, r.value, readGaps(r.gaps, r.n, r.id_sum)]),
    terms: terms.map((r) => [r.field, r.value, (JSON.parse(r.ids) as number[]).sort((a, b) => a - b)]),
  }
}

describe('rebuild-search-postings (scheduled)', () => {
  it('builds again what a back-office edit dropped; postings equal the terms after the job', async () => {
    expect(await count("SELECT COUNT(*) AS n FROM search_posting_fields WHERE field = ''")).toBe(1)
    const product = await env.DB.prepare(
      'SELECT id, price FROM products WHERE visibility = 4 AND status = 1 AND price > 0 ORDER BY id LIMIT 1',
    ).first<{ id: number; price: number }>()
    const staff = await operator('staff')
    const res = await admin(staff, `/api/products/${product?.id}`, {
      body: { price: (product?.price ?? 0) + 1234, visibility: 2 },
    })
    expect(res.status, res.text).toBe(200)
    // The edit re-indexed the product: every build is gone until the job runs.
    expect(await count('SELECT COUNT(*) AS n FROM search_posting_fields')).toBe(0)
    expect(await count('SELECT COUNT(*) AS n FROM search_listings')).toBe(0)
    expect(await count('SELECT COUNT(*) AS n FROM search_vocabulary')).toBe(0)

    await cron()

    const { stored, terms } = await postingsVersusTerms()
    expect(stored.length).toBeGreaterThan(10)
    expect(stored).toEqual(terms)
    expect(await count("SELECT COUNT(*) AS n FROM search_listings WHERE cats <> ''")).toBeGreaterThan(3)
    clearAllMemos()
    expect(await readPrebuiltVocabulary(env.DB)).not.toBeNull()
    // The edited price is in the rebuilt postings of the price field.
    const price = String((product?.price ?? 0) + 1234)
    expect(
      stored.some(
        ([f, v, ids]) => f === 'price' && v === price && (ids as number[]).includes(product?.id as number),
      ),
    ).toBe(true)
  })

  it('leaves a present build alone (nothing is rewritten)', async () => {
    await cron()
    // A mark only a rebuild would erase.
    await env.DB.prepare("UPDATE search_listings SET max_score = -7 WHERE cats = ''").run()
    await cron()
    expect(await count("SELECT COUNT(*) AS n FROM search_listings WHERE cats = '' AND max_score = -7")).toBe(
      1,
    )
  })

  it('a build run statement by statement with a product write between any two never leaves a partial build a reader would use', async () => {
    const row = await env.DB.prepare(
      "SELECT doc FROM products WHERE type_id = 'configurable' AND status = 1 ORDER BY id LIMIT 1",
    ).first<{ doc: string }>()
    const original = JSON.parse(row?.doc ?? '{}') as Record<string, unknown> & { id: number }
    const statements = facetPostingsStatements(env.DB)
    // Every cut runs the whole build again (statements² batches): the default tier walks a spread
    // of cuts, the first and last included; `npm run soak` walks every one.
    for (const cut of generatedPoints(statements.length, 4)) {
      // A product re-indexed with a colour no product had (a back-office edit) between statement
      // `cut` and the next one.
      const doc = { ...original, color: 990_000 + cut, color_options: [990_000 + cut] }
      for (const [i, statement] of statements.entries()) {
        await env.DB.batch([statement])
        if (i === cut) await env.DB.batch(indexProductStatements(env.DB, doc))
      }
      const built = await count("SELECT COUNT(*) AS n FROM search_posting_fields WHERE field = ''")
      if (built === 1) {
        // Claimed complete: then it is exactly the terms of now, the new colour included.
        const { stored, terms } = await postingsVersusTerms()
        expect(stored, `cut after statement ${cut}`).toEqual(terms)
        expect(stored.some(([f, v]) => f === 'color' && v === String(990_000 + cut))).toBe(true)
      }
      // The vocabulary is used only when its parts add up to the closing row.
      clearAllMemos()
      const vocab = await readPrebuiltVocabulary(env.DB)
      if (vocab) {
        const { results } = await env.DB.prepare(
          "SELECT COUNT(*) AS n FROM (SELECT DISTINCT field, token FROM search_tokens WHERE field <> '')",
        ).all<{ n: number }>()
        expect([...vocab.vocab.values()].reduce((n, list) => n + list.length, 0)).toBe(results[0]?.n)
      }
    }
    // Run to the end with no write in between, the build is whole again.
    for (const statement of statements) await env.DB.batch([statement])
    expect(await count("SELECT COUNT(*) AS n FROM search_posting_fields WHERE field = ''")).toBe(1)
    const { stored, terms } = await postingsVersusTerms()
    expect(stored).toEqual(terms)
  }, 120_000)
})
