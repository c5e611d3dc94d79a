// Nobody can lock another person out: an attacker guessing one account's password from many
// addresses only slows its checks down (spacing doubling per failure, capped), and the owner with
// the right password gets in within the stated cap — at once from a browser that holds the
// account's device token. The clock is moved with fake timers (the worker runs in this isolate).
import { env } from 'cloudflare:test'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { SLOWDOWN_BASE_MS, SLOWDOWN_CAP_MS, slowdownDelayMs } from '../../../../worker/api/auth/rate-limit'
import { api, freshIp, registerAndLogin } from '../../../helpers/user'

vi.spyOn(console, 'error').mockImplementation(() => {})

let clock = Date.now()
function setClock(ms: number) {
  clock = ms
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(clock)
}

afterEach(() => {
  vi.useRealTimers()
})

const login = (username: string, password: string, extra: Record<string, unknown> = {}) =>
  api('/user/login', { ip: freshIp(), body: { username, password, ...extra } })

describe('spacing', () => {
  it('doubles per recent failure from 1 s and stops at the cap', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 20].map(slowdownDelayMs)).toEqual([
      0, 1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000,
    ])
    expect(SLOWDOWN_BASE_MS).toBe(1000)
    expect(SLOWDOWN_CAP_MS).toBe(60_000)
  })
})

describe('an attacker from many addresses', () => {
  it('gets one password check per spacing; the owner signs in within the cap after the last failure', async () => {
    const owner = await registerAndLogin('victim')
    setClock(Date.now())
    let checked = 0
    let refused = 0
    // 200 guesses, each from a new address, every 250 ms of (fake) time: 50 s of guessing.
    for (let i = 0; i < 200; i++) {
      const res = await login(owner.email, `Guess${i}x`)
      expect([401, 429], JSON.stringify(res.json)).toContain(res.status)
      if (res.status === 401) checked++
      else {
        refused++
        expect(JSON.stringify(res.json)).not.toMatch(/eyJ/)
      }
      setClock(clock + 250)
    }
    // 1+2+4+8+16 s of spacing fit into 50 s: at most 6 passwords were actually checked.
    expect(checked).toBeLessThanOrEqual(6)
    expect(refused).toBeGreaterThanOrEqual(194)
    const row = await env.DB.prepare('SELECT failures, next_allowed_at FROM auth_throttle WHERE key = ?')
      .bind(`login:acct:${owner.email.toLowerCase()}`)
      .first<{ failures: number; next_allowed_at: number }>()
    expect(row?.failures).toBe(checked)
    // The owner, with the right password, as soon as the stated wait is over — never more than the cap.
    const tooEarly = await login(owner.email, owner.password)
    const waitMs = Number(tooEarly.headers.get('retry-after')) * 1000
    expect(tooEarly.status).toBe(429)
    expect(waitMs).toBeLessThanOrEqual(SLOWDOWN_CAP_MS)
    setClock(clock + waitMs)
    const ok = await login(owner.email, owner.password)
    expect(ok.status, JSON.stringify(ok.json)).toBe(200)
    expect(typeof ok.json.result).toBe('string')
    // A success forgets the failures.
    expect(
      await env.DB.prepare('SELECT 1 FROM auth_throttle WHERE key = ?')
        .bind(`login:acct:${owner.email.toLowerCase()}`)
        .first(),
    ).toBeNull()
  }, 60_000)

  it("the owner's browser (device token) gets in at once while the account is being slowed down", async () => {
    const owner = await registerAndLogin('device-owner')
    expect(owner.deviceToken).toMatch(/^eyJ/)
    setClock(Date.now())
    for (let i = 0; i < 6; i++) {
      expect((await login(owner.email, `Wrong${i}pass`)).status).toBe(401)
      if (i < 5) setClock(clock + slowdownDelayMs(i + 1))
    }
    expect((await login(owner.email, owner.password)).status).toBe(429)
    const fromDevice = await login(owner.email, owner.password, { deviceToken: owner.deviceToken })
    expect(fromDevice.status).toBe(200)
    expect(fromDevice.json.meta.deviceToken).toBe(owner.deviceToken)
    // The device token does not help a wrong password, nor another account, nor a forged copy.
    setClock(clock + 2000)
    expect((await login(owner.email, 'Wrong9pass', { deviceToken: owner.deviceToken })).status).toBe(401)
    const other = await registerAndLogin('device-other')
    expect((await login(owner.email, owner.password, { deviceToken: other.deviceToken })).status).toBe(429)
    const forged = `${(owner.deviceToken as string).slice(0, -2)}AA`
    expect((await login(owner.email, owner.password, { deviceToken: forged })).status).toBe(429)
  })

  it('parallel guesses get one check per slot', async () => {
    const owner = await registerAndLogin('parallel')
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => login(owner.email, `Parallel${i}x`)),
    )
    const statuses = answers.map((a) => a.status).sort()
    expect(statuses.filter((s) => s === 401)).toHaveLength(1)
    expect(statuses.filter((s) => s === 429)).toHaveLength(11)
  })

  it('failures are forgotten after 15 quiet minutes', async () => {
    const owner = await registerAndLogin('quiet')
    setClock(Date.now())
    for (let i = 0; i < 5; i++) {
      await login(owner.email, `Wrong${i}pass`)
      setClock(clock + slowdownDelayMs(i + 1))
    }
    setClock(clock + 15 * 60 * 1000)
    expect((await login(owner.email, 'Wrong-again1')).status).toBe(401)
    // One failure again: the next check waits 1 s, not 32 s.
    const next = await login(owner.email, owner.password)
    expect(Number(next.headers.get('retry-after'))).toBe(1)
  })
})
