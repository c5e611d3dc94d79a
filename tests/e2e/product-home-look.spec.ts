import { expect, type Locator, type Page, test } from '@playwright/test'
import { layoutShift, waitForHydration, watchLayoutShifts } from './pages'

// How the product and home pages look and behave at phone and desktop sizes: the phone's add-to-bag
// bar never covers the product form, the home hero shows one banner at a time, and the product
// page's icons are drawings from the sprite, never text glyphs.

const PHONE = { width: 390, height: 844 }
const DESKTOP = { width: 1366, height: 900 }

/** Pictographs, arrows, geometric shapes (▶) and the glyphs once used as icons (×, ‹, ›, −). */
const GLYPH_ICON = /[\u2190-\u21FF\u2212\u2300-\u23FF\u2500-\u27BF\u2B00-\u2BFF\u{1F000}-\u{1FAFF}×‹›]/u

type Box = { x: number; y: number; width: number; height: number }

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
}

/**
 * A demo kurta with colour swatches, sizes and several photographs: what these checks measure. A
 * fixed product, not the first of a listing, which other specs' authored products can lead.
 */
const KURTA = '/p/KUR1087/kinara-cotton-kurta-kur1087'

/** Whether the bar is shown: visible, in the accessibility tree and reachable by Tab. */
async function barState(bar: Locator) {
  return bar.evaluate((el) => ({
    visible: getComputedStyle(el).visibility === 'visible',
    inert: (el as HTMLElement).inert,
    ariaHidden: el.getAttribute('aria-hidden'),
  }))
}

