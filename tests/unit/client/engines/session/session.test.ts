import '../../../../helpers/indexeddb'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { type ClientSettings, clientSettings } from '../../../../../client/engines/runtime/config'
import { createEventBus, EVENTS } from '../../../../../client/engines/runtime/events'
import type { SyncTask } from '../../../../../client/engines/runtime/task'
import { createTaskQueue } from '../../../../../client/engines/runtime/task-queue'
import { guardAccountRoute } from '../../../../../client/engines/session/access-rule'
import { USER_KEYS } from '../../../../../client/engines/session/deps'
import { DEVICE_TOKENS_KEY, MAX_DEVICE_TOKENS } from '../../../../../client/engines/session/device-tokens'
import { createSession } from '../../../../../client/engines/session/session'
import { MSG_REGISTERED_SIGN_IN } from '../../../../../client/engines/session/sign-in'
import { createTokenRefresher } from '../../../../../client/engines/session/token-refresh'
import {
  currentUser,
  groupId,
  groupToken,
  isLoggedIn,
  ordersHistory,
  sessionStarted,
  storeCredit,
  userToken,
} from '../../../../../client/state/user'
import { StorageManager } from '../../../../../client/storage/storage-manager'
import { jsonResponse as json, memoryStore } from '../../../../helpers/browser-fakes'
import { flush } from '../../../../helpers/fake-clock'

vi.spyOn(console, 'warn').mockImplementation(() => {})

let seq = 0
function setup(settings: Partial<ClientSettings> = {}) {
  const manager = new StorageManager({ storeCode: `s${Date.now()}${seq++}` })
  const storage = manager.get('user')
  const bus = createEventBus()
  const events: string[] = []
  for (const e of Object.values(EVENTS)) bus.on(e, () => events.push(e))
  const notices: { type: string; message: string }[] = []
  const calls: string[] = []
  const logins: Record<string, unknown>[] = []
  const profileBodies: Record<string, unknown>[] = []
  const fetchFn = (async (input: string, init?: RequestInit) => {
    const url = new URL(String(input), 'https://shop.test')
    const bearer = /^Bearer (.+)$/.exec(new Headers(init?.headers).get('authorization') ?? '')?.[1]
    calls.push(`${init?.method ?? 'GET'} ${url.pathname}${url.search}${bearer ? ` (Bearer ${bearer})` : ''}`)
    switch (url.pathname) {
      case '/api/user/login': {
        const b = JSON.parse(String(init?.body))
        logins.push(b)
        if (b.password === 'slowed') {
          return json(
            {
              code: 429,
              result:
                'Too many failed sign-in attempts for this account. Please wait 4 seconds and try again.',
            },
            429,
          )
        }
        return b.password === 'secret123'
          ? json({
              code: 200,
              result: 'tok',
              meta: { refreshToken: 'ref', deviceToken: `device-of-${b.username}` },
            })
          : json(
              { code: 401, result: 'You did not sign in correctly or your account is temporarily disabled.' },
              401,
            )
      }
      case '/api/user/me':
        if (init?.method === 'POST') {
          const b = JSON.parse(String(init.body))
          profileBodies.push(b)
          if (b.customer.email !== 'a@b.c' && b.currentPassword !== 'secret123') {
            return json({ code: 400, result: "The password doesn't match this account." }, 400)
          }
          return json({ code: 200, result: { id: 7, ...b.customer, group_id: 1 } })
        }
        return json({
          code: 200,
          result: { id: 7, email: 'a@b.c', firstname: 'A', lastname: 'B', group_id: 4, groupToken: 'gt' },
        })
      case '/api/user/order-history':
        return json({ code: 200, result: { items: [{ increment_id: '000000001' }], total_count: 1 } })
      case '/api/giftcard/store-credit-transaction':
        return json({ code: 200, result: { items: [{ amount: 100 }], total_balance: 100 } })
      case '/api/user/create':
        return json({ code: 200, result: JSON.parse(String(init?.body)).customer })
      default:
        return json({ code: 404, result: 'nope' }, 404)
    }
  }) as typeof fetch
  const refresher = createTokenRefresher({
    getToken: () => userToken.value,
    getRefreshToken: () => null,
    setTokens: () => {},
    onExhausted: () => {},
    fetch: fetchFn,
  })
  const queue = createTaskQueue({
    refresher,
    getToken: () => userToken.value,
    getCartId: () => null,
    notify: (n) => notices.push(n),
    emit: (e, p) => bus.emit(e, p),
    fetch: fetchFn,
    storage: manager.get<SyncTask>('syncTasks'),
    isOnline: () => true,
  })
  const cart = { authorize: vi.fn(async () => {}), disconnectAndRecreate: vi.fn(async () => {}) }
  const redirectStore = memoryStore()
  const session = createSession({
    queue,
    refresher,
    storage,
    bus,
    notify: (n) => notices.push(n),
    settings: () => ({ ...clientSettings(), ...settings }),
    cart,
    fetch: fetchFn,
    redirectStore,
  })
  return { manager, storage, session, events, notices, calls, logins, profileBodies, cart, redirectStore }
}

