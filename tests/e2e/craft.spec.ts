import { expect, type Locator, type Page, test } from '@playwright/test'
import { layoutShift, waitForHydration, watchLayoutShifts } from './pages'
import { waitForServiceWorkerControl } from './sw-helpers'

// The shop's craft as a shopper meets it: every dialog and drawer holds the keyboard while open and
// gives focus back to its trigger; icons are drawings, never emoji or glyphs; the self-hosted fonts
// load without moving anything; the home page does nothing by itself.

const DESKTOP = { width: 1280, height: 800 }
const PHONE = { width: 390, height: 844 }

/** Pictographs, dingbats, arrows and the glyphs once used as icons (×, ‹, ›, ☰, ♡, ⌕, 👤). */
const GLYPH_ICON = /[\u2190-\u21FF\u2300-\u23FF\u2500-\u27BF\u2B00-\u2BFF\u{1F000}-\u{1FAFF}×‹›]/u

/** True when the focused element is inside `dialog`. */
function focusInside(dialog: Locator): Promise<boolean> {
  return dialog.evaluate(
    (el) => el.contains(document.activeElement) && document.activeElement !== document.body,
  )
}

/**
 * Opens a dialog from its trigger with the keyboard, checks that focus moves in and that Tab and
 * Shift+Tab never leave it, then that Escape closes it and focus is back on the trigger.
 */
async function expectFocusTrap(page: Page, trigger: Locator, dialog: Locator): Promise<void> {
  await trigger.focus()
  await page.keyboard.press('Enter')
  await expect(dialog).toBeVisible()
  await expect.poll(() => focusInside(dialog), { message: 'focus moves into the dialog' }).toBe(true)
  // A panel whose body loads on first open (the mini-cart's, the sign-in's) is walked once it has
  // loaded: its controls are counted from the body, not from the placeholder.
  await expect(dialog.getByText('Loading…', { exact: true })).toHaveCount(0)
  const count = await dialog.evaluate(
    (el) =>
      [
        ...el.querySelectorAll<HTMLElement>(
          'a[href],button:not([disabled]),input:not([disabled]),select,textarea',
        ),
      ].filter((c) => c.getClientRects().length > 0).length,
  )
  const seen = new Set<string>()
  for (let i = 0; i < count + 2; i++) {
    await page.keyboard.press('Tab')
    expect(await focusInside(dialog), `Tab ${i + 1} stays inside`).toBe(true)
    seen.add(await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 80) ?? ''))
  }
  // Tab came back round: it cycled through the dialog's controls, not past them.
  expect(seen.size).toBeLessThanOrEqual(Math.max(count, 1))
  for (let i = 0; i < count + 2; i++) {
    await page.keyboard.press('Shift+Tab')
    expect(await focusInside(dialog), `Shift+Tab ${i + 1} stays inside`).toBe(true)
  }
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(trigger).toBeFocused()
}

test.describe('dialogs and drawers hold focus and give it back', () => {
  test.use({ viewport: DESKTOP })
  // The home popups are not part of this walk (they have their own test below).
  test.beforeEach(async ({ page }) => {
    await page.addInitScript(() => sessionStorage.setItem('home-popups-seen', 'generic_popup,exit_popup'))
  })

  test('menu, search, wishlist, mini-cart, sign-in and chat', async ({ page }) => {
    await page.goto('/')
    await waitForHydration(page)
    await expectFocusTrap(page, page.getByTestId('menu-button'), page.getByTestId('sidebar'))
    await expectFocusTrap(page, page.getByTestId('search-button'), page.getByTestId('search-panel'))
    await expectFocusTrap(page, page.getByTestId('wishlist-button'), page.getByTestId('wishlist-panel'))
    await expectFocusTrap(page, page.getByTestId('minicart'), page.getByTestId('microcart-panel'))
    await expectFocusTrap(page, page.getByTestId('account-button'), page.getByTestId('auth-modal'))
    await expectFocusTrap(page, page.getByTestId('chat-launcher'), page.getByTestId('chat-panel'))
  })

  test('the size guide on a product page', async ({ page }) => {
    await page.goto('/c/women')
    const links = await page
      .locator('a[href^="/p/"]')
      .evaluateAll((as) => [...new Set(as.map((a) => a.getAttribute('href') ?? ''))].slice(0, 6))
    let found = false
    for (const href of links) {
      await page.goto(href)
      if ((await page.getByTestId('size-guide-button').count()) === 0) continue
      await waitForHydration(page)
      await expectFocusTrap(page, page.getByTestId('size-guide-button'), page.getByTestId('size-guide'))
      found = true
      break
    }
    expect(found, 'a women’s product with a size guide').toBe(true)
  })
})

