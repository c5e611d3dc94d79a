import { expect, type Page, test } from '@playwright/test'

// The shop streams its pages, so the browser may paint one before its markup has all arrived (a
// slow phone, a busy CPU). Whatever is painted then must already sit where the whole page puts it:
// otherwise it moves when the rest arrives, a layout shift the shopper sees. The page is served
// here cut short at the two places where that went wrong — in the header, after the currency
// select's first option (the other tools not yet there), and in the footer, after its first
// column — and everything painted is compared with the whole page, at a phone's and a desktop's
// width. Scripts are off: this is the server's markup as painted, before any island hydrates.

test.use({ javaScriptEnabled: false })

/** What is compared: the first tools of the header row, and the footer's first column. */
const PAINTED = [
  '[data-testid="search-button"]',
  '[data-testid="currency-switcher"]',
  '.footer__inner > :first-child',
]

/** Serves `html` as the home page and returns the boxes of the PAINTED elements it shows. */
async function boxesOf(page: Page, html: string) {
  await page.route(
    (url) => url.pathname === '/',
    (route) => route.fulfill({ body: html, contentType: 'text/html; charset=utf-8' }),
  )
  await page.goto('/')
  await page.unroute((url) => url.pathname === '/')
  return page.evaluate(
    (selectors) =>
      selectors.map((s) => {
        const el = document.querySelector(s)
        if (!el) return null
        const { x, y, width } = el.getBoundingClientRect()
        return { x, y, width }
      }),
    PAINTED,
  )
}

/** The markup up to and including the first `end` after `from` (the browser closes what is open). */
function cutAfter(html: string, from: string, end: string): string {
  const start = html.indexOf(from)
  expect(start, `the page holds ${from}`).toBeGreaterThan(-1)
  const at = html.indexOf(end, start)
  expect(at, `${end} follows ${from}`).toBeGreaterThan(-1)
  return html.slice(0, at + end.length)
}

for (const width of [320, 1440]) {
  test(`a page painted before its markup has all arrived shows it where the whole page does (${width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 800 })
    // The shop's faces are font-display: optional: a page whose font arrives late keeps the fallback
    // face for good, and its wider text wraps and moves every box below it (the footer by 16 px).
    // Which load that happens to is timing, not streaming, so both pages compared are set in the
    // fallback faces (the fonts are not served).
    await page.route(/\.woff2$/, (route) => route.abort())
    const html = await (await page.request.get('/')).text()
    const whole = await boxesOf(page, html)
    expect(whole.every(Boolean), 'the whole page shows every compared element').toBe(true)

    const [search, currency] = await boxesOf(page, cutAfter(html, 'class="header__tools"', '</option>'))
    expect(search, 'the search button, the later tools not yet arrived').toEqual(whole[0])
    expect(currency, 'the currency select, with its first option only').toEqual(whole[1])

    const footerCut = await boxesOf(page, cutAfter(html, 'class="footer__inner"', '</nav>'))
    expect(footerCut[2], "the footer's first column, the others not yet arrived").toEqual(whole[2])
  })
}
