// The AMP pages of a shop's catalogue (every product and category its sitemaps list) and their
// validation with the offline AMP validator. The browser tier checks every category and a sample of
// products on each test run (tests/e2e/amp-seo.spec.ts); `npm run soak` checks every page.

/** The `<loc>`s of a sitemap document. */
export function sitemapLocs(xml) {
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => (m[1] ?? '').replace(/&amp;/g, '&'))
}

/**
 * The AMP path of every product and category that the sitemap index's product and category
 * sitemaps list, in their order. `getText(path)` answers a path's body.
 */
export async function catalogueAmpPages(getText) {
  const pages = []
  for (const sitemap of sitemapLocs(await getText('/sitemap.xml'))) {
    const path = new URL(sitemap).pathname
    if (!/\/(products-\d+|categories)\.xml$/.test(path)) continue
    for (const loc of sitemapLocs(await getText(path))) {
      const p = new URL(loc).pathname
      if (p.startsWith('/p/') || p.startsWith('/c/')) pages.push(`/amp${p}`)
    }
  }
  return pages
}

/**
 * A sample of the pages: every category, and of the products the first two of each SKU family
 * (the letters before the SKU's number: sarees, kurtas, bundles, sets…, each a product type or a
 * look of its own) and every `every`-th one besides.
 */
export function ampSample(pages, every = 10) {
  const perFamily = new Map()
  let product = 0
  return pages.filter((page) => {
    if (!page.startsWith('/amp/p/')) return true
    const family = /^\/amp\/p\/([A-Za-z]+)/.exec(page)?.[1] ?? ''
    const seen = perFamily.get(family) ?? 0
    perFamily.set(family, seen + 1)
    return seen < 2 || product++ % every === 0
  })
}

/**
 * What is wrong with the pages: "path: HTTP n" for an answer other than 200, "path: line:col
 * message | …" for a page the validator fails. `getPage(path)` answers { status, text }; a few
 * pages are in flight at a time (the shop renders one while the next waits on its database).
 */
export async function ampFailures(pages, getPage, validator, inFlight = 4) {
  const failures = []
  const queue = [...pages]
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      for (let page = queue.shift(); page; page = queue.shift()) {
        const { status, text } = await getPage(page)
        if (status !== 200) {
          failures.push(`${page}: HTTP ${status}`)
          continue
        }
        const result = validator.validateString(text)
        if (result.status !== 'PASS')
          failures.push(`${page}: ${result.errors.map((e) => `${e.line}:${e.col} ${e.message}`).join(' | ')}`)
      }
    }),
  )
  return failures.sort()
}