for (const [name, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const) {
  test(`the header shows no emoji or glyph icons and names every control (${name})`, async ({ page }) => {
    await page.setViewportSize(viewport)
    await page.goto('/')
    await waitForHydration(page)
    const header = page.locator('header.header')
    expect(await header.innerText()).not.toMatch(GLYPH_ICON)
    // Each icon is an SVG drawing from the sprite, hidden from assistive technology.
    const icons = header.locator('svg.icon')
    expect(await icons.count()).toBeGreaterThanOrEqual(5)
    for (const icon of await icons.all()) await expect(icon).toHaveAttribute('aria-hidden', 'true')
    const painted = await icons.first().evaluate((svg) => svg.getBoundingClientRect().width)
    expect(painted).toBeGreaterThan(10)
    // Every visible control has an accessible name.
    for (const control of await header.locator('a:visible, button:visible, select:visible').all()) {
      const label = await control.evaluate(
        (el) => el.getAttribute('aria-label') ?? el.closest('label')?.textContent ?? el.textContent ?? '',
      )
      expect(label.trim(), await control.evaluate((el) => el.outerHTML.slice(0, 100))).not.toBe('')
    }
    // The drawers it opens are drawn the same way.
    await page.getByTestId('menu-button').click()
    await expect(page.getByTestId('sidebar')).toBeVisible()
    expect(await header.innerText()).not.toMatch(GLYPH_ICON)
  })
}

test.describe('home page', () => {
  // Nothing shows before the shopper acts, the service worker's first install included.
  test.use({ viewport: DESKTOP, serviceWorkers: 'allow' })

  test('rails show four products a page and never move by themselves; no popup or notice before the shopper acts', async ({
    page,
  }) => {
    test.setTimeout(90_000)
    // The page's clock is the test's: the popup's delay passes in a jump, not in real seconds.
    await page.clock.install()
    await page.goto('/')
    await waitForHydration(page)
    const rail = page.locator('.home-section[data-section-type] [data-carousel]').first()
    await rail.scrollIntoViewIfNeeded()
    const widths = await rail.locator('.carousel__track').evaluate((track) => {
      const slide = track.querySelector('.carousel__slide') as HTMLElement
      const gap = Number.parseFloat(getComputedStyle(track).columnGap) || 0
      return { track: track.clientWidth, perPage: (track.clientWidth + gap) / (slide.offsetWidth + gap) }
    })
    expect(Math.round(widths.perPage)).toBe(4)
    await page.mouse.move(5, 400)
    await waitForServiceWorkerControl(page)
    // Longer than the popup's delay, with no scroll, tap or key press: nothing opens, nothing moves.
    const before = await page.$$eval('.carousel__track', (ts) => ts.map((t) => t.scrollLeft))
    await page.clock.runFor(9_000)
    expect(await page.$$eval('.carousel__track', (ts) => ts.map((t) => t.scrollLeft))).toEqual(before)
    await expect(page.locator('[data-popup]:not([hidden])')).toHaveCount(0)
    await expect(page.getByTestId('notification')).toHaveCount(0)
    // Once the shopper scrolls, the popup may come: it then holds focus and Escape closes it.
    await page.mouse.wheel(0, 400)
    const popup = page.locator('[data-popup="generic_popup"]')
    await expect(popup).toBeHidden()
    await page.clock.runFor(9_000)
    await expect(popup).toBeVisible()
    await expect.poll(() => focusInside(popup)).toBe(true)
    await page.keyboard.press('Escape')
    await expect(popup).toBeHidden()
  })

  test('a popup never opens over a drawer the shopper is using', async ({ page }) => {
    await page.clock.install()
    await page.goto('/')
    await waitForHydration(page)
    await page.getByTestId('menu-button').focus()
    await page.keyboard.press('Enter')
    const sidebar = page.getByTestId('sidebar')
    await expect(sidebar).toBeVisible()
    await page.clock.runFor(10_000)
    await expect(page.locator('[data-popup]:not([hidden])')).toHaveCount(0)
    // The drawer moves the focus into itself after it opens (as every dialog does, see
    // expectFocusTrap): waited for, not read at once, on a busy machine.
    await expect.poll(() => focusInside(sidebar)).toBe(true)
  })

  test('the self-hosted faces load with the page, and nothing shifts (CLS 0)', async ({ page }) => {
    await watchLayoutShifts(page)
    for (const path of ['/', '/c/women', '/page-not-found']) {
      await page.goto(path)
      await waitForHydration(page)
      await page.waitForTimeout(1_500)
      const loaded = await page.evaluate(async () => {
        await document.fonts.ready
        return [...document.fonts].filter((f) => f.status === 'loaded').map((f) => `${f.family} ${f.weight}`)
      })
      expect(loaded, path).toEqual(expect.arrayContaining(['Inter 400', 'Cormorant Garamond 500']))
      const bodyFont = await page.evaluate(() => getComputedStyle(document.body).fontFamily)
      expect(bodyFont).toMatch(/^"?Inter"?,/)
      expect(await layoutShift(page), path).toBe(0)
    }
  })
})

test('the page-not-found page searches the shop and offers categories', async ({ page }) => {
  const res = await page.goto('/no-such-page-here')
  expect(res?.status()).toBe(404)
  await expect(page.getByTestId('not-found-categories').getByRole('link').first()).toBeVisible()
  await page.getByLabel('Search the shop').fill('silk')
  await Promise.all([page.waitForURL(/\/search\?q=silk/), page.getByLabel('Search the shop').press('Enter')])
})
