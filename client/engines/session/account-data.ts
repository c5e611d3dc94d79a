/**
 * The signed-in customer's data: the account (me), the order history and the store credit,
 * loaded together after sign-in (a failure of one is logged only). The customer group id and
 * token apply to price tiers only when the price-tiers setting is on.
 */
import {
  type CurrentUser,
  currentUser,
  groupId,
  groupToken,
  type OrderHistory,
  ordersHistory,
  type StoreCredit,
  storeCredit,
  userLoading,
} from '../../state/user'
import { type SessionDeps, USER_KEYS } from './deps'

type Deps = Pick<SessionDeps, 'queue' | 'storage' | 'settings'>

/** The price-tier group of a user (both null unless price tiers are on). */
export function userGroup(
  user: CurrentUser | null,
  priceTiersEnabled: boolean,
): { token: string | null; id: number | null } {
  if (!user || !priceTiersEnabled) return { token: null, id: null }
  return {
    token: typeof user.groupToken === 'string' ? user.groupToken : null,
    id: typeof user.group_id === 'number' ? user.group_id : null,
  }
}

export function applyGroup(deps: Pick<SessionDeps, 'settings'>, user: CurrentUser | null): void {
  const group = userGroup(user, deps.settings().priceTiersEnabled)
  groupToken.value = group.token
  groupId.value = group.id
}

/** Makes `user` the current user (and its group) and stores it. */
export async function adoptUser(deps: Deps, user: CurrentUser): Promise<void> {
  currentUser.value = user
  applyGroup(deps, user)
  await deps.storage.setItem(USER_KEYS.user, user)
}

/** GET /api/user/me → the current user (resultCode 200). */
export async function loadMe(deps: Deps): Promise<CurrentUser | null> {
  const res = await deps.queue.execute({ url: '/api/user/me', auth: true, silent: true })
  if (res.code !== 200 || !res.result || typeof res.result !== 'object') return null
  const user = res.result as CurrentUser
  await adoptUser(deps, user)
  return user
}

export async function loadOrdersHistory(deps: Deps): Promise<void> {
  const res = await deps.queue.execute({ url: '/api/user/order-history', auth: true, silent: true })
  if (res.code === 200 && res.result && typeof res.result === 'object') {
    const r = res.result as OrderHistory
    ordersHistory.value = { items: Array.isArray(r.items) ? r.items : [], total_count: r.total_count }
    await deps.storage.setItem(USER_KEYS.ordersHistory, ordersHistory.value)
  }
}

export async function loadStoreCredit(deps: Deps): Promise<void> {
  const res = await deps.queue.execute({
    url: '/api/giftcard/store-credit-transaction',
    auth: true,
    silent: true,
  })
  if (res.code === 200 && res.result && typeof res.result === 'object') {
    const r = res.result as Partial<StoreCredit>
    storeCredit.value = {
      items: Array.isArray(r.items) ? r.items : [],
      total_balance: Number(r.total_balance ?? 0),
    }
  }
}

/** Loads me, order history and store credit; failures are logged only. */
export async function loadAuthorised(deps: Deps): Promise<void> {
  userLoading.value = true
  try {
    await Promise.all([
      loadMe(deps).catch((e) => console.warn('[session] me failed', e)),
      loadOrdersHistory(deps).catch((e) => console.warn('[session] order history failed', e)),
      loadStoreCredit(deps).catch((e) => console.warn('[session] store credit failed', e)),
    ])
  } finally {
    userLoading.value = false
  }
}
