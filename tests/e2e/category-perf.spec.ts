import { expect, type Locator, test } from '@playwright/test'
import { SCROLL_RESTORE_OFFSET_PX } from '../../shared/config/ui'
import { waitForHydration } from './pages'

// The category page draws tiles below the first screen only when they come near it, and the home
// page its blocks there (rails, banners, the footer); the listing's hydration adopts the tiles past
// its first row as served; the header's panels answer the very first click after load.

test.describe("the header's panels open on the very first click after load", () => {
  test.beforeEach(async ({ page }) => {
    await page.goto('/women')
  })

  test('the cart button opens the mini-cart (not the cart page)', async ({ page }) => {
    await page.getByTestId('minicart').click()
    await expect(page.getByTestId('microcart-panel')).toBeVisible()
    await expect(page).toHaveURL(/\/women$/)
  })

  test('the account button opens the sign-in dialog', async ({ page }) => {
    await page.getByTestId('account-button').click()
    await expect(page.getByTestId('auth-modal').getByLabel('Email address')).toBeVisible()
  })

  test('the wishlist button opens the wishlist', async ({ page }) => {
    await page.getByTestId('wishlist-button').click()
    await expect(page.getByTestId('wishlist-panel')).toBeVisible()
  })
})

test.describe('tiles below the first screen', () => {
  test.use({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true })

  test('are drawn when scrolled to, and the return from a product lands exactly on it', async ({ page }) => {
    test.setTimeout(90_000)
    await page.goto('/women')
    await waitForHydration(page)
    const tiles = page.locator('[data-testid="listing"] [data-testid="product-tile"]')
    const drawn = (i: number) =>
      tiles.nth(i).evaluate((el) => el.checkVisibility({ contentVisibilityAuto: true }))
    // The first row is drawn at once; a tile far below the first screen is not drawn yet…
    expect(await drawn(0)).toBe(true)
    expect(await drawn(20)).toBe(false)
    // …and is, with its picture and name, once scrolled to.
    await tiles.nth(20).scrollIntoViewIfNeeded()
    await expect.poll(() => drawn(20)).toBe(true)
    await expect(tiles.nth(20).getByTestId('tile-name')).toBeVisible()
    await expect(tiles.nth(20).locator('img.tile__img').first()).toBeInViewport()

    // Infinite scroll still pulls the next page in.
    await page.getByTestId('listing-sentinel').scrollIntoViewIfNeeded()
    await expect.poll(() => tiles.count(), { timeout: 20_000 }).toBeGreaterThan(30)

    // A fresh load after a product page scrolls the clicked tile to the usual place below the top,
    // although most tiles above it have never been drawn on that load.
    const target = tiles.nth(30)
    await target.scrollIntoViewIfNeeded()
    const sku = await target.getAttribute('data-sku')
    await target.locator('a.tile__link').click()
    await page.waitForURL(/\/p\//, { waitUntil: 'commit' })
    await page.goto('/women')
    const back = page.locator(`[data-testid="listing"] [data-sku="${sku}"] a.tile__link`)
    await expect(back).toBeInViewport({ timeout: 20_000 })
    const top = () => back.evaluate((el) => Math.round(el.getBoundingClientRect().top))
    await expect.poll(top).toBe(SCROLL_RESTORE_OFFSET_PX)
    // And it stays there while the tiles around it are drawn.
    await page.waitForTimeout(500)
    expect(await top()).toBe(SCROLL_RESTORE_OFFSET_PX)
  })
})

test.describe('hydrating the listing', () => {
  test('adopts the tiles and the filter panel as the page has them, and they answer as rendered ones do', async ({
    page,
  }) => {
    // The page as served with the first and the seventh tile and the first filter option renamed in
    // its markup only, not in the island's props. Hydration takes them as they stand without walking
    // them, so they keep the names the markup had (rendering them, as before, would set them back).
    await page.route('**/women', async (route) => {
      const response = await route.fetch()
      let n = 0
      const body = (await response.text())
        .replace(/(<h3 class="tile__name"[^>]*>)[^<]*(<\/h3>)/g, (whole, open: string, close: string) => {
          n += 1
          return n === 1 || n === 7 ? `${open}Renamed ${n}${close}` : whole
        })
        .replace(/(<span class="filter__label">)[^<]*(<\/span>)/, '$1Renamed option$2')
      await route.fulfill({ response, body })
    })
    await page.goto('/women')
    await waitForHydration(page)
    const names = page.locator('[data-testid="listing"] [data-testid="tile-name"]')
    await expect(names.nth(0)).toHaveText('Renamed 1')
    await expect(names.nth(6)).toHaveText('Renamed 7')
    const option = page.locator('[data-testid="filter-option"]').first()
    await expect(option.locator('.filter__label')).toHaveText('Renamed option')

    // The adopted panel answers its options in place: the grid is filtered without loading a page.
    await page.evaluate(() => {
      ;(window as { stayed?: boolean }).stayed = true
    })
    const attr = await option.getAttribute('data-attr')
    const id = await option.getAttribute('data-id')
    await option.click()
    await expect(page).toHaveURL(new RegExp(`[?&]${attr}=${id}(&|$)`))
    await expect(page.getByTestId('filter-chip')).toHaveCount(1)
    // Rendered from the new groups now: the option has its own name back, and is chosen.
    const chosen = page.locator(`[data-testid="filter-option"][data-attr="${attr}"][data-id="${id}"]`)
    await expect(chosen).toHaveAttribute('aria-checked', 'true')
    await expect(chosen.locator('.filter__label')).not.toHaveText('Renamed option')
    // Space on an option toggles it too; clear-all clears.
    await chosen.focus()
    await page.keyboard.press(' ')
    await expect(page.getByTestId('filter-chip')).toHaveCount(0)
    await expect(page).not.toHaveURL(new RegExp(`[?&]${attr}=`))
    await option.click()
    await expect(page.getByTestId('filter-chip')).toHaveCount(1)
    await page.getByTestId('filters-clear').click()
    await expect(page.getByTestId('filter-chip')).toHaveCount(0)
    expect(await page.evaluate(() => (window as { stayed?: boolean }).stayed)).toBe(true)

    // The adopted tiles answer as before: a click on one opens its product.
    await names.nth(6).click()
    await page.waitForURL(/\/p\//)
  })

  test.describe('on a phone', () => {
    test.use({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true })

    test("the adopted filter panel's Done button closes it", async ({ page }) => {
      await page.goto('/women')
      await waitForHydration(page)
      await page.locator('.listing__filters-btn').click()
      await expect(page.getByTestId('filters')).toHaveClass(/filters--open/)
      await page.locator('.filters__close').click()
      await expect(page.getByTestId('filters')).not.toHaveClass(/filters--open/)
    })
  })
})

test.describe("the home page's blocks below the first screen", () => {
  test.use({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true })

  test('are drawn when scrolled to, the footer too', async ({ page }) => {
    await page.goto('/')
    await waitForHydration(page)
    const drawn = (l: Locator) => l.evaluate((el) => el.checkVisibility({ contentVisibilityAuto: true }))
    const firstRail = page.getByTestId('home-section').first().locator('a').first()
    // Chrome draws such blocks up to a viewport and a half below the screen: the fourth rail starts
    // further down than that.
    const fourthRail = page.getByTestId('home-section').nth(3).locator('a').first()
    const footerLink = page.locator('footer.footer a').first()
    // A rail far below the first screen and the footer are not drawn yet…
    expect(await drawn(fourthRail)).toBe(false)
    expect(await drawn(footerLink)).toBe(false)
    // …and are, once scrolled to; a block scrolled past stays where it was drawn.
    await fourthRail.scrollIntoViewIfNeeded()
    await expect.poll(() => drawn(fourthRail)).toBe(true)
    await expect(fourthRail).toBeInViewport()
    await footerLink.scrollIntoViewIfNeeded()
    await expect.poll(() => drawn(footerLink)).toBe(true)
    await expect(footerLink).toBeInViewport()
    await firstRail.scrollIntoViewIfNeeded()
    await expect(firstRail).toBeInViewport()
  })
})
