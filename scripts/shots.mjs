#!/usr/bin/env node
// `npm run shots`: screenshots of a fixed list of pages at a desktop and a phone size, so anyone can
// look at the shop without clicking through it. Starts the shop like the browser tests do (its own
// port and local state under .tmp/), drives Debian's Chromium with the browser tests' flags, and
// writes full-page PNGs into shots/ (git-ignored). Not part of `npm test`.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { CHROMIUM_ARGS } from '../tests/helpers/chromium.mjs'
import { die, oneLineErrors, parseArgs, root, spawnLong } from './lib.mjs'

const args = parseArgs(
  `
usage: npm run shots -- [options]

Renders home, category, product, search, cart, checkout, a CMS page, the 404 page, an AMP product
and, for a demo shopper it signs in (registered on first use), their account, orders and wishlist,
at 1366×900 (desktop) and 390×844 (phone) into PNG files, one per page and size.
More sizes on request: 320×720 (small-phone), 800×1000 (tablet), 1440×900 (wide).

options:
  --port N          port of the shop it starts (default 8797; its state lives in .tmp/shots-state)
  --base-url URL    photograph a shop that is already running there instead of starting one
  --out DIR         where the PNGs go (default shots/; emptied first)
  --only a,b        only these pages (names as listed above: home, category, product, search, cart,
                    checkout, account, orders, wishlist, cms, not-found, amp-product)
  --sizes a,b       these sizes (desktop, phone, small-phone, tablet, wide; default desktop,phone)
  -h, --help        print this help and do nothing else
`,
  { options: ['--port', '--base-url', '--out', '--only', '--sizes'], positionals: 0 },
)
oneLineErrors()

const port = Number(args.port ?? 8797)
const given = args.baseUrl
const out = path.resolve(root, args.out ?? 'shots')
const only = args.only?.split(',')
const sizeNames = (args.sizes ?? 'desktop,phone').split(',')
if (!Number.isInteger(port) || port < 1024 || port > 65535) die('--port needs a number from 1024 to 65535')
const base = (given ?? `http://127.0.0.1:${port}`).replace(/\/$/, '')

const ALL_SIZES = [
  { name: 'desktop', viewport: { width: 1366, height: 900 }, isMobile: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true },
  { name: 'small-phone', viewport: { width: 320, height: 720 }, isMobile: true },
  { name: 'tablet', viewport: { width: 800, height: 1000 }, isMobile: false },
  { name: 'wide', viewport: { width: 1440, height: 900 }, isMobile: false },
]
const SIZES = ALL_SIZES.filter((s) => sizeNames.includes(s.name))
if (SIZES.length !== sizeNames.length) die('--sizes names sizes that are not in the list (see --help)')

/** Waits until the shop answers (the same probe the browser tests' web server uses). */
async function waitForShop(url, ms) {
  const until = Date.now() + ms
  while (Date.now() < until) {
    try {
      const res = await fetch(`${url}/raw-output-example.xml`)
      if (res.ok) return
    } catch {}
    await new Promise((r) => setTimeout(r, 1000))
  }
  die(`the shop at ${url} did not answer within ${ms / 1000} s`, 1)
}

let server = null
if (!given) {
  console.log(`starting the shop on port ${port} (state in .tmp/shots-state)…`)
  server = spawnLong(
    'node',
    ['scripts/start.mjs', '--port', String(port), '--persist-to', '.tmp/shots-state'],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
      detached: true,
    },
  )
  const stop = () => {
    if (server && server.exitCode === null) process.kill(-server.pid, 'SIGTERM')
  }
  process.on('exit', stop)
  process.on('SIGINT', () => process.exit(130))
}
await waitForShop(base, 240_000)

const { chromium } = await import('playwright-core')
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: CHROMIUM_ARGS,
})

/** The first product of the women's category (the demo catalogue's), as a path. */
async function firstProductPath() {
  const html = await (await fetch(`${base}/c/women`)).text()
  const href = html.match(/href="(\/p\/[^"]+)"/)?.[1]
  if (!href) die('no product link on /c/women: is the demo catalogue seeded?', 1)
  return href
}

/** Best effort: picks the first available option of each choice and adds the product to the bag. */
async function addToBag(page, productPath) {
  await page.goto(`${base}${productPath}`, { waitUntil: 'networkidle' })
  for (const group of await page.locator('[data-testid="product-form"] fieldset').all()) {
    const first = group.locator('button:not([disabled])').first()
    if (await first.count()) await first.click().catch(() => {})
  }
  await page
    .getByTestId('add-to-cart')
    .click({ timeout: 5_000 })
    .catch(() => {})
  await page
    .waitForFunction(
      () => Number(document.querySelector('[data-testid="minicart-count"]')?.textContent) > 0,
      null,
      {
        timeout: 5_000,
      },
    )
    .catch(() => console.warn('  (the bag stays empty: the product could not be added)'))
}

