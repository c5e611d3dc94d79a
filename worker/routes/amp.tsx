/** AMP pages: /amp/p/:parentSku/:slug/:childSku? and /amp/c/:slug (minimal layout, no author JS). */
import { Hono } from 'hono'
import type { AppEnv } from '../env'
import { renderPage } from '../render/render-page'

export const ampRoutes = new Hono<AppEnv>()

ampRoutes.get('/amp/p/:parentSku/:slug/:childSku?', (c) => {
  c.set('cspMode', 'amp')
  const { parentSku } = c.req.param()
  return renderPage(c, <h1>{parentSku}</h1>, {
    title: parentSku,
    layout: 'minimal',
    entry: null,
    waitForAll: true,
  })
})

ampRoutes.get('/amp/c/:slug', (c) => {
  c.set('cspMode', 'amp')
  const slug = c.req.param('slug')
  return renderPage(c, <h1>{slug}</h1>, { title: slug, layout: 'minimal', entry: null, waitForAll: true })
})
