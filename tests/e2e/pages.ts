import { execFileSync } from 'node:child_process'
import { expect, type Page } from '@playwright/test'

/** Waits until every island on the page has hydrated (the data-hydrated marker). */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const islands = document.querySelectorAll('[data-island]')
    return islands.length > 0 && [...islands].every((el) => (el as HTMLElement).dataset.hydrated === 'true')
  })
}

/** The back-office operator the browser tests sign in as (created with the command-line tool). */
export const OPERATOR = { email: 'e2e-owner@ops.test', password: 'e2e-owner-password' }

/** Creates (or resets) the test operator as an owner in the e2e database. */
export function createTestOperator(
  root: string,
  persistTo = process.env.E2E_PERSIST ?? '.tmp/e2e-state',
): void {
  execFileSync(
    process.execPath,
    ['scripts/admin.mjs', 'create-operator', OPERATOR.email, '--persist-to', persistTo],
    {
      cwd: root,
      env: { ...process.env, ADMIN_PASSWORD: OPERATOR.password },
      stdio: 'ignore',
    },
  )
}

/** Signs the test operator in to the back office through the local sign-in form. */
export async function signInOperator(page: Page): Promise<void> {
  await page.goto('/admin')
  await expect(page).toHaveURL(/\/admin\/login$/)
  await page.getByLabel('E-mail').fill(OPERATOR.email)
  await page.getByLabel('Password').fill(OPERATOR.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible()
}
