import '../../../../helpers/indexeddb'
import { describe, expect, it, vi } from 'vitest'
import type { SyncTask } from '../../../../../client/engines/runtime/task'
import { createTaskQueue } from '../../../../../client/engines/runtime/task-queue'
import { CartIdRequiredError, stripTokenParam } from '../../../../../client/engines/runtime/task-run'
import {
  createTokenRefresher,
  handleRefreshExhausted,
} from '../../../../../client/engines/session/token-refresh'
import { StorageManager } from '../../../../../client/storage/storage-manager'
import { MSG } from '../../../../../shared/i18n/messages'
import { jsonResponse as json } from '../../../../helpers/browser-fakes'
import { FakeClock, flush } from '../../../../helpers/fake-clock'

vi.spyOn(console, 'warn').mockImplementation(() => {})

interface Harness {
  clock: FakeClock
  calls: string[]
  refreshCalls: string[]
  session: { token: string | null; refreshToken: string | null; cartId: string | null }
  notices: { type: string; message: string }[]
  exhausted: string[]
}

/** The access token a request carried in its Authorization header (the only place for it). */
function bearerOf(init?: RequestInit): string | null {
  return /^Bearer (.+)$/.exec(new Headers(init?.headers).get('authorization') ?? '')?.[1] ?? null
}

/**
 * Builds a refresher + queue over a scripted fetch. Calls are recorded as path + query, plus
 * `(Bearer <token>)` when the header carried one; a token in a URL fails the call.
 */
function setup(
  handler: (url: URL, h: Harness, bearer: string | null) => Response | Promise<Response>,
  refresh: (h: Harness, body: { refreshToken: string }) => Response | Promise<Response>,
  extra: Partial<Parameters<typeof createTaskQueue>[0]> = {},
) {
  const h: Harness = {
    clock: new FakeClock(),
    calls: [],
    refreshCalls: [],
    session: { token: 'old', refreshToken: 'r0', cartId: 'c1' },
    notices: [],
    exhausted: [],
  }
  const fetchFn = (async (input: string, init?: RequestInit) => {
    const url = new URL(String(input), 'https://shop.test')
    if (url.pathname === '/api/user/refresh') {
      const body = JSON.parse(String(init?.body))
      h.refreshCalls.push(body.refreshToken)
      return refresh(h, body)
    }
    if (url.searchParams.has('token')) throw new Error(`an access token in a URL: ${url.search}`)
    const bearer = bearerOf(init)
    h.calls.push(`${url.pathname}${url.search}${bearer ? ` (Bearer ${bearer})` : ''}`)
    return handler(url, h, bearer)
  }) as typeof fetch
  const refresher = createTokenRefresher({
    getToken: () => h.session.token,
    getRefreshToken: () => h.session.refreshToken,
    setTokens: (t, r) => {
      h.session.token = t
      h.session.refreshToken = r
    },
    onExhausted: (reason) => {
      h.exhausted.push(reason)
      h.session.token = null
    },
    fetch: fetchFn,
  })
  const queue = createTaskQueue({
    refresher,
    getToken: () => h.session.token,
    getCartId: () => h.session.cartId,
    notify: (n) => h.notices.push(n),
    clock: h.clock,
    fetch: fetchFn,
    ...extra,
  })
  return { h, refresher, queue }
}

const meTask = { url: '/api/user/me', auth: true }

