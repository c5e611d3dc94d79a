import { env } from 'cloudflare:test'
import { Hono } from 'hono'
import { Suspense, use } from 'react'
import { beforeAll, describe, expect, it } from 'vitest'
import { lazyPart, preloadParts } from '../../../client/islands/lazy-part'
import type { AppEnv } from '../../../worker/platform/env'
import { requestContext } from '../../../worker/platform/middleware/context'
import { allArrived, renderPage } from '../../../worker/platform/render/render-page'

function Deferred({ data }: { data: Promise<string> }) {
  return <p id="deferred">{use(data)}</p>
}

/**
 * A fixture page whose deferred section resolves only after `ms`; `declared`: the page names the
 * data its deferred section reads (as the product page does).
 */
function slowApp(ms: number, declared = true) {
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
      { title: 'Streaming fixture', layout: 'minimal', entry: null, deferred: declared ? [data] : undefined },
    )
  })
  return { app, state }
}

/**
 * A page without deferred sections, with what React places in <head> by itself (an eager,
 * high-priority image is preloaded there) and the page's nonce'd module script: rendered the way
 * its options choose, deferred data that never arrives forcing the stream.
 */
function wholeApp() {
  const app = new Hono<AppEnv>()
  app.use('*', requestContext)
  app.use('*', (c, next) => {
    // One nonce for both renderings, so the two documents can be compared byte for byte.
    c.set('nonce', 'fixed-nonce')
    return next()
  })
  app.get('/whole', (c) =>
    renderPage(
      c,
      <section>
        <h1>Whole page</h1>
        <img src="/img/280/419/p/a.svg" alt="First tile" width={280} height={419} fetchPriority="high" />
        <p>
          {'Text'} {3} {'pieces'}
        </p>
      </section>,
      {
        title: 'Whole fixture',
        layout: 'minimal',
        entry: 'category',
        deferred: c.req.query('stream') === '1' ? [new Promise(() => {})] : undefined,
      },
    ),
  )
  return app
}

