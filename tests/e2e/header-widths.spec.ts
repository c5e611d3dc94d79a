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

for (const width of WIDTHS) {
  test(`the header fits ${width} px: no overflow, the name whole, every tool reachable`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 })
    await page.goto('/')
    await waitForHydration(page)
    // The support chat's launcher is a header tool where the chat is offered (wide screens).
    const chatShown = await page.getByTestId('chat-launcher').isVisible()
    const m = await measure(page, chatShown ? [...TOOLS, 'chat-launcher'] : TOOLS)
    const viewport: Box = { left: 0, right: m.innerWidth, top: 0, bottom: 800 }

    expect(m.scrollWidth, 'the page is no wider than the window').toBeLessThanOrEqual(m.innerWidth)

    // The store name: whole, not cut, not wrapped out of the bar, clear of its neighbours.
    expect(m.logo.clipped, 'the store name is not clipped').toBe(false)
    expect(m.logo.ellipsis, 'the store name never ends in an ellipsis').toBe(false)
    expect(m.logo.text.trim(), 'the store name is there').not.toBe('')
    expect(inside(m.logo.box, m.bar), 'the store name sits inside the bar').toBe(true)
    const first = m.tools.find((t) => t.id === 'search-button') as (typeof m.tools)[number]
    const menu = m.tools.find((t) => t.id === 'menu-button') as (typeof m.tools)[number]
    expect(m.logo.box.left, 'the name starts after the menu button').toBeGreaterThanOrEqual(menu.box.right)
    const logoEnd = m.nav.shown ? m.nav.box.left : first.box.left
    expect(m.logo.box.right, 'the name ends before what follows it').toBeLessThanOrEqual(logoEnd)

    // Every tool: on screen, what a tap at its centre reaches, and big enough to tap.
    for (const tool of m.tools) {
      expect(inside(tool.box, viewport), `${tool.id} is inside the window`).toBe(true)
      expect(tool.onTop, `${tool.id} is not covered`).toBe(true)
      expect(tool.box.right - tool.box.left, `${tool.id} width`).toBeGreaterThanOrEqual(24)
      expect(tool.box.bottom - tool.box.top, `${tool.id} height`).toBeGreaterThanOrEqual(44)
    }
    // Tools never overlap each other.
    const sorted = [...m.tools].sort((a, b) => a.box.left - b.box.left)
    for (let i = 1; i < sorted.length; i++) {
      const [a, b] = [sorted[i - 1], sorted[i]] as [(typeof sorted)[number], (typeof sorted)[number]]
      expect(b.box.left, `${a.id} and ${b.id} do not overlap`).toBeGreaterThanOrEqual(a.box.right - 0.5)
    }

    // The cart count: inside the window and not covered by anything.
    expect(m.badge.text).toMatch(/^\d+$/)
    expect(inside(m.badge.box, viewport), 'the cart count is inside the window').toBe(true)
    expect(m.badge.onTop, 'the cart count is not covered').toBe(true)

    // The category links: when shown, every one whole and on the same line, before the tools.
    if (m.nav.shown) {
      expect(m.nav.links.length).toBeGreaterThan(0)
      const tops = new Set(m.nav.links.map((l) => Math.round(l.box.top)))
      expect(tops.size, 'the category links sit on one line').toBe(1)
      for (const link of m.nav.links)
        expect(inside(link.box, m.nav.box), `${link.text} is whole inside the bar`).toBe(true)
      expect(m.nav.box.right, 'the links end before the tools').toBeLessThanOrEqual(first.box.left)
    }
  })
}

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