describe('token refresh lock', () => {
  it('concurrent 401s trigger exactly one refresh and every task retries with the new token', async () => {
    let releaseRefresh!: () => void
    const gate = new Promise<void>((r) => {
      releaseRefresh = r
    })
    const { h, queue, refresher } = setup(
      (_url, _h, bearer) =>
        bearer === 'new' ? json({ code: 200, result: 'ok' }) : json({ code: 401, result: 'expired' }, 401),
      async () => {
        await gate
        return json({ code: 200, result: 'new', meta: { refreshToken: 'r1' } })
      },
    )
    const results = [queue.execute(meTask), queue.execute(meTask), queue.execute(meTask)]
    await flush(10)
    expect(refresher.lock).toBeGreaterThan(0)
    releaseRefresh()
    await h.clock.advance(1000)
    await h.clock.advance(1000)
    const done = await Promise.all(results)
    expect(done.map((r) => r.code)).toEqual([200, 200, 200])
    expect(h.refreshCalls).toEqual(['r0'])
    expect(h.session).toMatchObject({ token: 'new', refreshToken: 'r1' })
    expect(h.calls.filter((c) => c.endsWith('(Bearer new)'))).toHaveLength(3)
    expect(refresher.lock).toBe(0)
  })

  it('after 20 refreshes that never lead to a successful call, gives up (logout) and the task gets 401', async () => {
    let n = 0
    const { h, queue, refresher } = setup(
      () => json({ code: 401, result: 'expired' }, 401),
      () => json({ code: 200, result: `t${++n}`, meta: { refreshToken: `r${n}` } }),
    )
    const res = await queue.execute(meTask)
    expect(res.code).toBe(401)
    expect(res.result).toBe(MSG.tokenRefreshFailed)
    expect(h.refreshCalls).toHaveLength(20)
    expect(h.exhausted).toEqual(['attempts'])
    expect(refresher.lock).toBe(-1)
  })

  it('resets the attempts counter after a success, so 25 expiries over a long session never log out (#5713)', async () => {
    let n = 0
    const expired = new Set<string>()
    const { h, queue, refresher } = setup(
      (_url, _h, bearer) => {
        return expired.has(bearer ?? '')
          ? json({ code: 401, result: 'expired' }, 401)
          : json({ code: 200, result: { id: 1 } })
      },
      () => json({ code: 200, result: `t${++n}`, meta: { refreshToken: `r${n}` } }),
    )
    for (let i = 0; i < 25; i++) {
      expired.add(h.session.token as string)
      const res = await queue.execute(meTask)
      expect(res.code).toBe(200)
      expect(refresher.attempts).toBe(0)
    }
    expect(h.refreshCalls).toHaveLength(25)
    expect(h.exhausted).toEqual([])
  })

  it('a failed refresh sets the lock to −1: the task and later tasks resolve {code: 401} without calling the API', async () => {
    const { h, queue, refresher } = setup(
      () => json({ code: 401, result: 'expired' }, 401),
      () => json({ code: 401, result: 'refresh token revoked' }, 401),
    )
    h.session.token = 'old'
    const first = await queue.execute(meTask)
    expect(first.code).toBe(401)
    expect(h.exhausted).toEqual(['refresh-failed'])
    expect(refresher.lock).toBe(-1)
    const callsBefore = h.calls.length
    h.session.token = 'old' // even with a token
    const second = await queue.execute(meTask)
    expect(second).toMatchObject({ code: 401, result: MSG.tokenRefreshFailed })
    expect(h.calls.length).toBe(callsBefore)
    expect(h.notices).toEqual([]) // the 401 itself is silent; the exhausted handler shows the message
    refresher.reset()
    expect(refresher.lock).toBe(0)
  })

  it('a 401 without a user token is a plain result, not a refresh', async () => {
    const { h, queue } = setup(
      () => json({ code: 401, result: 'not authorized' }, 401),
      () => json({ code: 200, result: 'x' }),
    )
    h.session.token = null
    const res = await queue.execute({ url: '/api/cart/create', auth: true })
    expect(res.code).toBe(401)
    expect(h.refreshCalls).toEqual([])
    expect(h.calls).toEqual(['/api/cart/create'])
  })

  it('handleRefreshExhausted logs out silently, clears unsent tasks, opens the sign-up modal and shows the message with OK', async () => {
    const log: string[] = []
    const notices: unknown[] = []
    await handleRefreshExhausted({
      logout: ({ silent }) => {
        log.push(`logout:${silent}`)
      },
      clearUnsentTasks: () => {
        log.push('clear')
      },
      openSignupModal: () => log.push('modal'),
      notify: (n) => notices.push(n),
    })
    expect(log).toEqual(['logout:true', 'clear', 'modal'])
    expect(notices).toEqual([
      expect.objectContaining({
        type: 'error',
        message:
          'Internal Application error while refreshing the tokens. Please clear the storage and refresh page.',
        action1: { label: 'OK' },
      }),
    ])
  })
})

