/**
 * Data every default-layout page needs: the menu. Deferred-safe: a failure gives an empty menu
 * rather than failing the page.
 */
import type { Context } from 'hono'
import type { MenuItem } from '../../../client/islands/layout/header'
import { markDegraded } from '../../platform/cache/output-cache'
import type { AppEnv } from '../../platform/env'

export type MenuLoader = (c: Context<AppEnv>) => Promise<MenuItem[]>

let menuLoader: MenuLoader = async () => []

/** Lets the catalogue code provide the menu without a dependency cycle. */
export function setMenuLoader(loader: MenuLoader): void {
  menuLoader = loader
}

export async function loadMenu(c: Context<AppEnv>): Promise<MenuItem[]> {
  try {
    return await menuLoader(c)
  } catch (err) {
    markDegraded(c)
    console.error(JSON.stringify({ requestId: c.var.requestId, msg: 'menu load failed', err: String(err) }))
    return []
  }
}