/** An island part's markup (a set's pieces), for a part loaded on demand. */
function Pieces({ pieces }: { pieces: number }) {
  return (
    <table data-testid="pieces">
      <tbody>
        <tr>
          <td>{pieces} pieces</td>
        </tr>
      </tbody>
    </table>
  )
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
  // The tests below time the stream against a deferred section's data, not an isolate's first
  // page: renderPage first loads every island part defined so far (which parts, and how long they
  // take, depend on the files this workerd ran before), so they are loaded here first.
  beforeAll(async () => {
    await preloadParts()
  })
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

  it('streams a body that suspends even when the page did not declare deferred sections: no fallback is shipped', async () => {
    const { app, state } = slowApp(50, false)
    const res = await app.request('/slow', {}, env)
    const html = await res.text()
    expect(state.resolved).toBe(true)
    expect(html).toContain('deferred data arrived')
    // React's mark of a boundary left for the browser to render (what the string renderer leaves).
    expect(html).not.toContain('<!--$!-->')
  })

  it('renders a page without deferred sections to the same document the stream gives', async () => {
    const app = wholeApp()
    const whole = await (await app.request('/whole', {}, env)).text()
    const streamed = await (await app.request('/whole?stream=1', {}, env)).text()
    expect(whole.startsWith('<!DOCTYPE html><html')).toBe(true)
    // React hoists the LCP image's preload into <head> in both renderings.
    expect(whole.indexOf('rel="preload" as="image"')).toBeGreaterThan(0)
    expect(whole.indexOf('rel="preload" as="image"')).toBeLessThan(whole.indexOf('</head>'))
    expect(whole).toContain('nonce="fixed-nonce"')
    expect(whole).toBe(streamed)
  })

  it('tells data that has arrived from data on its way, marking each the way `use` reads it', async () => {
    type Marked = Promise<unknown> & { status?: string; value?: unknown; reason?: unknown }
    const ready = Promise.resolve('ready') as Marked
    const failed = Promise.reject(new Error('failed')) as Marked
    failed.catch(() => {})
    let arrive = (_: string) => {}
    const later = new Promise<string>((resolve) => {
      arrive = resolve
    }) as Marked
    expect(await allArrived([ready, failed])).toBe(true)
    expect([ready.status, ready.value]).toEqual(['fulfilled', 'ready'])
    expect([failed.status, (failed.reason as Error).message]).toEqual(['rejected', 'failed'])
    expect(await allArrived([ready, later])).toBe(false)
    expect(later.status).toBe('pending')
    arrive('late')
    await later
    expect([later.status, later.value]).toEqual(['fulfilled', 'late'])
    expect(await allArrived([ready, later])).toBe(true)
    // Data whose read is back but whose chain has several steps left arrives too.
    const chained = Promise.resolve(1)
      .then((n) => n + 1)
      .then((n) => n + 1)
      .then((n) => n + 1) as Marked
    expect(await allArrived([chained])).toBe(true)
    expect(chained.value).toBe(4)
  })

  it('renders a page whole when its deferred data has arrived, and streams a section whose data failed', async () => {
    const app = new Hono<AppEnv>()
    app.use('*', requestContext)
    app.get('/ready', async (c) => {
      const data = Promise.resolve('deferred data arrived')
      const failed = Promise.reject(new Error('section failed'))
      failed.catch(() => {})
      const withFailure = c.req.query('failed') === '1'
      return renderPage(
        c,
        <>
          <h1>Shell heading</h1>
          <Suspense fallback={<p id="fallback">Loading…</p>}>
            <Deferred data={data} />
          </Suspense>
          {withFailure ? (
            <Suspense fallback={<p id="failed">Unavailable</p>}>
              <Deferred data={failed} />
            </Suspense>
          ) : null}
        </>,
        {
          title: 'Ready fixture',
          layout: 'minimal',
          entry: null,
          deferred: withFailure ? [data, failed] : [data],
        },
      )
    })
    const html = await (await app.request('/ready', {}, env)).text()
    expect(html).toContain('<p id="deferred">deferred data arrived</p>')
    expect(html).not.toContain('Loading…')
    const failed = await app.request('/ready?failed=1', {}, env)
    expect(failed.status).toBe(200)
    const failedHtml = await failed.text()
    expect(failedHtml).toContain('deferred data arrived')
    expect(failedHtml).toContain('Unavailable')
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

  it('renders an island part loaded on demand in place on the first page that uses it, not in a boundary revealed later', async () => {
    // Defined here, so no page has loaded it yet: the first render is the one that would suspend.
    // Its code takes a moment to arrive, so a render that suspends on it flushes without it.
    const Part = lazyPart(
      () => new Promise<typeof Pieces>((resolve) => setTimeout(() => resolve(Pieces), 20)),
    )
    const app = new Hono<AppEnv>()
    app.use('*', requestContext)
    const later = new Promise((resolve) => setTimeout(resolve, 50))
    app.get('/form', (c) =>
      renderPage(
        c,
        <div data-island="form">
          <Suspense fallback={null}>
            <Part pieces={3} />
          </Suspense>
          <button type="submit">Add to cart</button>
        </div>,
        // Data still on its way, as a product page's reviews are: the page streams.
        { title: 'Island part fixture', layout: 'minimal', entry: null, deferred: [later] },
      ),
    )
    const html = await (await app.request('/form', {}, env)).text()
    const island = /<div data-island="form">([\s\S]*?)<\/div>/.exec(html)?.[1] ?? ''
    expect(island).toMatch(/<table data-testid="pieces">[\s\S]*3<!-- --> pieces[\s\S]*<\/table>/)
    // React's out-of-order boundary: a placeholder here, the markup after the page, a reveal script.
    expect(html).not.toContain('<template id="B:')
    expect(html).not.toContain('$RC(')
  })
})
