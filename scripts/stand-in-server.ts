/**
 * Serves a stand-in written against Web APIs (a `fetch(Request) → Response` handler) as a Node
 * HTTP server on 127.0.0.1: the local payment provider, courier and WhatsApp all run this way.
 */
import { createServer } from 'node:http'

function serveStandIn(
  origin: string,
  port: number,
  handle: (request: Request) => Promise<Response>,
  onListening: () => void,
) {
  createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const body = chunks.length ? Buffer.concat(chunks) : undefined
    const headers = new Headers()
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v)
    const request = new Request(`${origin}${req.url ?? '/'}`, {
      method: req.method,
      headers,
      body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body,
    })
    try {
      const answer = await handle(request)
      res.writeHead(answer.status, Object.fromEntries(answer.headers))
      res.end(Buffer.from(await answer.arrayBuffer()))
    } catch (err) {
      res.writeHead(500, { 'content-type': 'text/plain' })
      res.end(String(err))
    }
  }).listen(port, '127.0.0.1', onListening)
}

/**
 * A stand-in's command line: `--port N` (its own), `--shop URL` (where its webhooks go),
 * `--print-vars` and any option of its own through `opt`.
 */
function standInArgs(defaultPort: number) {
  const args = process.argv.slice(2)
  const opt = (name: string, fallback: string) => {
    const i = args.indexOf(name)
    return i >= 0 ? (args[i + 1] ?? fallback) : fallback
  }
  const port = Number(opt('--port', String(defaultPort)))
  return {
    opt,
    port,
    shop: opt('--shop', 'http://localhost:8787'),
    origin: `http://127.0.0.1:${port}`,
    printVars: args.includes('--print-vars'),
  }
}

/** Sends a stand-in's webhook (default: fetch). Tests pass their own to hold, reorder or repeat them. */
export type DeliverWebhook = (
  url: string,
  init: { method: 'POST'; headers: Record<string, string>; body: string },
) => Promise<unknown>

/**
 * Webhooks leave after the answer that caused them, as a real provider's do; each delivery is
 * logged under the stand-in's name, a failed one too.
 */
function deliverLater(name: string) {
  return async (url: string, init: RequestInit): Promise<void> => {
    setTimeout(() => {
      fetch(url, init)
        .then((r) => console.log(`[${name}] webhook → ${r.status} ${url}`))
        .catch((err) => console.error(`[${name}] webhook failed: ${err}`))
    }, 200)
  }
}

/**
 * Runs a stand-in from its command line. With `--print-vars` it prints the shop's settings for a
 * stand-in at its origin (JSON) and exits; otherwise it makes the stand-in (webhooks to `--shop`,
 * sent after the answer through `deliverLater`) and serves it, logging `[name] <listening line>`
 * once it listens. Returns the stand-in and the command line's `opt`, for options of its own.
 */
export function runStandIn<S extends { fetch(request: Request): Promise<Response> }>(spec: {
  name: string
  defaultPort: number
  vars: (origin: string) => Record<string, string>
  create: (at: { origin: string; shopOrigin: string; deliver: DeliverWebhook }) => S
  listening: (at: { origin: string; shop: string }) => string
  onListening?: (standIn: S) => void
}) {
  const { opt, port, shop, origin, printVars } = standInArgs(spec.defaultPort)
  if (printVars) {
    console.log(JSON.stringify(spec.vars(origin)))
    process.exit(0)
  }
  const standIn = spec.create({ origin, shopOrigin: shop, deliver: deliverLater(spec.name) })
  serveStandIn(
    origin,
    port,
    (request) => standIn.fetch(request),
    () => {
      console.log(`[${spec.name}] ${spec.listening({ origin, shop })}`)
      spec.onListening?.(standIn)
    },
  )
  return { standIn, opt }
}
