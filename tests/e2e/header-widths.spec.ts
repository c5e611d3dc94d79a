import { expect, type Page, test } from '@playwright/test'
import { layoutShift, waitForHydration, watchLayoutShifts } from './pages'

// The header at every width from a small phone to a wide desktop: nothing wider than the window,
// the store name whole, every tool on screen, uncovered and big enough to tap, the cart count
// visible, and the category links either all on one line or folded into the menu drawer.

const WIDTHS = [320, 360, 390, 430, 600, 767, 768, 800, 900, 1024, 1239, 1240, 1280, 1440]
const TOOLS = [
  'menu-button',
  'search-button',
  'currency-switcher',
  'account-button',
  'wishlist-button',
  'minicart',
]

interface Box {
  left: number
  right: number
  top: number
  bottom: number
}

/** What a shopper sees of the header at the current width, measured in the page. */
function measure(page: Page, tools: string[]) {
  return page.evaluate((testIds) => {
    const box = (el: Element): Box => {
      const r = el.getBoundingClientRect()
      return { left: r.left, right: r.right, top: r.top, bottom: r.bottom }
    }
    /** Whether the element itself (or something inside it) is what a tap at its centre reaches. */
    const onTop = (el: Element) => {
      const r = el.getBoundingClientRect()
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)
      return hit !== null && (el === hit || el.contains(hit) || hit.contains(el))
    }
    const logo = document.querySelector('.header__logo') as HTMLElement
    const nav = document.querySelector('nav.header__nav') as HTMLElement
    const bar = document.querySelector('.header__bar') as HTMLElement
    const badge = document.querySelector('[data-testid="minicart-count"]') as HTMLElement
    const navShown = getComputedStyle(nav).display !== 'none'
    return {
      innerWidth: window.innerWidth,
      scrollWidth: document.documentElement.scrollWidth,
      bar: box(bar),
      logo: {
        box: box(logo),
        text: logo.textContent ?? '',
        clipped: logo.scrollWidth > logo.clientWidth || logo.scrollHeight > logo.clientHeight,
        ellipsis: getComputedStyle(logo).textOverflow === 'ellipsis',
      },
      badge: { box: box(badge), onTop: onTop(badge), text: badge.textContent ?? '' },
      tools: testIds.map((id) => {
        const el = document.querySelector(`[data-testid="${id}"]`) as HTMLElement
        return { id, box: box(el), onTop: onTop(el) }
      }),
      nav: {
        shown: navShown,
        box: box(nav),
        links: [...nav.querySelectorAll('a')].map((a) => ({ text: a.textContent ?? '', box: box(a) })),
      },
    }
  }, tools)
}

const inside = (inner: Box, outer: Box) =>
  inner.left >= outer.left - 0.5 &&
  inner.right <= outer.right + 0.5 &&
  inner.top >= outer.top - 0.5 &&
  inner.bottom <= outer.bottom + 0.5

/**
 * What is wrong with the header at the current width, one message per failed rule (none when it
 * fits): the page no wider than the window; the store name whole, not cut, not wrapped out of the
 * bar and clear of its neighbours; every tool on screen, what a tap at its centre reaches, big
 * enough to tap and clear of the others; the cart count inside the window and uncovered; the
 * category links, when shown, whole and on one line before the tools.
 */
