import { expect, type Page } from '@playwright/test'

/**
 * Waits until the service worker controls this page (it registers when the page is idle and claims
 * open pages on activate); reloads once if it does not (e.g. the dev server was reloading).
 */
export async function waitForServiceWorkerControl(page: Page): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const controlled = await page
      .waitForFunction(() => Boolean(navigator.serviceWorker.controller), undefined, { timeout: 10_000 })
      .then(
        () => true,
        () => false,
      )
    if (controlled) return
    await page.reload()
  }
  throw new Error('the service worker never controlled the page')
}

/**
 * The images inside the viewport now, hover images (opacity 0) excluded: the URL the browser chose
 * (current: '' before it chose one), that URL or the src attribute (src), whether real pixels have
 * loaded (ok).
 */
function viewportImages(page: Page): Promise<{ current: string; src: string; ok: boolean }[]> {
  return page.$$eval('img', (imgs) =>
    imgs
      .filter((img) => {
        const r = img.getBoundingClientRect()
        return (
          r.width > 0 &&
          r.height > 0 &&
          r.bottom > 0 &&
          r.right > 0 &&
          r.top < innerHeight &&
          r.left < innerWidth &&
          getComputedStyle(img).opacity !== '0'
        )
      })
      .map((img) => ({
        current: img.currentSrc,
        src: img.currentSrc || img.src,
        ok: img.complete && img.naturalWidth > 0,
      })),
  )
}

/** The loaded images currently shown inside the viewport (absolute URLs of this origin; hover images excluded). */
export async function visibleImageUrls(page: Page): Promise<string[]> {
  await expectVisibleImagesLoaded(page)
  const origin = new URL(page.url()).origin
  return (await viewportImages(page)).map((i) => i.current).filter((u) => u.startsWith(origin))
}

/** Waits until every URL is in one of the Cache Storage caches (the SW caches them asynchronously). */
export async function waitUntilCached(page: Page, urls: string[]): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate(async (list) => {
          for (const u of list) if (!(await caches.match(u))) return u
          return 'all cached'
        }, urls),
      { timeout: 15_000 },
    )
    .toBe('all cached')
}

/** Every image in the viewport has loaded with real pixels; returns how many there are. */
export async function expectVisibleImagesLoaded(page: Page): Promise<number> {
  let count = 0
  await expect
    .poll(
      async () => {
        const state = await viewportImages(page)
        count = state.length
        return state.filter((s) => !s.ok).map((s) => s.src)
      },
      { timeout: 10_000 },
    )
    .toEqual([])
  return count
}
