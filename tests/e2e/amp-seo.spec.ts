import { expect, test } from '@playwright/test'
import amphtmlValidator from 'amphtml-validator'
import { validatorPath } from '../../scripts/amp-validator.mjs'
import { ampFailures, ampSample, catalogueAmpPages, sitemapLocs } from '../helpers/amp-sweep.mjs'
import { d1, sqlText } from './pages'

// Every category and a sample of products: a product's AMP page is one template over its data, and
// the sample holds the first pieces of each SKU family (each a product type or look) and every
// tenth one besides. `npm run soak` validates every page of the catalogue.
test('the AMP pages of every category and of a sample of products pass the AMP validator', async ({
  request,
}) => {
  const validator = await amphtmlValidator.getInstance(validatorPath())
  const pages = await catalogueAmpPages(async (path) => (await request.get(path)).text())
  expect(pages.filter((p) => p.startsWith('/amp/p/')).length).toBeGreaterThanOrEqual(250)
  const sample = ampSample(pages)
  expect(sample.filter((p) => p.startsWith('/amp/c/')).length).toBeGreaterThanOrEqual(10)
  // Every SKU family of the catalogue (sarees, lehengas, bundles, sets, gift cards…) is in the sample.
  const families = (list: string[]) => new Set(list.map((p) => /^\/amp\/p\/([A-Za-z]+)/.exec(p)?.[1]))
  expect(families(sample)).toEqual(families(pages))
  const failures = await ampFailures(
    sample,
    async (path) => {
      const res = await request.get(path)
      return { status: res.status(), text: await res.text() }
    },
    validator,
  )
  expect(failures).toEqual([])
})

test('every content page names an AMP version that passes the AMP validator and names it back', async ({
  request,
}) => {
  const validator = await amphtmlValidator.getInstance(validatorPath())
  // The content routes of the pages sitemap, and the CMS pages the footer links to (/i/…).
  const home = await (await request.get('/')).text()
  const footer = [...home.matchAll(/href="(\/i\/[a-z0-9-]+)"/g)].map((m) => m[1] ?? '')
  const listed = sitemapLocs(await (await request.get('/sitemaps/pages.xml')).text()).map(
    (l) => new URL(l).pathname,
  )
  const failures: string[] = []
  let checked = 0
  for (const page of new Set([...listed, ...footer])) {
    const full = await (await request.get(page)).text()
    const amp = full.match(/<link rel="amphtml" href="([^"]+)"/)?.[1]
    if (!amp) {
      if (page.startsWith('/i/')) failures.push(`${page}: no amphtml link`)
      continue
    }
    if (!new URL(amp).pathname.startsWith('/amp/i/')) continue
    checked++
    const res = await request.get(new URL(amp).pathname)
    const html = await res.text()
    if (res.status() !== 200) failures.push(`${amp}: HTTP ${res.status()}`)
    const result = validator.validateString(html)
    if (result.status !== 'PASS')
      failures.push(`${amp}: ${result.errors.map((e) => `${e.line}:${e.col} ${e.message}`).join(' | ')}`)
    const canonical = html.match(/<link rel="canonical" href="([^"]+)"/)?.[1]
    if (!canonical || new URL(canonical).pathname !== page) failures.push(`${amp}: canonical ${canonical}`)
  }
  expect(checked).toBeGreaterThanOrEqual(8)
  // Content an editor or an import could store: scripts, styles, frames, forms, event handlers and
  // pictures with and without sizes still make a valid AMP page.
  const hostile = `<p style="color:red" onclick="alert(1)">Woven by hand.</p><script>alert(1)</script>
<style>p{}</style><iframe src="https://example.com/"></iframe><form><input name="q"></form>
<picture><source srcset="/img/600/744/b/a.svg"><img src="/img/600/744/b/a.svg" alt="A loom" width="600" height="744" loading="lazy"></picture>
<img src="/img/300/300/b/b.svg"><a href="/c/women" target="_self" class="i-amphtml-x">Women</a>
<table><tr><td colspan="2">Cell</td></tr></table><details><summary>More</summary>Text</details>`
  const doc = { identifier: 'amp-e2e-probe', title: 'Probe', content: hostile, is_active: true }
  d1(
    `INSERT OR REPLACE INTO cms_pages (id, identifier, store_id, is_active, doc) VALUES (9890, 'amp-e2e-probe', 0, 1, ${sqlText(JSON.stringify(doc))})`,
  )
  const probe = await request.get('/amp/i/amp-e2e-probe')
  expect(probe.status()).toBe(200)
  const result = validator.validateString(await probe.text())
  expect(result.errors.map((e) => `${e.line}:${e.col} ${e.message}`)).toEqual([])
  expect(failures).toEqual([])
})

test('canonical and AMP pages point at each other', async ({ request }) => {
  const categories = sitemapLocs(await (await request.get('/sitemaps/categories.xml')).text())
  const first = new URL(categories[0]!).pathname
  const amp = await (await request.get(`/amp${first}`)).text()
  expect(amp).toContain(`<link rel="canonical" href="`)
  expect(amp).toMatch(
    new RegExp(`rel="canonical" href="[^"]*${first.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`),
  )
})

test('a shop started on another port names itself in every absolute link', async ({ request, baseURL }) => {
  // scripts/start.mjs --port N passes PUBLIC_ORIGIN=http://localhost:N to the worker.
  const own = `http://localhost:${new URL(baseURL ?? '').port}`
  const index = sitemapLocs(await (await request.get('/sitemap.xml')).text())
  expect(index.length).toBeGreaterThan(2)
  for (const loc of index) expect(new URL(loc).origin).toBe(own)
  expect(await (await request.get('/robots.txt')).text()).toContain(`Sitemap: ${own}/sitemap.xml`)
  // A request naming another host (as a proxy or an attacker might) changes nothing.
  const home = await (await request.get('/', { headers: { 'x-forwarded-host': 'attacker.example' } })).text()
  expect(home).toContain(`<link rel="canonical" href="${own}/"/>`)
  expect(home).not.toContain('attacker.example')
})
