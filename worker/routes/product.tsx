/** Product page: GET /p/:parentSku/:slug/:childSku? (and /{url_path} through the dispatcher). */
import { Hono } from 'hono'
import type { AppEnv } from '../env'
import { renderPage } from '../render/render-page'

export const productRoutes = new Hono<AppEnv>()

productRoutes.get('/p/:parentSku/:slug/:childSku?', (c) => {
  const { parentSku } = c.req.param()
  return renderPage(
    c,
    <section className="product">
      <h1>{parentSku}</h1>
    </section>,
    { title: parentSku, layout: 'default', entry: 'product' },
  )
})