describe('task execution', () => {
  it('sends the token as a header and fills {{cartId}}; a cart task waits for a cart id, and is rejected when none comes', async () => {
    let resolveCart!: (id: string | null) => void
    const { h, queue } = setup(
      () => json({ code: 200, result: [] }),
      () => json({}),
      {
        getCartId: () => null,
        waitForCartId: () =>
          new Promise((r) => {
            resolveCart = r
          }),
      },
    )
    const pending = queue.execute({ url: '/api/cart/pull?cartId={{cartId}}', auth: true })
    await flush()
    expect(h.calls).toEqual([])
    resolveCart('c9')
    await pending
    expect(h.calls).toEqual(['/api/cart/pull?cartId=c9 (Bearer old)'])
    const rejected = queue.execute({ url: '/api/cart/pull?cartId={{cartId}}', auth: true })
    await flush()
    resolveCart(null)
    await expect(rejected).rejects.toBeInstanceOf(CartIdRequiredError)
  })

  it('shows the shop messages for a non-JSON response and a missing body', async () => {
    let mode = 'html'
    const { h, queue } = setup(
      () =>
        mode === 'html'
          ? new Response('<html>', { status: 502, headers: { 'content-type': 'text/html' } })
          : new Response('', { status: 200, headers: { 'content-type': 'application/json' } }),
      () => json({}),
    )
    const a = await queue.execute(meTask)
    expect(a.result).toBe('Error with response - bad content-type!')
    mode = 'empty'
    const b = await queue.execute(meTask)
    expect(b.result).toBe('Unhandled error, wrong response format!')
    expect(h.notices.map((n) => n.message)).toEqual([
      'Error with response - bad content-type!',
      'Unhandled error, wrong response format!',
    ])
  })

  it.each([
    ['Cart is locked', false, true],
    ['Customer is not authorized to access self.', false, false],
    ['The Product that you are trying to add is not available.', false, false],
    ['Cart is locked', true, false],
  ])('non-200 string result %j (silent %s) → notified: %s', async (message, silent, shown) => {
    const { h, queue } = setup(
      () => json({ code: 500, result: message }, 500),
      () => json({}),
    )
    const res = await queue.execute({ ...meTask, silent })
    expect(res.code).toBe(500)
    expect(h.notices).toEqual(shown ? [{ type: 'error', message, action1: { label: 'OK' } }] : [])
  })

  it('reads an error text from result.message too', async () => {
    const { h, queue } = setup(
      () => json({ code: 400, result: { message: 'Bad address' } }, 400),
      () => json({}),
    )
    await queue.execute(meTask)
    expect(h.notices.map((n) => n.message)).toEqual(['Bad address'])
  })

  it('says a validator’s refusal in words: never the field path or the validator’s text', async () => {
    const { h, queue } = setup(
      () =>
        json(
          {
            code: 400,
            result:
              'Invalid request body: addressInformation.shipping_address.street.0: Too big: expected string to have <=255 characters',
          },
          400,
        ),
      () => json({}),
    )
    await queue.execute(meTask)
    expect(h.notices.map((n) => n.message)).toEqual([
      'The street address is too long: at most 255 characters.',
    ])
  })
})

describe('queue lifecycle', () => {
  it('persists tasks while offline, sends them serially when online, removes them unless cacheable', async () => {
    const manager = new StorageManager({ storeCode: `q${Date.now()}` })
    const storage = manager.get<SyncTask>('syncTasks')
    let online = false
    let inFlight = 0
    let maxInFlight = 0
    const events: unknown[] = []
    const { h, queue } = setup(
      async (url) => {
        inFlight++
        maxInFlight = Math.max(maxInFlight, inFlight)
        await flush(2)
        inFlight--
        return json({ code: 200, result: url.pathname })
      },
      () => json({}),
      { storage, isOnline: () => online, emit: (e, p) => events.push([e, (p as { code: number }).code]) },
    )
    await queue.queue({
      url: '/api/user/me',
      auth: true,
      payload: { method: 'POST', body: { customer: {} } },
      callback_event: 'store:user/handleUpdateProfile',
    })
    h.clock.now = () => 1_700_000_000_001
    await queue.queue({ url: '/api/stock/check?sku=A', is_result_cacheable: true })
    expect(h.calls).toEqual([])
    const stored = (await storage.entries()).map(([, t]) => t)
    expect(stored).toHaveLength(2)
    expect(stored[0]).toMatchObject({
      transmited: false,
      transmited_at: null,
      silent: false,
      acknowledged: false,
    })
    expect(stored[0]?.task_id).toMatch(/^\d+-[0-9a-f]+$/)
    online = true
    expect(await queue.process()).toBe(2)
    expect(h.calls).toEqual(['/api/user/me (Bearer old)', '/api/stock/check?sku=A'])
    expect(maxInFlight).toBe(1)
    const left = (await storage.entries()).map(([, t]) => t)
    expect(left).toHaveLength(1)
    expect(left[0]).toMatchObject({
      url: '/api/stock/check?sku=A',
      transmited: true,
      resultCode: 200,
      result: '/api/stock/check',
    })
    expect(events).toEqual([['store:user/handleUpdateProfile', 200]])
    expect(await queue.pending()).toEqual([])
    manager.database.close()
  })

  it('keeps the queue on a network failure and clears unsent tasks on demand', async () => {
    const manager = new StorageManager({ storeCode: `q2${Date.now()}` })
    const storage = manager.get<SyncTask>('syncTasks')
    const { queue } = setup(
      () => {
        throw new TypeError('Failed to fetch')
      },
      () => json({}),
      { storage, isOnline: () => true },
    )
    await queue.queue({ url: '/api/user/me' })
    await flush(10)
    expect(await queue.process()).toBe(0)
    expect(await queue.pending()).toHaveLength(1)
    await queue.clearUnsent()
    expect(await queue.pending()).toHaveLength(0)
    manager.database.close()
  })
})

