/**
 * Store locator data (the store-locator and individual-store pages) through the Commerce
 * port: the list of physical stores, and one store by its code. Descriptions are sanitized.
 */

import type { StoreSummary } from '@shared/components/content/cms'
import { sanitizeHtml } from '@shared/domain/sanitize-html'
import type { StoreLocation } from '@shared/schemas/catalog'
import type { Context } from 'hono'
import { getCommerce } from '../../commerce'
import type { AppEnv } from '../../platform/env'

/** A store as the store-locator components render it (description sanitized). */
type StoreView = StoreSummary

/** The page path of a store. */
export function storePath(code: string): string {
  return `/store-locator/${encodeURIComponent(code)}`
}

function toView(s: StoreLocation): StoreView {
  return {
    code: s.code,
    name: s.name,
    city: s.city,
    address: s.address,
    phone: s.phone ?? null,
    email: s.email ?? null,
    hours: s.hours ?? [],
    lat: s.lat ?? null,
    lng: s.lng ?? null,
    descriptionHtml: sanitizeHtml(s.description ?? ''),
    image: typeof s.image === 'string' ? s.image : null,
  }
}

/** Every store, in the backend's order (position). */
export async function loadStores(c: Context<AppEnv>): Promise<StoreView[]> {
  return (await getCommerce(c).getStores()).map(toView)
}

/** One store by code, or null. */
export async function loadStore(c: Context<AppEnv>, code: string): Promise<StoreView | null> {
  const store = await getCommerce(c).getStore(code)
  return store ? toView(store) : null
}
