// Fixture worker of the Node-driven runs (tests/helpers/workerd.mjs seedState): seeds the demo
// catalogue from inside workerd (POST /seed?scale=N with the migration statements as a JSON
// array), into the persisted D1/KV the measured workers then open. The seed is generated and
// written one slice at a time, so the isolate's memory stays small at any scale. The answer is
// NDJSON: a line of counts so far after every slice (a long seed keeps the connection busy), then
// `{"done":true,…}` with what was written (products, variants, statements, SQL bytes, URL
// mappings), or `{"error":…}`.
import { seedDemoCatalogue } from '../../scripts/catalogue/seed/write'

interface SeedEnv {
  DB: D1Database
  URL_MAPPINGS: KVNamespace
}

export default {
  async fetch(req: Request, env: SeedEnv, ctx: ExecutionContext): Promise<Response> {
    const url = new URL(req.url)
    const statements = (await req.json()) as string[]
    for (const s of statements) await env.DB.prepare(s).run()
    const scale = Number(url.searchParams.get('scale') ?? '300')
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>()
    const writer = writable.getWriter()
    const encoder = new TextEncoder()
    const line = (value: unknown) => writer.write(encoder.encode(`${JSON.stringify(value)}\n`))
    const started = Date.now()
    ctx.waitUntil(
      (async () => {
        try {
          const counts = await seedDemoCatalogue(env.DB, env.URL_MAPPINGS, {
            scale,
            onStep: (c) => void line({ ...c, ms: Date.now() - started }),
          })
          await line({ done: true, ...counts, ms: Date.now() - started })
        } catch (err) {
          await line({ error: err instanceof Error ? (err.stack ?? err.message) : String(err) })
        } finally {
          await writer.close()
        }
      })(),
    )
    return new Response(readable, { headers: { 'content-type': 'application/x-ndjson' } })
  },
}
