/**
 * Raw outputs: /raw-output-example.xml (empty layout, served as XML, never touches React),
 * /append-prepend.html (empty layout, content prepended and appended around the page) and
 * /no-js.html (default layout without any script).
 */
import { renderPage } from '../../platform/render/render-page'
import type { RouteHandler, RouteHandlers } from '../../platform/router'

function escapeXml(s: string): string {
  return s.replace(/[<>&'"]/g, (ch) => `&#${ch.charCodeAt(0)};`)
}

const rawOutput: RouteHandler = (c) => {
  const { config, store } = c.var
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<store>
  <name>${escapeXml(config.STORE_NAME)}</name>
  <code>${escapeXml(store.storeCode)}</code>
  <currency>${escapeXml(store.currency)}</currency>
  <message>This is an example of raw output served by the storefront with the empty layout.</message>
</store>
`
  return c.body(xml, 200, {
    'content-type': 'application/xml; charset=utf-8',
    'cache-control': 'public, max-age=300',
  })
}

const appendPrepend: RouteHandler = async (c) => {
  const page = await renderPage(
    c,
    <main id="main">
      <h1>Append and prepend</h1>
      <p>This page is rendered in the empty layout; content is prepended and appended around it.</p>
    </main>,
    { title: 'Append / prepend', layout: 'empty', entry: null, waitForAll: true },
  )
  const html = await page.text()
  // Prepended right after <body>, appended right before </body>, so the doctype stays first.
  const prepend = '<div class="prepended" data-testid="prepended">Prepended content</div>'
  const append = '<div class="appended" data-testid="appended">Appended content</div>'
  const out = html.replace(/<body([^>]*)>/, `<body$1>${prepend}`).replace('</body>', `${append}</body>`)
  return c.body(out, 200, { 'content-type': 'text/html; charset=utf-8' })
}

const noJs: RouteHandler = (c) =>
  renderPage(
    c,
    <section>
      <h1>No JavaScript</h1>
      <p>This page is rendered in the default layout without any script.</p>
    </section>,
    { title: 'No JavaScript', layout: 'default', entry: null },
  )

export const rawPages = {
  'raw-output': rawOutput,
  'append-prepend': appendPrepend,
  'no-js': noJs,
} satisfies RouteHandlers