describe('token refresh across tabs', () => {
  it('two tabs hitting 401 at once refresh once: the second adopts the stored tokens (no refresh-token reuse)', async () => {
    const persisted = { token: 'old', refreshToken: 'r0' }
    let refreshCalls = 0
    let chain: Promise<unknown> = Promise.resolve()
    const withLock = <T>(fn: () => Promise<T>): Promise<T> => {
      const run = chain.then(fn)
      chain = run.catch(() => {})
      return run
    }
    const fetchFn = (async (input: string, init?: RequestInit) => {
      const url = new URL(String(input), 'https://shop.test')
      if (url.pathname === '/api/user/refresh') {
        refreshCalls++
        const { refreshToken } = JSON.parse(String(init?.body))
        await flush(3)
        if (refreshToken !== 'r0') return json({ code: 401, result: 'refresh token reused' }, 401)
        return json({ code: 200, result: 'new', meta: { refreshToken: 'r1' } })
      }
      if (url.searchParams.has('token')) throw new Error('an access token in a URL')
      return bearerOf(init) === 'new'
        ? json({ code: 200, result: 'ok' })
        : json({ code: 401, result: 'expired' }, 401)
    }) as typeof fetch
    const tab = () => {
      const mem = { token: 'old' as string | null, refreshToken: 'r0' as string | null }
      const refresher = createTokenRefresher({
        getToken: () => mem.token,
        getRefreshToken: () => mem.refreshToken,
        setTokens: (t, r) => {
          mem.token = t
          mem.refreshToken = r
          persisted.token = t
          persisted.refreshToken = r as string
        },
        onExhausted: () => {
          throw new Error('must not give up')
        },
        fetch: fetchFn,
        withLock,
        readStoredTokens: async () => ({ ...persisted }),
      })
      return {
        mem,
        queue: createTaskQueue({
          refresher,
          getToken: () => mem.token,
          getCartId: () => null,
          notify: () => {},
          fetch: fetchFn,
        }),
      }
    }
    const a = tab()
    const b = tab()
    const [ra, rb] = await Promise.all([a.queue.execute(meTask), b.queue.execute(meTask)])
    expect([ra.code, rb.code]).toEqual([200, 200])
    expect(refreshCalls).toBe(1)
    expect(a.mem.token).toBe('new')
    expect(b.mem).toEqual({ token: 'new', refreshToken: 'r1' })
  })
})

describe('access token transport', () => {
  it('a task with auth sends the current token as Authorization: Bearer; a guest task sends none, even signed in', async () => {
    const seen: { url: string; auth: string | null }[] = []
    const { h, queue } = setup(
      (url, _h, bearer) => {
        seen.push({ url: `${url.pathname}${url.search}`, auth: bearer })
        return json({ code: 200, result: 'ok' })
      },
      () => json({}),
    )
    await queue.execute({ url: '/api/user/order-history?pageSize=20', auth: true })
    await queue.execute({ url: '/api/cart/pull?cartId={{cartId}}' })
    h.session.token = null
    await queue.execute({ url: '/api/cart/create', auth: true })
    expect(seen).toEqual([
      { url: '/api/user/order-history?pageSize=20', auth: 'old' },
      { url: '/api/cart/pull?cartId=c1', auth: null },
      { url: '/api/cart/create', auth: null },
    ])
  })

  it('older tasks with a token={{token}} or an empty token= parameter lose it from the URL; the placeholder means auth', async () => {
    const { h, queue } = setup(
      () => json({ code: 200, result: 'ok' }),
      () => json({}),
    )
    for (const url of [
      '/api/user/me?token={{token}}',
      '/api/cart/update?token={{token}}&cartId={{cartId}}',
      '/api/cart/apply-coupon?cartId={{cartId}}&token={{token}}&coupon=X',
      '/api/cart/create?token=',
      '/api/cart/totals?token=&cartId={{cartId}}',
    ]) {
      await queue.execute({ url })
    }
    expect(h.calls).toEqual([
      '/api/user/me (Bearer old)',
      '/api/cart/update?cartId=c1 (Bearer old)',
      '/api/cart/apply-coupon?cartId=c1&coupon=X (Bearer old)',
      '/api/cart/create',
      '/api/cart/totals?cartId=c1',
    ])
  })

  it('stripTokenParam leaves other parameters (even ones ending in "token") alone', () => {
    expect(stripTokenParam('/api/x?groupToken=a&token={{token}}&b=1')).toBe('/api/x?groupToken=a&b=1')
    expect(stripTokenParam('/api/x?mytoken=1')).toBe('/api/x?mytoken=1')
    expect(stripTokenParam('/api/x')).toBe('/api/x')
  })
})
