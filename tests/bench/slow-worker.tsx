// Bench fixture: the real middleware and renderPage, with a deferred section that takes 1 s,
// to measure how early the streamed shell reaches the client.
import { Hono } from 'hono'
import { Suspense, use } from 'react'
import type { AppEnv } from '../../worker/platform/env'
import { requestContext } from '../../worker/platform/middleware/context'
import { renderPage } from '../../worker/platform/render/render-page'

function Deferred({ data }: { data: Promise<string> }) {
  return <p>{use(data)}</p>
}

const app = new Hono<AppEnv>()
app.use('*', requestContext)
app.get('/slow', (c) => {
  const data = new Promise<string>((resolve) => setTimeout(() => resolve('deferred section'), 1000))
  return renderPage(
    c,
    <>
      <h1>Shell</h1>
      <Suspense fallback={<p>Loading…</p>}>
        <Deferred data={data} />
      </Suspense>
    </>,
    { title: 'Streaming bench', layout: 'minimal', entry: null, deferred: [data] },
  )
})

export default app
