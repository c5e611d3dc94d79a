import { expect, type Page, test } from '@playwright/test'
import { waitForHydration } from './pages'
import {
  expectVisibleImagesLoaded,
  visibleImageUrls,
  waitForServiceWorkerControl,
  waitUntilCached,
} from './sw-helpers'

// This spec tests the service worker (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' })

// Offline-first: pages the shopper has seen work offline with their images, through the REAL
// service worker (public/service-worker.js); an unvisited page shows the offline message and goes
// home.

const OFFLINE_REDIRECT_MESSAGE =
  'The product, category or CMS page is not available in Offline mode. Redirecting to Home.'
const SCROLL_PAUSED = 'You are offline: more products will load when you are back online.'

const tiles = (page: Page) => page.locator('[data-testid="listing"] [data-testid="product-tile"]')

/** Visits a page and waits until the worker has cached the document and its visible images. */
async function visit(page: Page, url: string): Promise<void> {
  await page.goto(url)
  await waitForHydration(page)
  const images = await visibleImageUrls(page)
  expect(images.length).toBeGreaterThan(0)
  await waitUntilCached(page, [page.url(), ...images])
}

test('seen pages work offline with their images; unvisited pages go home; back online works again', async ({
  page,
  context,
}) => {
  test.setTimeout(90_000)
  await page.goto('/')
  await waitForHydration(page)
  await waitForServiceWorkerControl(page)

  // Browse while online: home, a category and two of its products.
  await visit(page, '/')
  await visit(page, '/women')
  const productUrls = await tiles(page)
    .locator('a[href^="/p/"]')
    .evaluateAll((links) => [...new Set(links.map((a) => (a as HTMLAnchorElement).pathname))].slice(0, 3))
  expect(productUrls).toHaveLength(3)
  const unvisitedProduct = productUrls.pop() ?? ''
  const productNames: string[] = []
  for (const url of productUrls) {
    await visit(page, url)
    productNames.push(((await page.locator('h1').first().textContent()) ?? '').trim())
  }
  expect(productNames.every((n) => n.length > 0)).toBe(true)

  await context.setOffline(true)
  expect(await page.evaluate(() => navigator.onLine)).toBe(false)

  // Each seen page reloads from the worker's cache, rendered, hydrated, with its images.
  await page.goto('/')
  await waitForHydration(page)
  await expect(page.locator('main')).toBeVisible()
  expect(await expectVisibleImagesLoaded(page)).toBeGreaterThan(0)

  await page.goto('/women')
  await waitForHydration(page)
  await expect(page.getByRole('heading', { level: 1, name: 'Women' })).toBeVisible()
  await expect(page.locator('[data-testid="listing"] [data-testid="tile-price"]').first()).toContainText('₹')
  expect(await expectVisibleImagesLoaded(page)).toBeGreaterThan(0)

  // Infinite scroll pauses offline: the bottom of the grid says so and nothing more is pulled.
  const firstPage = await tiles(page).count()
  expect(firstPage).toBe(24)
  await page.getByTestId('listing-sentinel').scrollIntoViewIfNeeded()
  await expect(page.getByText(SCROLL_PAUSED)).toBeVisible()
  await page.waitForTimeout(800)
  expect(await tiles(page).count()).toBe(firstPage)

  for (const [i, url] of productUrls.entries()) {
    await page.goto(url)
    await waitForHydration(page)
    await expect(page.locator('h1').first()).toHaveText(productNames[i] ?? '')
    await expect(page.getByTestId('price-final')).toContainText('₹')
    await expect(page.getByTestId('gallery-main')).toBeVisible()
    expect(await expectVisibleImagesLoaded(page)).toBeGreaterThan(0)
  }

  // Search offline: the result is flagged offline (empty, or from the catalogue cache).
  await page.getByTestId('search-button').click()
  await page.getByTestId('search-input').fill('zzqx velvet')
  await expect(page.getByTestId('search-offline')).toBeVisible()
  await page.keyboard.press('Escape')

  // An unvisited category: the offline message, then the browser ends on the (cached) home page.
  await page.goto('/men')
  await expect(page.getByText(OFFLINE_REDIRECT_MESSAGE)).toBeVisible()
  await expect(page).toHaveURL(/\/$/, { timeout: 10_000 })
  await waitForHydration(page)
  expect(await expectVisibleImagesLoaded(page)).toBeGreaterThan(0)

  // The same for a product page never opened.
  await page.goto(unvisitedProduct)
  await expect(page.getByText(OFFLINE_REDIRECT_MESSAGE)).toBeVisible()
  await expect(page).toHaveURL(/\/$/, { timeout: 10_000 })
  await waitForHydration(page)

  // Back online: the listing continues where it paused, and unvisited pages load again.
  await page.goto('/women')
  await waitForHydration(page)
  await context.setOffline(false)
  await page.getByTestId('listing-sentinel').scrollIntoViewIfNeeded()
  await expect.poll(() => tiles(page).count(), { timeout: 15_000 }).toBeGreaterThan(firstPage)

  await page.goto('/men')
  await expect(page.getByRole('heading', { level: 1, name: 'Men' })).toBeVisible()
  await waitForHydration(page)
  expect(await expectVisibleImagesLoaded(page)).toBeGreaterThan(0)
})

test('an image kept under another Accept than the <img> sends is still served offline', async ({
  page,
  context,
}) => {
  await page.goto('/')
  await waitForHydration(page)
  await waitForServiceWorkerControl(page)
  const [seen] = await visibleImageUrls(page)
  expect(seen).toBeTruthy()
  // An uploaded photo is answered by Accept (AVIF, WebP or JPEG) with `Vary: Accept`; the worker's
  // warm-up of a page's loaded URLs keeps it under a plain request (no image Accept). That is the
  // entry laid down here, for an address of its own, in the worker's image cache.
  const url = new URL(seen as string)
  url.pathname = url.pathname.replace(/\.svg$/, '-vary.svg')
  const kept = await page.evaluate(
    async ({ from, to }) => {
      const name = (await caches.keys()).find((n) => n.startsWith('shop-images-'))
      if (!name) return 'no image cache'
      const res = await fetch(from)
      const headers = new Headers(res.headers)
      headers.set('vary', 'Accept')
      await (await caches.open(name)).put(to, new Response(await res.blob(), { headers }))
      return 'kept'
    },
    { from: seen as string, to: url.href },
  )
  expect(kept).toBe('kept')

  await context.setOffline(true)
  // Asked as an <img> asks (image Accept), offline: the worker answers it from its cache.
  const offline = await page.evaluate(async (u) => {
    try {
      const res = await fetch(u, { headers: { accept: 'image/avif,image/webp,image/*,*/*;q=0.8' } })
      return res.status
    } catch {
      return 'failed'
    }
  }, url.href)
  await context.setOffline(false)
  expect(offline).toBe(200)
})
