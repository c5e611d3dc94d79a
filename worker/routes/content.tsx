/**
 * Content routes: /i/:slug CMS pages, the named content pages (magazine, covers, press,
 * past-collections, about-us-author, stockists), /ode-to-{name}, store locator, contact.
 */
import { Hono } from 'hono'
import type { AppEnv } from '../env'
import { renderPage } from '../render/render-page'

export const contentRoutes = new Hono<AppEnv>()

const CONTENT_PAGES: Record<string, string> = {
  magazine: 'Magazine',
  covers: 'Covers',
  press: 'Press',
  'past-collections': 'Past collections',
  'about-us-author': 'About the author',
  stockists: 'Stockists',
}

for (const [slug, title] of Object.entries(CONTENT_PAGES)) {
  contentRoutes.get(`/${slug}`, (c) =>
    renderPage(c, <h1>{title}</h1>, { title, layout: 'default', entry: 'content' }),
  )
}

contentRoutes.get('/i/:slug', (c) => {
  const slug = c.req.param('slug')
  return renderPage(c, <h1>{slug}</h1>, { title: slug, layout: 'default', entry: 'content' })
})

contentRoutes.get('/:page{ode-to-[a-z0-9-]+}', (c) => {
  const page = c.req.param('page')
  return renderPage(c, <h1>{page}</h1>, { title: page, layout: 'default', entry: 'content' })
})

contentRoutes.get('/store-locator', (c) =>
  renderPage(c, <h1>Store locator</h1>, { title: 'Store locator', layout: 'default', entry: 'content' }),
)

contentRoutes.get('/store-locator/:store', (c) => {
  const store = c.req.param('store')
  return renderPage(c, <h1>{store}</h1>, { title: store, layout: 'default', entry: 'content' })
})

contentRoutes.get('/contact', (c) =>
  renderPage(c, <h1>Contact</h1>, { title: 'Contact', layout: 'default', entry: 'content' }),
)