/** The demo shopper the account pages are photographed for (registered once, on the first need). */
const SHOPPER = { email: 'shots.shopper@example.com', password: 'Shots-Shopper-2026' }
let registered = false

/**
 * Signs the demo shopper in through the header's sign-in dialog, as a shopper does (registering
 * them first if the shop does not know them: registration answers alike for a taken address), and
 * puts the product in their wishlist so the wishlist is not empty.
 */
async function signIn(page, productPath) {
  if (!registered) {
    const res = await fetch(`${base}/api/user/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        customer: { email: SHOPPER.email, firstname: 'Asha', lastname: 'Rao' },
        password: SHOPPER.password,
      }),
    })
    if (!res.ok) die(`registering the demo shopper answered ${res.status}: ${await res.text()}`, 1)
    registered = true
  }
  await page.goto(`${base}${productPath}`, { waitUntil: 'networkidle' })
  await page.evaluate(() => window.dispatchEvent(new CustomEvent('auth:open', { detail: { mode: 'login' } })))
  const modal = page.getByTestId('auth-modal')
  await modal.getByLabel('Email address').fill(SHOPPER.email)
  await modal.getByLabel('Password').fill(SHOPPER.password)
  await modal.getByRole('button', { name: 'Log in' }).click()
  await modal.waitFor({ state: 'hidden', timeout: 30_000 })
  const heart = page.getByTestId('add-to-wishlist')
  if ((await heart.getAttribute('aria-pressed').catch(() => null)) !== 'true')
    await heart.click({ timeout: 5_000 }).catch(() => console.warn('  (the wishlist stays empty)'))
  await page.waitForLoadState('networkidle')
}

const product = await firstProductPath()
const PAGES = [
  { name: 'home', path: '/' },
  { name: 'category', path: '/c/women' },
  { name: 'product', path: product },
  { name: 'search', path: '/search?q=silk' },
  { name: 'cart', path: '/cart', before: (page) => addToBag(page, product) },
  { name: 'checkout', path: '/checkout', before: (page) => addToBag(page, product) },
  { name: 'account', path: '/my-account', before: (page) => signIn(page, product) },
  { name: 'orders', path: '/my-account/orders', before: (page) => signIn(page, product) },
  { name: 'wishlist', path: '/wishlist', before: (page) => signIn(page, product) },
  { name: 'cms', path: '/i/about-us' },
  { name: 'not-found', path: '/this-page-does-not-exist' },
  { name: 'amp-product', path: `/amp${product}` },
].filter((p) => !only || only.includes(p.name))
if (only && PAGES.length !== only.length) die(`--only names pages that are not in the list (see --help)`)

rmSync(out, { recursive: true, force: true })
mkdirSync(out, { recursive: true })
const written = []
try {
  for (const size of SIZES) {
    for (const shot of PAGES) {
      // A fresh browser context per shot: no bag, popup or cookie carries over from the last page.
      const context = await browser.newContext({
        viewport: size.viewport,
        isMobile: size.isMobile,
        hasTouch: size.isMobile,
      })
      // The home popups wait for the shopper; a screenshot is not a shopper, so they stay away.
      await context.addInitScript(() =>
        sessionStorage.setItem('home-popups-seen', 'generic_popup,exit_popup'),
      )
      const page = await context.newPage()
      if (shot.before) await shot.before(page)
      const res = await page.goto(`${base}${shot.path}`, { waitUntil: 'networkidle' })
      // Lazy images below the fold: scroll through once so the full-page picture shows them.
      await page.evaluate(async () => {
        for (let y = 0; y < document.body.scrollHeight; y += window.innerHeight / 2) {
          window.scrollTo(0, y)
          await new Promise((r) => setTimeout(r, 60))
        }
        window.scrollTo(0, 0)
      })
      await page.waitForLoadState('networkidle')
      const file = path.join(out, `${shot.name}-${size.name}.png`)
      await page.screenshot({ path: file, fullPage: true })
      written.push({
        file: path.relative(root, file),
        page: shot.path,
        size: size.name,
        status: res?.status(),
      })
      console.log(`${String(res?.status()).padEnd(4)}${path.relative(root, file)}  ${shot.path}`)
      await context.close()
    }
  }
} finally {
  await browser.close()
}
writeFileSync(path.join(out, 'shots.json'), `${JSON.stringify({ base, shots: written }, null, 2)}\n`)
console.log(`${written.length} screenshots in ${path.relative(root, out)}/`)
process.exit(0)
