/**
 * AMP documents: a string shell with the AMP runtime, the required boilerplate and one
 * `<style amp-custom>` (≤ 75,000 bytes), and a body rendered by React and awaited in full
 * (allReady: no streaming, no Suspense scripts, no author JavaScript).
 */
import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { ReactNode } from 'react'
import { renderToReadableStream } from 'react-dom/server.node'
import { jsonForScript } from '../../../client/islands/define'
import type { AppEnv } from '../env'

const AMP_CSS_LIMIT = 75_000
const AMP_RUNTIME = 'https://cdn.ampproject.org/v0.js'
const AMP_EXTENSIONS: Record<string, string> = {
  'amp-carousel': 'https://cdn.ampproject.org/v0/amp-carousel-0.1.js',
}
const BOILERPLATE =
  '<style amp-boilerplate>body{-webkit-animation:-amp-start 8s steps(1,end) 0s 1 normal both;-moz-animation:-amp-start 8s steps(1,end) 0s 1 normal both;-ms-animation:-amp-start 8s steps(1,end) 0s 1 normal both;animation:-amp-start 8s steps(1,end) 0s 1 normal both}@-webkit-keyframes -amp-start{from{visibility:hidden}to{visibility:visible}}@-moz-keyframes -amp-start{from{visibility:hidden}to{visibility:visible}}@-ms-keyframes -amp-start{from{visibility:hidden}to{visibility:visible}}@-o-keyframes -amp-start{from{visibility:hidden}to{visibility:visible}}@keyframes -amp-start{from{visibility:hidden}to{visibility:visible}}</style><noscript><style amp-boilerplate>body{-webkit-animation:none;-moz-animation:none;-ms-animation:none;animation:none}</style></noscript>'

interface AmpDocument {
  title: string
  canonical: string
  description?: string
  /** AMP extension elements the body uses, e.g. ['amp-carousel']. */
  extensions?: string[]
  css: string
  body: ReactNode
  /** JSON-LD object(s) for the head. */
  jsonLd?: unknown[]
  status?: number
}

function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')
}

function escapeText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

async function renderBody(node: ReactNode, requestId: string): Promise<string> {
  const stream = await renderToReadableStream(node, {
    onError(error: unknown) {
      console.error(JSON.stringify({ requestId, msg: 'amp render error', error: String(error) }))
    },
  })
  await stream.allReady
  return new Response(stream).text()
}

/** Renders a complete AMP document (minimal layout) as a Response. */
export async function renderAmpPage(c: Context<AppEnv>, doc: AmpDocument): Promise<Response> {
  c.set('cspMode', 'amp')
  const cssBytes = new TextEncoder().encode(doc.css).length
  if (cssBytes > AMP_CSS_LIMIT)
    throw new Error(`AMP CSS is ${cssBytes} bytes, over the ${AMP_CSS_LIMIT} limit`)
  const body = await renderBody(doc.body, c.var.requestId)
  const extensions = (doc.extensions ?? [])
    .filter((e) => AMP_EXTENSIONS[e])
    .map((e) => `<script async custom-element="${e}" src="${AMP_EXTENSIONS[e]}"></script>`)
    .join('')
  const ld = (doc.jsonLd ?? [])
    .map((d) => `<script type="application/ld+json">${jsonForScript(d)}</script>`)
    .join('')
  const html = `<!doctype html><html amp lang="en"><head><meta charset="utf-8"><script async src="${AMP_RUNTIME}"></script>${extensions}<title>${escapeText(doc.title)}</title><link rel="canonical" href="${escapeAttr(doc.canonical)}"><meta name="viewport" content="width=device-width,minimum-scale=1,initial-scale=1">${doc.description ? `<meta name="description" content="${escapeAttr(doc.description)}">` : ''}${ld}${BOILERPLATE}<style amp-custom>${doc.css}</style></head><body data-layout="minimal">${body}</body></html>`
  return c.html(html, (doc.status ?? 200) as ContentfulStatusCode, { 'cache-control': 'public, no-cache' })
}
