/** Category listing: GET /c/:slug (and /{url_path} through the dispatcher). */
import { Hono } from 'hono'
import type { AppEnv } from '../env'
import { renderPage } from '../render/render-page'

export const categoryRoutes = new Hono<AppEnv>()

categoryRoutes.get('/c/:slug', (c) => {
  const slug = c.req.param('slug')
  return renderPage(
    c,
    <section className="category">
      <h1>{slug}</h1>
    </section>,
    { title: slug, layout: 'default', entry: 'category' },
  )
})