test.describe('product page on a phone', () => {
  test.use({ viewport: PHONE, isMobile: true, hasTouch: true })

  test('the add-to-bag bar stays away while the form is in view and never covers the price or swatches', async ({
    page,
  }) => {
    await watchLayoutShifts(page)
    await page.goto(KURTA)
    await waitForHydration(page)
    const bar = page.getByTestId('buy-bar')
    const formButton = page.getByTestId('add-to-cart')
    const price = page.getByTestId('product-price')
    const swatches = page.locator('[data-testid="product-form"] fieldset').first()

    // On arrival the bar is hidden: not seen, not announced, not in the tab order.
    expect(await barState(bar)).toEqual({ visible: false, inert: true, ariaHidden: 'true' })
    await expect(page.getByRole('button', { name: 'Add to cart' })).toHaveCount(1)

    // With the form's own button on screen, still hidden.
    await formButton.scrollIntoViewIfNeeded()
    await expect(formButton).toBeInViewport()
    await page.waitForTimeout(300)
    expect((await barState(bar)).visible).toBe(false)

    // Walk down the page: wherever the bar shows, it covers neither the price nor the swatches.
    const height = await page.evaluate(() => document.documentElement.scrollHeight)
    let shownAt = -1
    for (let y = 0; y < height; y += 200) {
      await page.evaluate((top) => window.scrollTo(0, top), y)
      await page.waitForTimeout(120)
      const state = await barState(bar)
      if (!state.visible) continue
      if (shownAt < 0) shownAt = y
      const barBox = (await bar.boundingBox()) as Box
      for (const part of [price, swatches, formButton]) {
        const box = await part.boundingBox()
        if (box)
          expect(overlaps(barBox, box), `bar over ${await part.getAttribute('class')} at y=${y}`).toBe(false)
      }
    }
    expect(shownAt, 'the bar appears once the form has scrolled away').toBeGreaterThan(0)

    // Shown past the form's button: visible, operable, with a full-width Add to cart beside the price.
    await page.evaluate((top) => window.scrollTo(0, top), shownAt + 200)
    await expect.poll(async () => (await barState(bar)).visible).toBe(true)
    expect(await barState(bar)).toEqual({ visible: true, inert: false, ariaHidden: 'false' })
    const barBox = (await bar.boundingBox()) as Box
    expect(barBox.y + barBox.height).toBeLessThanOrEqual(PHONE.height + 1)
    const add = bar.getByRole('button', { name: 'Add to cart' })
    const addBox = (await add.boundingBox()) as Box
    expect(addBox.width).toBeGreaterThanOrEqual(140)
    expect(addBox.height).toBeLessThanOrEqual(56)
    await expect(bar).toContainText((await price.getByTestId('price-final').textContent()) ?? '')

    // Back up to the form: the bar goes away again.
    await formButton.scrollIntoViewIfNeeded()
    await expect.poll(async () => (await barState(bar)).visible).toBe(false)
    expect(await layoutShift(page)).toBe(0)
  })

  test('Add to cart on the bar takes the shopper back to a choice still to make, then adds', async ({
    page,
  }) => {
    await page.goto(KURTA)
    await waitForHydration(page)
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight / 2))
    const bar = page.getByTestId('buy-bar')
    await expect.poll(async () => (await barState(bar)).visible).toBe(true)
    await bar.getByRole('button', { name: 'Add to cart' }).click()
    // The form asks for the size where the shopper can see it, and the bar steps aside.
    await expect(page.getByTestId('size-required')).toBeInViewport()
    await expect.poll(async () => (await barState(bar)).visible).toBe(false)
    await expect(page.getByTestId('minicart-count')).toHaveText('0')

    // A size chosen, the bar adds the product; the message rises above the bar, not over it.
    const size = page.locator(
      '[data-testid="picker-size"] .variant-option:not(.variant-option--unavailable):not(.variant-option--oos)',
    )
    await size.first().click()
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight / 2))
    await expect.poll(async () => (await barState(bar)).visible).toBe(true)
    await bar.getByRole('button', { name: 'Add to cart' }).click()
    await expect(page.getByTestId('minicart-count')).toHaveText('1')
    const note = page.getByTestId('notification').first()
    await expect(note).toBeVisible()
    expect(overlaps((await note.boundingBox()) as Box, (await bar.boundingBox()) as Box)).toBe(false)
  })

  test('the bar has room at every phone width from 320 to 430 px', async ({ page }) => {
    for (const width of [320, 360, 390, 430]) {
      await page.setViewportSize({ width, height: 740 })
      await page.goto(KURTA)
      await waitForHydration(page)
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight / 2))
      const bar = page.getByTestId('buy-bar')
      await expect.poll(async () => (await barState(bar)).visible).toBe(true)
      const add = bar.getByRole('button', { name: 'Add to cart' })
      // One line of text in a button at least 9 rem wide, inside the screen.
      const fit = await add.evaluate((el) => ({
        width: el.getBoundingClientRect().width,
        right: el.getBoundingClientRect().right,
        wraps: el.scrollWidth > el.clientWidth,
      }))
      expect(fit.width, `${width}px`).toBeGreaterThanOrEqual(140)
      expect(fit.right, `${width}px`).toBeLessThanOrEqual(width + 1)
      expect(fit.wraps, `${width}px`).toBe(false)
    }
  })
})

/**
 * The first product of the women's category whose page gives a delivery estimate, as a path: which
 * product is first depends on what other specs on the same shop created, and not every product has
 * an estimate (a made-to-order piece without a lead time has none).
 */
