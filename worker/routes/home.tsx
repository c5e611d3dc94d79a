/** Home: GET / and its alias /pwa.html. */
import { Hono } from 'hono'
import type { AppEnv } from '../env'
import { renderPage } from '../render/render-page'

export const homeRoutes = new Hono<AppEnv>()

for (const path of ['/', '/pwa.html']) {
  homeRoutes.get(path, (c) =>
    renderPage(
      c,
      <section className="home">
        <h1>{c.var.config.STORE_NAME}</h1>
        <p>Designer fashion, handpicked.</p>
      </section>,
      {
        title: `${c.var.config.STORE_NAME} | Designer fashion`,
        layout: 'default',
        entry: 'home',
        meta: { canonical: new URL('/', c.req.url).href },
      },
    ),
  )
}
