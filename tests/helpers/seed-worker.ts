// Fixture worker of the Node-driven runs (tests/helpers/workerd.mjs seedState): seeds the demo
// catalogue from inside workerd into the persisted D1/KV the measured workers then open.
// POST /seed?scale=N[&kv=0] (body: the migration statements as a JSON array) applies the migrations
// and starts the seed (kv=0: no KV URL mappings, which local KV writes slowly: minutes at 100,000); POST /seed/continue carries it on. Each request writes slices for about ten
// seconds and answers the counts so far with `done`, so no single request waits long. The seed is
// generated and written one slice at a time: the isolate's memory stays small at any scale.
import { type SeedCounts, seedDemoCatalogueSteps } from '../../scripts/catalogue/seed/write'

interface SeedEnv {
  DB: D1Database
  URL_MAPPINGS: KVNamespace
}

/** The seed in progress in this isolate (one at a time). */
let running: AsyncGenerator<Readonly<SeedCounts>> | null = null
let started = 0
/** The counts after the last step taken (kept across requests: the last step may end a request). */
let last: Readonly<SeedCounts> | null = null

/** Writes slices for about `budgetMs`; answers the counts so far and whether the seed is done. */
async function carryOn(budgetMs: number): Promise<Response> {
  if (!running) return Response.json({ error: 'no seed in progress' }, { status: 409 })
  const until = Date.now() + budgetMs
  while (Date.now() < until) {
    const step = await running.next()
    if (step.done) {
      running = null
      return Response.json({ done: true, ...last, ms: Date.now() - started })
    }
    last = step.value
  }
  return Response.json({ done: false, ...last, ms: Date.now() - started })
}

export default {
  async fetch(req: Request, env: SeedEnv): Promise<Response> {
    const url = new URL(req.url)
    if (url.pathname === '/seed/continue') return carryOn(10_000)
    const statements = (await req.json()) as string[]
    for (const s of statements) await env.DB.prepare(s).run()
    started = Date.now()
    last = null
    running = seedDemoCatalogueSteps(env.DB, env.URL_MAPPINGS, {
      scale: Number(url.searchParams.get('scale') ?? '300'),
      skipKv: url.searchParams.get('kv') === '0',
    })
    return carryOn(10_000)
  },
}
