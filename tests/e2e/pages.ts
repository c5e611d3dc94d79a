import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { type APIRequestContext, expect, type Page, test } from '@playwright/test'

const E2E_ROOT = path.resolve(import.meta.dirname, '../..')

/**
 * The local state of the shop the running test talks to (migrated and seeded by
 * scripts/start.mjs): each project of playwright.config.ts names its shop's in its metadata.
 */
function statePath(): string {
  return (test.info().project.metadata as { persistTo?: string }).persistTo ?? '.tmp/e2e-state'
}

/** Waits until every island on the page has hydrated (the data-hydrated marker). */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const islands = document.querySelectorAll('[data-island]')
    return islands.length > 0 && [...islands].every((el) => (el as HTMLElement).dataset.hydrated === 'true')
  })
}

/**
 * Picks a currency in the header and waits for the page it reloads into: the new document names
 * the currency on <html> and its islands have hydrated. (Waiting for a 'load' event instead can
 * catch the old document's own, still-pending load, and a navigation started then collides with
 * the reload.)
 */
export async function switchCurrency(page: Page, code: string): Promise<void> {
  await page.getByTestId('currency-switcher').selectOption(code)
  await expect(page.locator('html')).toHaveAttribute('data-currency', code)
  await waitForHydration(page)
}

/** The back-office operator the browser tests sign in as (created with the command-line tool). */
export const OPERATOR = { email: 'e2e-owner@ops.test', password: 'e2e-owner-password' }

/** The shops (by state folder) this worker process has made the test operator in. */
const operatorMadeIn = new Set<string>()

/**
 * Creates (or resets) the test operator as an owner in the e2e database of the test's shop, once
 * per shop in a worker process (the command-line tool applies the migrations first and takes
 * seconds; no spec changes the operator, so a second run would write the same row).
 */
export function createTestOperator(): void {
  if (operatorMadeIn.has(statePath())) return
  execFileSync(
    process.execPath,
    ['scripts/admin.mjs', 'create-operator', OPERATOR.email, '--persist-to', statePath()],
    {
      cwd: E2E_ROOT,
      env: { ...process.env, ADMIN_PASSWORD: OPERATOR.password },
      stdio: 'ignore',
    },
  )
  operatorMadeIn.add(statePath())
}

/**
 * Signs the test operator in to the back office the way a script does (the sign-in answers JSON
 * bodies too): the session cookie lands in the page's context without loading the sign-in form or
 * the dashboard. The form itself is tested by signInOperatorByForm (admin.spec.ts).
 */
export async function signInOperator(page: Page): Promise<void> {
  const res = await page.request.post('/admin/login', { data: OPERATOR })
  expect(res.status(), await res.text()).toBe(200)
}

/** Signs the test operator in to the back office through the local sign-in form. */
export async function signInOperatorByForm(page: Page): Promise<void> {
  await page.goto('/admin')
  await expect(page).toHaveURL(/\/admin\/login$/)
  await page.getByLabel('E-mail').fill(OPERATOR.email)
  await page.getByLabel('Password').fill(OPERATOR.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible()
}

/**
 * Runs one SQL statement on the local D1 of the test's shop, straight on its SQLite file (the
 * shop's workerd sees a write at once; SQLite's own locking orders the two). Spawning
 * `wrangler d1 execute` for this took seconds per statement.
 */
export function d1<T>(sql: string): T[] {
  const dir = path.join(E2E_ROOT, statePath(), 'v3/d1/miniflare-D1DatabaseObject')
  const file = readdirSync(dir).find((f) => f.endsWith('.sqlite') && f !== 'metadata.sqlite')
  if (!file) throw new Error(`no local D1 database in ${dir}`)
  const db = new DatabaseSync(path.join(dir, file))
  try {
    // The shop's workerd writes the same file: a statement that meets its lock waits for it (as
    // workerd's own do) instead of failing at once with "database is locked" on a busy machine.
    db.exec('PRAGMA busy_timeout = 10000')
    const statement = db.prepare(sql)
    if (/^\s*(SELECT|WITH)\b/i.test(sql)) return statement.all() as T[]
    statement.run()
    return []
  } finally {
    db.close()
  }
}

/**
 * Purges the shop's cached pages carrying `tags` (e.g. `P{sku}` for a product's pages), the way an
 * import or a back-office edit does after writing: a test that edits the catalogue with d1() must
 * call it, or a page cached by an earlier test is served (stale, while it revalidates) without the
 * edit. The key is the shop's INVALIDATE_KEY from the local secrets (.dev.vars).
 */
export async function purgeCachedPages(request: APIRequestContext, tags: string[]): Promise<void> {
  const devVars = readFileSync(path.join(E2E_ROOT, '.dev.vars'), 'utf8')
  const key = devVars.match(/^INVALIDATE_KEY=(.+)$/m)?.[1]?.trim()
  if (!key) throw new Error('no INVALIDATE_KEY in .dev.vars')
  const res = await request.get(`/invalidate?tag=${encodeURIComponent(tags.join(','))}`, {
    headers: { 'x-invalidate-key': key },
  })
  expect(res.status(), await res.text()).toBe(200)
}

/**
 * A slow network on cue: a route handler awaits `hold` before letting its request through, and the
 * test calls `release()` once it has done what must happen before the answer arrives (instead of a
 * fixed delay that is either too short on a busy machine or wasted time on a quiet one).
 */
export function holdBack(): { hold: Promise<void>; release: () => void } {
  let release = () => {}
  const hold = new Promise<void>((resolve) => {
    release = resolve
  })
  return { hold, release }
}

/** A string as an SQL literal. */
export const sqlText = (s: string) => `'${s.replace(/'/g, "''")}'`

/**
 * How much wider than the window the page is, and the first elements that reach past its right edge
 * (with their widths). An element fixed to the window is not part of the page's width, and one
 * inside a sideways-scrolling box (`.scroll`, the back office's tables) overflows that box only.
 */
export function overflow(page: Page): Promise<{ extra: number; past: string[] }> {
  return page.evaluate(() => {
    const vw = document.documentElement.clientWidth
    const past = [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((e) => {
        const b = e.getBoundingClientRect()
        return (
          b.width > 0 &&
          b.right > vw + 1 &&
          getComputedStyle(e).position !== 'fixed' &&
          !e.parentElement?.closest('.scroll')
        )
      })
      .slice(0, 6)
      .map(
        (e) =>
          `${e.tagName.toLowerCase()}.${e.className} (${Math.round(e.getBoundingClientRect().width)} px)`,
      )
    return { extra: document.documentElement.scrollWidth - vw, past }
  })
}

/** Counts layout shifts from the start of the page (the CLS sum, input-driven shifts left out). */
export async function watchLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    ;(window as unknown as { __cls: number }).__cls = 0
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) {
        if (!e.hadRecentInput) (window as unknown as { __cls: number }).__cls += e.value
      }
    }).observe({ type: 'layout-shift', buffered: true })
  })
}

