/**
 * Serves a stand-in written against Web APIs (a `fetch(Request) → Response` handler) as a Node
 * HTTP server on 127.0.0.1: the local payment provider, courier and WhatsApp all run this way.
 */
import { createServer } from 'node:http'

export function serveStandIn(
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
export function standInArgs(defaultPort: number) {
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

/**
 * Webhooks leave after the answer that caused them, as a real provider's do; each delivery is
 * logged under the stand-in's name, a failed one too.
 */
export function deliverLater(name: string) {
  return async (url: string, init: RequestInit): Promise<void> => {
    setTimeout(() => {
      fetch(url, init)
        .then((r) => console.log(`[${name}] webhook → ${r.status} ${url}`))
        .catch((err) => console.error(`[${name}] webhook failed: ${err}`))
    }, 200)
  }
}
