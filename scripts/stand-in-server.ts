/**
 * Serves a stand-in written against Web APIs (a `fetch(Request) → Response` handler) as a Node
 * HTTP server on 127.0.0.1: the local payment provider and the local courier both run this way.
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