beforeEach(() => {
  userToken.value = null
  currentUser.value = null
  sessionStarted.value = false
})

describe('session start', () => {
  it('with no stored token emits the non-authorised event and calls nothing', async () => {
    const t = setup()
    await t.session.start()
    expect(t.events).toEqual([EVENTS.sessionNotAuthorized])
    expect(sessionStarted.value).toBe(true)
    expect(isLoggedIn.value).toBe(false)
    expect(t.calls).toEqual([])
  })

  it('with a stored token is authorised and loads me, order history and store credit (token in the Authorization header)', async () => {
    const t = setup()
    await t.storage.setItem(USER_KEYS.token, 'stored')
    await t.session.start()
    expect(t.events).toEqual([EVENTS.sessionAuthorized])
    expect(t.calls.sort()).toEqual([
      'GET /api/giftcard/store-credit-transaction (Bearer stored)',
      'GET /api/user/me (Bearer stored)',
      'GET /api/user/order-history (Bearer stored)',
    ])
    expect(currentUser.value?.email).toBe('a@b.c')
    expect(ordersHistory.value.items).toHaveLength(1)
    expect(storeCredit.value.total_balance).toBe(100)
    // Price tiers off: group data is not kept.
    expect(groupToken.value).toBeNull()
    expect(groupId.value).toBeNull()
  })

  it('keeps group id and token only when price tiers are on', async () => {
    const t = setup({ priceTiersEnabled: true })
    await t.storage.setItem(USER_KEYS.token, 'stored')
    await t.session.start()
    expect(groupToken.value).toBe('gt')
    expect(groupId.value).toBe(4)
  })
})

describe('login / logout', () => {
  it('login stores the tokens, authorises the cart once and returns the remembered account path', async () => {
    const t = setup()
    await t.session.start()
    guardAccountRoute('/my-account/orders?page=2', {
      isLoggedIn: () => false,
      sessionStarted: () => true,
      store: t.redirectStore,
      navigate: () => {},
    })
    const res = await t.session.login('a@b.c', 'secret123')
    expect(res).toEqual({ ok: true, redirectTo: '/my-account/orders?page=2' })
    expect(userToken.value).toBe('tok')
    expect(await t.storage.getItem(USER_KEYS.token)).toBe('tok')
    expect(await t.storage.getItem(USER_KEYS.refreshToken)).toBe('ref')
    expect(t.cart.authorize).toHaveBeenCalledTimes(1)
    expect(t.events).toContain(EVENTS.userAfterLoggedIn)
  })

  it('a wrong password is reported and nothing is stored', async () => {
    const t = setup()
    const res = await t.session.login('a@b.c', 'wrong')
    expect(res).toEqual({
      ok: false,
      message: 'You did not sign in correctly or your account is temporarily disabled.',
    })
    expect(userToken.value).toBeNull()
    expect(t.cart.authorize).not.toHaveBeenCalled()
  })

  it('logout clears the user, emits the logout event, recreates the cart and says "You\'re logged out"', async () => {
    const t = setup()
    await t.session.login('a@b.c', 'secret123')
    await t.session.logout()
    expect(userToken.value).toBeNull()
    expect(currentUser.value).toBeNull()
    expect(storeCredit.value.total_balance).toBe(0)
    expect(await t.storage.getItem(USER_KEYS.token)).toBeNull()
    expect(t.events).toContain(EVENTS.userAfterLogout)
    expect(t.cart.disconnectAndRecreate).toHaveBeenCalledTimes(1)
    expect(t.notices).toContainEqual({ type: 'success', message: "You're logged out" })
  })

  it('a silent logout shows nothing', async () => {
    const t = setup()
    await t.session.login('a@b.c', 'secret123')
    await t.session.logout({ silent: true })
    expect(t.notices).toEqual([])
  })

  it('the profile update is queued and, answered with 200, replaces the user with the success message', async () => {
    const t = setup()
    await t.session.login('a@b.c', 'secret123')
    await t.session.updateProfile({ email: 'a@b.c', firstname: 'New', lastname: 'Name' })
    await vi.waitFor(() => expect(currentUser.value?.firstname).toBe('New'))
    await flush()
    expect(t.calls).toContain('POST /api/user/me (Bearer tok)')
    expect(t.calls.some((c) => c.includes('token='))).toBe(false)
    expect(t.notices).toContainEqual({
      type: 'success',
      message: 'Account data has successfully been updated',
    })
  })
})

