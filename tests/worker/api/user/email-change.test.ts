// A stolen access token is not enough to take an account over through its e-mail address: a new
// address needs the current password (slowed down like sign-in), the old address is told.
import { env } from 'cloudflare:test'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { EMAIL_CHANGE_NEEDS_PASSWORD } from '../../../../worker/api/user/profile'
import { api, freshIp, lastMailId, registerAndLogin, resetCodeFor, waitForMail } from '../../../helpers/user'

vi.spyOn(console, 'error').mockImplementation(() => {})

afterEach(() => {
  vi.useRealTimers()
})

function advanceClock(ms: number) {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(Date.now() + ms)
}

const storedEmail = async (id: number) =>
  (await env.DB.prepare('SELECT email FROM customers WHERE id = ?').bind(id).first<{ email: string }>())
    ?.email

describe('changing the e-mail address', () => {
  it('needs the current password: missing or wrong → 400 and nothing changes', async () => {
    const user = await registerAndLogin('mover')
    const target = `taken-over-${Date.now()}@example.com`
    const profile = { email: target, firstname: 'Eve', lastname: 'Attacker' }
    const missing = await api('/user/me', { bearer: user.token, body: { customer: profile } })
    expect(missing.status).toBe(400)
    expect(missing.json.result).toBe(EMAIL_CHANGE_NEEDS_PASSWORD)
    const wrong = await api('/user/me', {
      bearer: user.token,
      ip: freshIp(),
      body: { customer: profile, currentPassword: 'Guess-1234' },
    })
    expect(wrong.status).toBe(400)
    expect(wrong.json.result).toContain("doesn't match")
    // Another guess at once is slowed down, even with the right password.
    const fast = await api('/user/me', {
      bearer: user.token,
      ip: freshIp(),
      body: { customer: profile, currentPassword: user.password },
    })
    expect(fast.status).toBe(429)
    expect(await storedEmail(user.id)).toBe(user.email)
    const row = await env.DB.prepare('SELECT firstname FROM customers WHERE id = ?')
      .bind(user.id)
      .first<{ firstname: string }>()
    expect(row?.firstname).toBe('Asha')
  })

  it('with the current password: changed, the old address is told, sign-in uses the new one', async () => {
    const user = await registerAndLogin('mover-ok')
    const next = `moved-${Date.now()}@example.com`
    const before = await lastMailId()
    const res = await api('/user/me', {
      bearer: user.token,
      ip: freshIp(),
      body: { customer: { email: next, firstname: 'Asha', lastname: 'Rao' }, currentPassword: user.password },
    })
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    expect(res.json.result.email).toBe(next)
    const mail = await waitForMail('email-changed', user.email, before)
    expect(mail.body).toContain(next)
    expect(
      (await api('/user/login', { ip: freshIp(), body: { username: next, password: user.password } })).status,
    ).toBe(200)
    advanceClock(1500)
    expect(
      (await api('/user/login', { ip: freshIp(), body: { username: user.email, password: user.password } }))
        .status,
    ).toBe(401)
  })

  it('a pending reset link of the old address stops working after the change', async () => {
    const user = await registerAndLogin('mover-reset')
    const resetToken = await resetCodeFor(user.email)
    const next = `moved-reset-${Date.now()}@example.com`
    const changed = await api('/user/me', {
      bearer: user.token,
      ip: freshIp(),
      body: { customer: { email: next, firstname: 'Asha', lastname: 'Rao' }, currentPassword: user.password },
    })
    expect(changed.status).toBe(200)
    for (const email of [user.email, next]) {
      const res = await api('/user/create-password', {
        ip: freshIp(),
        body: { email, newPassword: 'Hijack-123', resetToken },
      })
      expect(res.status, email).toBe(400)
    }
  })

  it('other profile changes and a change of letter case need no password', async () => {
    const user = await registerAndLogin('mover-case')
    const res = await api('/user/me', {
      bearer: user.token,
      body: { customer: { email: user.email.toUpperCase(), firstname: 'Asha', lastname: 'Iyer' } },
    })
    expect(res.status).toBe(200)
    expect(res.json.result.lastname).toBe('Iyer')
  })

  it("someone else's address is refused after the password check, without changing anything", async () => {
    const user = await registerAndLogin('mover-a')
    const other = await registerAndLogin('mover-b')
    const res = await api('/user/me', {
      bearer: user.token,
      ip: freshIp(),
      body: {
        customer: { email: other.email, firstname: 'A', lastname: 'B' },
        currentPassword: user.password,
      },
    })
    expect(res.status).toBe(400)
    expect(await storedEmail(user.id)).toBe(user.email)
  })
})