function headerProblems(m: Awaited<ReturnType<typeof measure>>): string[] {
  const out: string[] = []
  const fail = (ok: boolean, what: string) => {
    if (!ok) out.push(what)
  }
  const viewport: Box = { left: 0, right: m.innerWidth, top: 0, bottom: 800 }
  fail(m.scrollWidth <= m.innerWidth, `the page is ${m.scrollWidth - m.innerWidth} px wider than the window`)

  fail(!m.logo.clipped, 'the store name is clipped')
  fail(!m.logo.ellipsis, 'the store name ends in an ellipsis')
  fail(m.logo.text.trim() !== '', 'the store name is missing')
  fail(inside(m.logo.box, m.bar), 'the store name sits outside the bar')
  const first = m.tools.find((t) => t.id === 'search-button') as (typeof m.tools)[number]
  const menu = m.tools.find((t) => t.id === 'menu-button') as (typeof m.tools)[number]
  fail(m.logo.box.left >= menu.box.right, 'the store name starts before the menu button ends')
  const logoEnd = m.nav.shown ? m.nav.box.left : first.box.left
  fail(m.logo.box.right <= logoEnd, 'the store name runs into what follows it')

  for (const tool of m.tools) {
    fail(inside(tool.box, viewport), `${tool.id} is outside the window`)
    fail(tool.onTop, `${tool.id} is covered`)
    fail(tool.box.right - tool.box.left >= 24, `${tool.id} is narrower than 24 px`)
    fail(tool.box.bottom - tool.box.top >= 44, `${tool.id} is lower than 44 px`)
  }
  const sorted = [...m.tools].sort((a, b) => a.box.left - b.box.left)
  for (let i = 1; i < sorted.length; i++) {
    const [a, b] = [sorted[i - 1], sorted[i]] as [(typeof sorted)[number], (typeof sorted)[number]]
    fail(b.box.left >= a.box.right - 0.5, `${a.id} and ${b.id} overlap`)
  }

  fail(/^\d+$/.test(m.badge.text), `the cart count reads "${m.badge.text}"`)
  fail(inside(m.badge.box, viewport), 'the cart count is outside the window')
  fail(m.badge.onTop, 'the cart count is covered')

  if (m.nav.shown) {
    fail(m.nav.links.length > 0, 'the category links are shown but empty')
    const tops = new Set(m.nav.links.map((l) => Math.round(l.box.top)))
    fail(tops.size === 1, `the category links sit on ${tops.size} lines`)
    for (const link of m.nav.links) fail(inside(link.box, m.nav.box), `${link.text} is cut off by the bar`)
    fail(m.nav.box.right <= first.box.left, 'the category links run into the tools')
  }
  return out
}

// The header's layout answers the width through CSS alone (media queries, the chat launcher's
// too), so one loaded page is measured at every width by resizing the window: a page load per
// width would cost about 1.5 CPU-seconds each and prove nothing more.
test(`the header fits every width from ${WIDTHS[0]} to ${WIDTHS.at(-1)} px: no overflow, the name whole, every tool reachable`, async ({
  page,
}) => {
  await page.setViewportSize({ width: WIDTHS[0] as number, height: 800 })
  await page.goto('/')
  await waitForHydration(page)
  const found: string[] = []
  let chatSeen = false
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 })
    // The support chat's launcher is a header tool where the chat is offered (wide screens).
    const chatShown = await page.getByTestId('chat-launcher').isVisible()
    chatSeen ||= chatShown
    const m = await measure(page, chatShown ? [...TOOLS, 'chat-launcher'] : TOOLS)
    found.push(...headerProblems(m).map((p) => `${width} px: ${p}`))
  }
  expect(found).toEqual([])
  expect(chatSeen, 'the chat launcher is a header tool at the wide widths').toBe(true)
})

test('below the width where the category links fit, they are all in the menu drawer', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 800 })
  await page.goto('/')
  await waitForHydration(page)
  const links = page.locator('nav.header__nav a')
  const names = await links.allTextContents()
  expect(names.length).toBeGreaterThan(0)
  await expect(links.first()).toBeHidden()
  await page.getByTestId('menu-button').click()
  const drawer = page.getByTestId('sidebar')
  await expect(drawer).toBeVisible()
  for (const name of names) await expect(drawer.getByRole('link', { name, exact: true })).toBeVisible()
})

for (const width of [320, 1440]) {
  test(`the header moves nothing while the page loads at ${width} px (CLS 0)`, async ({ page }) => {
    await watchLayoutShifts(page)
    await page.setViewportSize({ width, height: 800 })
    await page.goto('/')
    await waitForHydration(page)
    await page.waitForTimeout(500)
    expect(await layoutShift(page)).toBe(0)
  })
}
