// The cost of every account request is bounded: input is validated and the limits are applied
// before any PBKDF2 work (counted by watching WebCrypto's deriveBits in this isolate, where the
// worker runs), and the Workers Rate Limiting binding stops a burst from one client address.
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest'
import {
  CLIENT_ADDRESS_LIMIT,
  MSG_CLIENT_ADDRESS_LIMITED,
  slowdownDelayMs,
} from '../../../../worker/api/auth/rate-limit'
import { REGISTER_LIMIT_PER_ACCOUNT } from '../../../../worker/api/user/register'
import { inOneWindow } from '../../../helpers/rate-window'
import { api, freshIp, registerAndLogin, resetCodeFor } from '../../../helpers/user'

vi.spyOn(console, 'error').mockImplementation(() => {})

let deriveBits: MockInstance
beforeEach(() => {
  deriveBits = vi.spyOn(crypto.subtle, 'deriveBits')
})
afterEach(() => {
  vi.restoreAllMocks()
  vi.useRealTimers()
  vi.spyOn(console, 'error').mockImplementation(() => {})
})

/** Runs `fn` and returns how many PBKDF2 derivations it caused. */
async function pbkdf2Runs(fn: () => Promise<unknown>): Promise<number> {
  const before = deriveBits.mock.calls.length
  await fn()
  return deriveBits.mock.calls.length - before
}

describe('no password hashing before validation and limits', () => {
  it('counts what it watches: a login with a password runs PBKDF2 once', async () => {
    const user = await registerAndLogin('watch')
    const runs = await pbkdf2Runs(async () => {
      const res = await api('/user/login', {
        ip: freshIp(),
        body: { username: user.email, password: user.password },
      })
      expect(res.status).toBe(200)
    })
    expect(runs).toBe(1)
  })

  it('invalid input is refused without hashing', async () => {
    const user = await registerAndLogin('invalid')
    const runs = await pbkdf2Runs(async () => {
      for (const [path, body] of [
        [
          '/user/create',
          { customer: { email: 'x@example.com', firstname: 'A', lastname: 'B' }, password: 'short' },
        ],
        ['/user/create', { customer: { email: 'x@example.com' }, password: 'x'.repeat(300) }],
        ['/user/login', { username: 'x@example.com', password: 'p'.repeat(257) }],
        ['/user/create-password', { email: 'x@example.com', newPassword: 'weak', resetToken: 'a' }],
      ] as const) {
        const res = await api(path, { ip: freshIp(), body })
        expect(res.status, path).toBe(400)
        expect(res.json.result, path).toMatch(/password|Password|firstname/)
      }
      const change = await api('/user/change-password', {
        bearer: user.token,
        ip: freshIp(),
        body: { currentPassword: user.password, newPassword: 'weak' },
      })
      expect(change.status).toBe(400)
    })
    expect(runs).toBe(0)
  })

  it(`registration: past ${REGISTER_LIMIT_PER_ACCOUNT} tries for one address in 15 minutes, a 429 and no hashing`, async () => {
    const email = `flood-${Date.now()}@example.com`
    const body = { customer: { email, firstname: 'F', lastname: 'L' }, password: 'Flood1234' }
    for (let i = 0; i < REGISTER_LIMIT_PER_ACCOUNT; i++) {
      expect((await api('/user/create', { ip: freshIp(), body })).status).toBe(200)
    }
    const runs = await pbkdf2Runs(async () => {
      for (let i = 0; i < 5; i++) {
        const res = await api('/user/create', { ip: freshIp(), body })
        expect(res.status).toBe(429)
        expect(res.json.result).toContain(`at most ${REGISTER_LIMIT_PER_ACCOUNT} per e-mail address`)
      }
    })
    expect(runs).toBe(0)
  })

  it('a wrong reset token is refused before the new password is hashed', async () => {
    const user = await registerAndLogin('reset-order')
    const runs = await pbkdf2Runs(async () => {
      const res = await api('/user/create-password', {
        ip: freshIp(),
        body: { email: user.email, newPassword: 'Brand-new-1', resetToken: 'not-the-token' },
      })
      expect(res.status).toBe(400)
    })
    expect(runs).toBe(0)
  })

  it('login and change-password inside the slow-down spacing are refused without hashing', async () => {
    const user = await registerAndLogin('slowed')
    // The spacing runs on the worker's clock, stopped here: on a loaded machine the requests below
    // took longer than the spacing, which then let a guess through (401 where 429 was due).
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now())
    await api('/user/login', { ip: freshIp(), body: { username: user.email, password: 'Wrong1234' } })
    const wrongCurrent = await api('/user/change-password', {
      bearer: user.token,
      ip: freshIp(),
      body: { currentPassword: 'NotMine123', newPassword: 'Brand-new-1' },
    })
    expect(wrongCurrent.status).toBe(400)
    const runs = await pbkdf2Runs(async () => {
      for (let i = 0; i < 5; i++) {
        const login = await api('/user/login', {
          ip: freshIp(),
          body: { username: user.email, password: `Guess${i}xx` },
        })
        expect(login.status).toBe(429)
        const change = await api('/user/change-password', {
          bearer: user.token,
          ip: freshIp(),
          body: { currentPassword: `Guess${i}xx`, newPassword: 'Brand-new-1' },
        })
        expect(change.status).toBe(429)
        expect(change.json.result).toMatch(/Too many wrong passwords\. Please wait \d+ seconds?/)
      }
    })
    expect(runs).toBe(0)
    expect(slowdownDelayMs(1)).toBe(1000)
  })
})

