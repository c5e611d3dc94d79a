import type { Page } from '@playwright/test'

/** Waits until every island on the page has hydrated (the data-hydrated marker). */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const islands = document.querySelectorAll('[data-island]')
    return islands.length > 0 && [...islands].every((el) => (el as HTMLElement).dataset.hydrated === 'true')
  })
}