describe('device tokens', () => {
  it('the device token from a sign-in is kept across logout and sent with the next sign-in of that address only', async () => {
    const t = setup()
    await t.session.login('A@B.c', 'secret123')
    expect(t.logins[0]).toEqual({ username: 'A@B.c', password: 'secret123' })
    await t.session.logout()
    await t.session.login('a@b.c', 'secret123')
    expect(t.logins[1]).toEqual({ username: 'a@b.c', password: 'secret123', deviceToken: 'device-of-A@B.c' })
    await t.session.login('other@b.c', 'wrong')
    expect(t.logins[2]).toEqual({ username: 'other@b.c', password: 'wrong' })
    expect(await t.storage.getItem(DEVICE_TOKENS_KEY)).toEqual({ 'a@b.c': 'device-of-a@b.c' })
  })

  it(`keeps device tokens for at most ${MAX_DEVICE_TOKENS} addresses, the newest`, async () => {
    const t = setup()
    for (let i = 0; i < MAX_DEVICE_TOKENS + 2; i++) await t.session.login(`u${i}@b.c`, 'secret123')
    const kept = Object.keys((await t.storage.getItem(DEVICE_TOKENS_KEY)) as Record<string, string>)
    expect(kept).toEqual(Array.from({ length: MAX_DEVICE_TOKENS }, (_, i) => `u${i + 2}@b.c`))
  })
})

describe('registration', () => {
  it('signs in after registering; when that fails the message says the address may already have an account', async () => {
    const t = setup()
    expect(
      await t.session.register({ email: 'n@b.c', firstname: 'N', lastname: 'B', password: 'secret123' }),
    ).toMatchObject({ ok: true })
    expect(
      await t.session.register({ email: 'n@b.c', firstname: 'N', lastname: 'B', password: 'another1' }),
    ).toEqual({
      ok: false,
      message: MSG_REGISTERED_SIGN_IN,
    })
    const slowed = await t.session.register({
      email: 'n@b.c',
      firstname: 'N',
      lastname: 'B',
      password: 'slowed',
    })
    expect(slowed).toMatchObject({ ok: false, message: expect.stringMatching(/^Too many/) })
  })
})

describe('changing the e-mail address', () => {
  it('sends the current password with the update at once (never queued) and replaces the user on success', async () => {
    const t = setup()
    await t.session.login('a@b.c', 'secret123')
    const wrong = await t.session.changeEmail({ email: 'new@b.c', firstname: 'A', lastname: 'B' }, 'nope')
    expect(wrong).toEqual({ ok: false, message: "The password doesn't match this account." })
    expect(currentUser.value?.email).toBe('a@b.c')
    const done = await t.session.changeEmail({ email: 'new@b.c', firstname: 'A', lastname: 'B' }, 'secret123')
    expect(done).toEqual({ ok: true })
    expect(currentUser.value?.email).toBe('new@b.c')
    expect(t.profileBodies.at(-1)).toEqual({
      customer: { email: 'new@b.c', firstname: 'A', lastname: 'B' },
      currentPassword: 'secret123',
    })
    expect(t.calls).toContain('POST /api/user/me (Bearer tok)')
    // Nothing with the password was written to the device's task queue.
    const stored = JSON.stringify(await t.manager.get('syncTasks').entries())
    expect(stored).not.toContain('secret123')
    expect(t.notices).toContainEqual({
      type: 'success',
      message: 'Account data has successfully been updated',
    })
  })
})