describe('the Rate Limiting binding per client address', () => {
  it(`after ${CLIENT_ADDRESS_LIMIT} password or mail requests in a minute, one address gets a 429 naming the limit`, async () => {
    const user = await registerAndLogin('burst')
    // The binding counts in windows aligned to the minute: the burst is sent again, from a fresh
    // address, if a minute boundary fell inside it.
    const { ip, statuses, limited } = await inOneWindow(60_000, async () => {
      const ip = freshIp()
      const login = () => api('/user/login', { ip, body: { username: user.email, password: user.password } })
      const statuses: number[] = []
      for (let i = 0; i < CLIENT_ADDRESS_LIMIT; i++) statuses.push((await login()).status)
      return { ip, statuses, limited: await login() }
    })
    expect(statuses).toEqual(Array(CLIENT_ADDRESS_LIMIT).fill(200))
    expect(limited.status, 'no 429 from the binding').toBe(429)
    expect(limited.json.result).toBe(MSG_CLIENT_ADDRESS_LIMITED)
    expect(limited.json.result).toContain(`at most ${CLIENT_ADDRESS_LIMIT}`)
    expect(limited.headers.get('retry-after')).toBe('60')
    // Other addresses are not affected.
    const elsewhere = await api('/user/login', {
      ip: freshIp(),
      body: { username: user.email, password: user.password },
    })
    expect(elsewhere.status).toBe(200)
    // Refused before any work: no hashing for the limited address.
    const runs = await pbkdf2Runs(() =>
      api('/user/create', {
        ip,
        body: {
          customer: { email: `b-${Date.now()}@example.com`, firstname: 'A', lastname: 'B' },
          password: 'Burst1234',
        },
      }),
    )
    expect(runs).toBe(0)
  }, 60_000)
})

describe('no limit anyone can spend for someone else', () => {
  it("wrong reset tokens from many addresses do not block the owner's own reset link", async () => {
    const user = await registerAndLogin('reset-dos')
    const resetToken = await resetCodeFor(user.email)
    for (let i = 0; i < 25; i++) {
      const res = await api('/user/create-password', {
        ip: freshIp(),
        body: { email: user.email, newPassword: 'Attack-1234', resetToken: `guess-${i}` },
      })
      expect(res.status).toBe(400)
    }
    const owner = await api('/user/create-password', {
      ip: freshIp(),
      body: { email: user.email, newPassword: 'Owner-5678', resetToken },
    })
    expect(owner.status).toBe(200)
  })
})
