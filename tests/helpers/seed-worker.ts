// Fixture worker of the Node-driven runs (tests/helpers/workerd.mjs seedState): seeds the demo
// catalogue from inside workerd (POST /seed?scale=N with the migration statements as a JSON
// array), into the persisted D1/KV the measured workers then open.
import { seedDemoCatalogue } from '../../scripts/catalogue/seed/write'

interface SeedEnv {
  DB: D1Database
  URL_MAPPINGS: KVNamespace
}

export default {
  async fetch(req: Request, env: SeedEnv): Promise<Response> {
    const url = new URL(req.url)
    const statements = (await req.json()) as string[]
    for (const s of statements) await env.DB.prepare(s).run()
    const scale = Number(url.searchParams.get('scale') ?? '300')
    const cat = await seedDemoCatalogue(env.DB, env.URL_MAPPINGS, { scale })
    const products = cat?.products ?? []
    return Response.json({
      products: products.length,
      variants: products.reduce((n, p) => n + (p.configurable_children?.length ?? 0), 0),
    })
  },
}
