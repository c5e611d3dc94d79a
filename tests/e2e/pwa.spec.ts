import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { type APIRequestContext, expect, test } from '@playwright/test'
import { waitForHydration } from './pages'
import { waitForServiceWorkerControl } from './sw-helpers'

// This spec tests the service worker (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' })

// Installable PWA and safe updates: the manifest and icons, and a new service worker that
// announces itself instead of swapping code under an open page.

const root = path.resolve(import.meta.dirname, '../..')
const MSG_SW_UPDATED = 'A new version of the shop is available.'
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

interface ManifestIcon {
  src: string
  sizes?: string
  type?: string
  purpose?: string
}

test('the web app manifest is linked and installable; the worker controls the start URL, also offline', async ({
  page,
  request,
  context,
}) => {
  await page.goto('/')
  const href = await page.locator('link[rel="manifest"]').getAttribute('href')
  expect(href).toBeTruthy()
  const res = await request.get(href ?? '')
  expect(res.status()).toBe(200)
  const manifest = JSON.parse(await res.text()) as {
    name?: string
    short_name?: string
    start_url?: string
    scope?: string
    display?: string
    theme_color?: string
    background_color?: string
    icons?: ManifestIcon[]
  }
  expect(manifest.name?.length).toBeGreaterThan(0)
  expect(manifest.short_name?.length).toBeGreaterThan(0)
  expect(manifest.short_name?.length).toBeLessThanOrEqual(12) // shown under the home-screen icon
  expect(manifest.display).toBe('standalone')
  expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i)
  expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/i)
  await expect(page.locator('meta[name="theme-color"]')).toHaveCount(1)
  const startUrl = new URL(manifest.start_url ?? '', page.url())
  expect(startUrl.origin).toBe(new URL(page.url()).origin)
  expect(startUrl.pathname.startsWith(manifest.scope ?? '/')).toBe(true)

  // PNG icons 192 and 512 (any) plus a maskable one: served, real PNGs of the declared size.
  const icons = manifest.icons ?? []
  const png = (size: number, purpose: string) =>
    icons.find(
      (i) =>
        i.type === 'image/png' &&
        i.sizes?.split(' ').includes(`${size}x${size}`) &&
        (i.purpose ?? 'any').split(' ').includes(purpose),
    )
  const wanted = [png(192, 'any'), png(512, 'any'), png(512, 'maskable')]
  expect(wanted.every(Boolean)).toBe(true)
  for (const icon of wanted as ManifestIcon[]) {
    const r = await request.get(icon.src)
    expect(r.status()).toBe(200)
    expect(r.headers()['content-type']).toBe('image/png')
    const bytes = await r.body()
    expect([...bytes.subarray(0, 8)]).toEqual(PNG_SIGNATURE)
    expect(bytes.toString('latin1', 12, 16)).toBe('IHDR')
    const size = `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`
    expect(icon.sizes?.split(' ')).toContain(size)
  }

  // The service worker controls the start URL, and the start URL opens offline.
  await waitForHydration(page)
  await waitForServiceWorkerControl(page)
  await page.goto(startUrl.href)
  await waitForHydration(page)
  expect(await page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true)
  await context.setOffline(true)
  const offline = await page.goto(startUrl.href)
  expect(offline?.status()).toBe(200)
  await waitForHydration(page)
  await expect(page.locator('html')).toHaveAttribute('data-build', /^[0-9a-f]{12}$/)
  await context.setOffline(false)
})

/** Runs the client build (BUILD_SALT set → a new build id for the same bytes: a simulated deploy). */
function buildClient(salt?: string): string {
  const env = { ...process.env }
  if (salt) env.BUILD_SALT = salt
  else delete env.BUILD_SALT
  execFileSync(process.execPath, [path.join(root, 'scripts/build-client.mjs'), '--quiet'], {
    cwd: root,
    env,
    stdio: 'pipe',
  })
  return manifestBuild()
}

function manifestBuild(): string {
  const manifest = JSON.parse(
    readFileSync(path.join(root, 'worker/platform/render/manifest.generated.json'), 'utf8'),
  )
  return String(manifest.buildId)
}

/**
 * The build id the shop serves now; none while it serves none. The local shop deploys by restarting
 * its runtime on the same port, which refuses connections for a moment (a platform deploy does not).
 */
async function servedBuild(request: APIRequestContext): Promise<string | undefined> {
  const res = await request.get('/', { headers: { 'cache-control': 'no-cache' } }).catch(() => null)
  return res ? /data-build="([0-9a-f]+)"/.exec(await res.text())?.[1] : undefined
}

// Last in this file (and pwa.spec.ts sorts last): it rebuilds the client and restores it afterwards.
test('a new deploy while a page is open: the update notification, then Reload serves the new build', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000)
  await page.goto('/')
  await waitForHydration(page)
  await waitForServiceWorkerControl(page)
  // A fresh page under the controlling worker, as a returning shopper would have.
  await page.reload()
  await waitForHydration(page)
  await expect(page.locator('html')).toHaveAttribute('data-sw', 'registered', { timeout: 15_000 })
  const oldBuild = (await page.locator('html').getAttribute('data-build')) ?? ''
  expect(oldBuild).toMatch(/^[0-9a-f]{12}$/)

  let newBuild = ''
  const salt = `e2e-${Date.now()}`
  try {
    newBuild = buildClient(salt)
    expect(newBuild).not.toBe(oldBuild)
    // The shop deploys a new client build: a new worker (new manifest) serving the new public/. The checkout is
    // shared: if another engineer's build overwrote ours meanwhile, deploy ours again.
    await expect
      .poll(
        async () => {
          if (manifestBuild() !== newBuild) newBuild = buildClient(salt)
          return (await servedBuild(request)) === newBuild
        },
        { timeout: 30_000 },
      )
      .toBe(true)

    // The browser checks for an update (as it does on navigation or every 24 h).
    await page.evaluate(async () => {
      const reg = await navigator.serviceWorker.getRegistration()
      await reg?.update()
    })
    const note = page.getByTestId('notification').filter({ hasText: MSG_SW_UPDATED })
    await expect(note).toBeVisible({ timeout: 15_000 })
    await note.getByRole('button', { name: 'Reload' }).click()
    await expect(page.locator('html')).toHaveAttribute('data-build', newBuild)
    await waitForHydration(page)
    // The new worker took over and the old build's caches are gone.
    const names = await page.evaluate(() => caches.keys())
    expect(names.some((n) => n.endsWith(`-${newBuild}`))).toBe(true)
    expect(names.filter((n) => n.endsWith(`-${oldBuild}`))).toEqual([])
  } finally {
    // Restore the build the other specs expect (same sources → the original build id).
    const restored = buildClient()
    await expect.poll(() => servedBuild(request), { timeout: 30_000 }).toBe(restored)
  }
})