async function womenProductWithDelivery(page: Page): Promise<string> {
  const html = await (await page.request.get('/c/women')).text()
  const hrefs = [...new Set([...html.matchAll(/href="(\/p\/[^"]+)"/g)].map((m) => m[1] as string))]
  for (const href of hrefs.slice(0, 6)) {
    if ((await (await page.request.get(href)).text()).includes('data-testid="estimated-delivery"'))
      return href
  }
  throw new Error('none of the first products on /c/women gives a delivery estimate')
}

test('on the product page nothing is left empty between the delivery line and the PIN check', async ({
  page,
}) => {
  const path = await womenProductWithDelivery(page)
  for (const viewport of [PHONE, DESKTOP]) {
    await page.setViewportSize(viewport)
    await page.goto(path)
    await waitForHydration(page)
    const delivery = (await page.getByTestId('estimated-delivery').boundingBox()) as Box
    const actions = (await page.locator('.product-actions').boundingBox()) as Box
    const pin = (await page.getByTestId('pin-check').boundingBox()) as Box
    // The form's buttons sit right under the delivery line, the PIN check right under them.
    expect(actions.y - (delivery.y + delivery.height), `${viewport.width}px`).toBeLessThanOrEqual(24)
    expect(pin.y - (actions.y + actions.height), `${viewport.width}px`).toBeLessThanOrEqual(24)
  }
})

test('the product gallery and details draw their icons from the sprite, never glyphs', async ({ page }) => {
  await page.setViewportSize(DESKTOP)
  await page.goto(KURTA)
  await waitForHydration(page)
  const gallery = page.getByTestId('gallery')
  expect(await gallery.textContent()).not.toMatch(GLYPH_ICON)
  for (const name of ['Previous image', 'Next image']) {
    const button = gallery.getByRole('button', { name })
    await expect(button.locator('svg.icon use')).toHaveCount(1)
    expect((await button.textContent())?.trim()).toBe('')
  }
  // The disclosures' open/closed mark is an icon too, not a + or − character.
  const summaries = page.locator('.product-page__details summary')
  expect(await summaries.count()).toBeGreaterThan(0)
  for (const summary of await summaries.all()) {
    await expect(summary.locator('svg.icon')).toHaveCount(1)
    const marks = await summary.evaluate((el) =>
      ['::before', '::after'].map((p) => getComputedStyle(el, p).content),
    )
    for (const mark of marks) expect(mark === 'none' || mark === 'normal' || mark === '""').toBe(true)
    expect(await summary.textContent()).not.toMatch(GLYPH_ICON)
  }
})

test.describe('home hero on a desktop', () => {
  test.use({ viewport: DESKTOP })

  /** Indexes of the hero slides at least half inside the viewport. */
  async function slidesInView(page: Page): Promise<number[]> {
    return page.getByTestId('hero-slide').evaluateAll((slides) =>
      slides.flatMap((s, i) => {
        const r = s.getBoundingClientRect()
        const seen = Math.min(r.right, window.innerWidth) - Math.max(r.left, 0)
        return seen >= r.width / 2 ? [i] : []
      }),
    )
  }

  test('shows one banner at a time; previous, next and the dots move it', async ({ page }) => {
    await watchLayoutShifts(page)
    await page.goto('/')
    await waitForHydration(page)
    const hero = page.getByTestId('home-hero')
    const slides = hero.getByTestId('hero-slide')
    const count = await slides.count()
    expect(count).toBeGreaterThan(1)
    expect(await slidesInView(page)).toEqual([0])
    // The first banner is the page's largest paint: eager and first in line; the others wait.
    const imgs = slides.locator('img')
    await expect(imgs.first()).toHaveAttribute('loading', 'eager')
    await expect(imgs.first()).toHaveAttribute('fetchpriority', 'high')
    for (let i = 1; i < count; i++) await expect(imgs.nth(i)).toHaveAttribute('loading', 'lazy')

    const next = hero.getByRole('button', { name: 'Next slide' })
    const prev = hero.getByRole('button', { name: 'Previous slide' })
    await next.click()
    await expect.poll(() => slidesInView(page)).toEqual([1])
    await expect(hero.getByRole('button', { name: /^Slide 2 of / })).toHaveAttribute('aria-current', 'true')
    await prev.click()
    await expect.poll(() => slidesInView(page)).toEqual([0])
    // Previous from the first goes round to the last; a dot goes straight to its slide.
    await prev.click()
    await expect.poll(() => slidesInView(page)).toEqual([count - 1])
    await hero.getByRole('button', { name: /^Slide 1 of / }).click()
    await expect.poll(() => slidesInView(page)).toEqual([0])
    // Nothing plays by itself.
    await page.waitForTimeout(2_500)
    expect(await slidesInView(page)).toEqual([0])
    expect(await layoutShift(page)).toBe(0)
  })
})

test.describe('home hero without JavaScript', () => {
  test.use({ viewport: DESKTOP, javaScriptEnabled: false })

  test('every slide is reachable in the scroll-snap strip, one at a time', async ({ page }) => {
    await page.goto('/')
    const links = page.getByTestId('hero-slide').locator('a')
    const count = await links.count()
    expect(count).toBeGreaterThan(1)
    for (let i = 0; i < count; i++) {
      await links.nth(i).focus()
      await expect(links.nth(i)).toBeInViewport({ ratio: 0.9 })
    }
  })
})
