import { env } from 'cloudflare:test'
import { Hono } from 'hono'
import { Suspense, use } from 'react'
import { describe, expect, it } from 'vitest'
import type { AppEnv } from '../../../worker/platform/env'
import { requestContext } from '../../../worker/platform/middleware/context'
import { renderPage } from '../../../worker/platform/render/render-page'

function Deferred({ data }: { data: Promise<string> }) {
  return <p id="deferred">{use(data)}</p>
}

/** A fixture page whose deferred section resolves only after `ms`. */
function slowApp(ms: number) {
  const state = { resolved: false }
  const app = new Hono<AppEnv>()
  app.use('*', requestContext)
  app.get('/slow', (c) => {
    const data = new Promise<string>((resolve) =>
      setTimeout(() => {
        state.resolved = true
        resolve('deferred data arrived')
      }, ms),
    )
    return renderPage(
      c,
      <>
        <h1>Shell heading</h1>
        <Suspense fallback={<p id="fallback">Loading…</p>}>
          <Deferred data={data} />
        </Suspense>
      </>,
      { title: 'Streaming fixture', layout: 'minimal', entry: null },
    )
  })
  return { app, state }
}

async function readAll(reader: ReadableStreamDefaultReader<Uint8Array>, decoder: TextDecoder) {
  let text = ''
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return text
    text += decoder.decode(value, { stream: true })
  }
}

describe('streaming SSR', () => {
  it('flushes the shell with <head> before the deferred data resolves, then streams the boundary', async () => {
    const { app, state } = slowApp(400)
    const res = await app.request('/slow', {}, env)
    expect(res.status).toBe(200)
    const reader = res.body!.getReader()
    const decoder = new TextDecoder()
    // Read what React flushes before the deferred data exists (the shell may arrive in several
    // chunks, e.g. head then the inlined stylesheet then the body), until the fallback shows.
    let firstText = ''
    while (!firstText.includes('Loading…')) {
      const chunk = await reader.read()
      if (chunk.done) break
      firstText += decoder.decode(chunk.value, { stream: true })
      expect(state.resolved).toBe(false)
    }
    expect(state.resolved).toBe(false)
    expect(firstText).toContain('<title>Streaming fixture</title>')
    expect(firstText).toContain('</head>')
    expect(firstText).toContain('Shell heading')
    expect(firstText).toContain('Loading…')
    expect(firstText).not.toContain('deferred data arrived')

    const rest = await readAll(reader, decoder)
    expect(state.resolved).toBe(true)
    expect(rest).toContain('deferred data arrived')
    // The boundary's swap script carries the CSP nonce.
    expect(rest).toMatch(/<script nonce="[^"]+"/)
  })

  it('waits for all data before sending anything to a bot', async () => {
    const { app, state } = slowApp(200)
    const res = await app.request(
      '/slow',
      { headers: { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' } },
      env,
    )
    expect(state.resolved).toBe(true)
    const html = await res.text()
    expect(html).toContain('deferred data arrived')
  })
})