export const layoutShift = (page: Page) => page.evaluate(() => (window as unknown as { __cls: number }).__cls)

/**
 * What the client keeps on the device: the IndexedDB database '<store>-shop' holds one object
 * store per kind ('<store>-user', '<store>-orders'). This runs inside the page: it reads one record
 * (key), all records (no key) or replaces one (put), and answers undefined when the kind's store
 * does not exist yet.
 */
async function shopStoreOp(op: {
  kind: string
  key?: string
  put?: boolean
  value?: unknown
}): Promise<unknown> {
  const store = document.documentElement.dataset.store ?? 'default'
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const req = indexedDB.open(`${store}-shop`)
    req.onsuccess = () => resolve(req.result)
    req.onerror = () => reject(req.error)
  })
  try {
    const name = `${store}-${op.kind}`
    if (!db.objectStoreNames.contains(name)) return undefined
    const tx = db.transaction(name, op.put ? 'readwrite' : 'readonly')
    const done = new Promise((resolve, reject) => {
      tx.oncomplete = resolve
      tx.onerror = () => reject(tx.error)
    })
    const os = tx.objectStore(name)
    const req = op.put ? os.put(op.value, op.key) : op.key === undefined ? os.getAll() : os.get(op.key)
    const result = await new Promise((resolve, reject) => {
      req.onsuccess = () => resolve(req.result)
      req.onerror = () => reject(req.error)
    })
    await done
    return op.put ? true : result
  } finally {
    db.close()
  }
}

/** Every record of one kind the client keeps on the device ([] when there is none yet). */
export async function storedRecords<T>(page: Page, kind: string): Promise<T[]> {
  return ((await page.evaluate(shopStoreOp, { kind })) as T[] | undefined) ?? []
}

/** One record the client keeps on the device, by kind and key (undefined when absent). */
export const storedRecord = (page: Page, kind: string, key: string): Promise<unknown> =>
  page.evaluate(shopStoreOp, { kind, key })

/** Replaces one record the client keeps on the device; false when the kind's store does not exist. */
export async function replaceStoredRecord(
  page: Page,
  kind: string,
  key: string,
  value: unknown,
): Promise<boolean> {
  return (await page.evaluate(shopStoreOp, { kind, key, put: true, value })) === true
}

/** Signs a shopper in through the header's auth modal (the way a shopper does) from the home page. */
export async function logInThroughModal(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/')
  await waitForHydration(page)
  await page.getByTestId('account-button').click()
  const modal = page.getByTestId('auth-modal')
  await modal.getByLabel('Email address').fill(email)
  await modal.getByLabel('Password').fill(password)
  await modal.getByRole('button', { name: 'Log in' }).click()
  await expect(modal).toBeHidden({ timeout: 30_000 })
}
