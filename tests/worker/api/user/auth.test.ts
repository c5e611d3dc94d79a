import { env } from 'cloudflare:test'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { issueAccessToken, signJws } from '../../../../worker/api/auth/tokens'
import { api, freshIp, registerAndLogin, waitForMail } from '../../../helpers/user'

afterEach(() => {
  vi.useRealTimers()
})

/** Moves the clock (the worker runs in this isolate) past a slow-down spacing. */
function advanceClock(ms: number) {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(Date.now() + ms)
}

const SECRET = env.TOKEN_SECRET as string

describe('registration', () => {
  it('creates a customer and never returns the password hash', async () => {
    const res = await api('/user/create', {
      body: {
        customer: { email: 'new.customer@example.com', firstname: 'Mira', lastname: 'Sen' },
        password: 'Kurta2024',
      },
    })
    expect(res.status).toBe(200)
    expect(res.json.code).toBe(200)
    expect(res.json.result).toMatchObject({
      email: 'new.customer@example.com',
      firstname: 'Mira',
      addresses: [],
    })
    expect(JSON.stringify(res.json)).not.toMatch(/pbkdf2|password/i)
    expect(res.headers.get('cache-control')).toBe('no-store')
    const row = await env.DB.prepare('SELECT password_hash FROM customers WHERE email = ?')
      .bind('new.customer@example.com')
      .first<{ password_hash: string }>()
    expect(row?.password_hash).toMatch(/^pbkdf2-sha256\$100000\$/)
  })

  it('refuses weak passwords with the policy message', async () => {
    for (const password of ['short1', 'lettersonly', '12345678']) {
      const res = await api('/user/create', {
        body: { customer: { email: 'weak@example.com', firstname: 'A', lastname: 'B' }, password },
      })
      expect(res.status).toBe(400)
      expect(res.json.result).toContain('at least 8 characters')
    }
  })

  it('answers a taken e-mail exactly like a new one, mails its owner and changes nothing; bad input is a 400', async () => {
    const first = await registerAndLogin('dup')
    const body = (email: string) => ({
      customer: { email, firstname: 'A', lastname: 'B' },
      password: 'Another123',
    })
    const again = await api('/user/create', { body: body(first.email.toUpperCase()), ip: freshIp() })
    const fresh = await api('/user/create', { body: body('FRESH.dup@example.com'), ip: freshIp() })
    expect(again.status).toBe(200)
    expect(again.json).toEqual({
      ...fresh.json,
      result: { ...fresh.json.result, email: first.email.toUpperCase() },
    })
    const mail = await waitForMail('account-exists', first.email)
    expect(mail.body).toContain('You already have one')
    // The owner's password still works; the registrant's does not.
    expect(
      (await api('/user/login', { body: { username: first.email, password: 'Another123' }, ip: freshIp() }))
        .status,
    ).toBe(401)
    advanceClock(1500)
    expect(
      (await api('/user/login', { body: { username: first.email, password: first.password }, ip: freshIp() }))
        .status,
    ).toBe(200)
    const count = await env.DB.prepare('SELECT COUNT(*) AS n FROM customers WHERE email = ?')
      .bind(first.email)
      .first<{ n: number }>()
    expect(count?.n).toBe(1)
    const bad = await api('/user/create', {
      body: { customer: { email: 'not-an-email' }, password: 'Abcdefg1' },
    })
    expect(bad.status).toBe(400)
    expect(bad.json.result).toMatch(/email/)
    const notJson = await api('/user/create', { rawBody: '{oops' })
    expect(notJson.status).toBe(400)
  })
})

describe('login and tokens', () => {
  it('logs in with the token in the result and a refresh token in meta; /me accepts ?token and Bearer', async () => {
    const user = await registerAndLogin('login')
    expect(user.token.split('.')).toHaveLength(3)
    expect(user.refreshToken).toMatch(/^[A-Za-z0-9_-]{40,}$/)
    const viaQuery = await api(`/user/me?token=${user.token}`)
    expect(viaQuery.status).toBe(200)
    expect(viaQuery.json.result).toMatchObject({ id: user.id, email: user.email })
    expect(typeof viaQuery.json.result.groupToken).toBe('string')
    expect(JSON.stringify(viaQuery.json)).not.toMatch(/pbkdf2|password_hash|reset_token/)
    const viaHeader = await api('/user/me', { bearer: user.token })
    expect(viaHeader.json.result.id).toBe(user.id)
  })

  it('rejects a wrong password with 401', async () => {
    const user = await registerAndLogin('wrong')
    const res = await api('/user/login', {
      body: { username: user.email, password: 'Nope12345' },
      ip: freshIp(),
    })
    expect(res.status).toBe(401)
    expect(res.json.code).toBe(401)
  })

  it('rejects expired, tampered, unsigned and foreign-key tokens with 401', async () => {
    const user = await registerAndLogin('tokens')
    const family = JSON.parse(
      atob((user.token.split('.')[1] as string).replace(/-/g, '+').replace(/_/g, '/')),
    ).fam
    const expired = await issueAccessToken(SECRET, user.id, 0, family, Date.now() - 16 * 60 * 1000)
    const [h, p] = user.token.split('.') as [string, string]
    const forged = JSON.parse(atob(p.replace(/-/g, '+').replace(/_/g, '/')))
    forged.sub = String(user.id + 1)
    const tamperedPayload = btoa(JSON.stringify(forged))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '')
    const tampered = `${h}.${tamperedPayload}.${user.token.split('.')[2]}`
    const unsigned = `${btoa(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${p}.`
    const otherKey = await signJws('some-other-secret-entirely', {
      sub: String(user.id),
      ver: 0,
      typ: 'access',
      iat: 1,
      exp: 9e9,
    })
    for (const token of [expired, tampered, unsigned, otherKey, 'garbage']) {
      const res = await api(`/user/me?token=${encodeURIComponent(token)}`)
      expect(res.status, token).toBe(401)
      expect(res.json.result).toContain('authorized')
    }
    const noToken = await api('/user/me')
    expect(noToken.status).toBe(401)
    expect(noToken.headers.get('cache-control')).toBe('no-store')
  })

  it('rotates refresh tokens and revokes the whole family when a rotated token is reused', async () => {
    const user = await registerAndLogin('refresh')
    const first = await api('/user/refresh', { body: { refreshToken: user.refreshToken } })
    expect(first.status).toBe(200)
    expect(typeof first.json.result).toBe('string')
    const second = first.json.meta.refreshToken as string
    expect(second).not.toBe(user.refreshToken)
    const me = await api(`/user/me?token=${first.json.result}`)
    expect(me.json.result.id).toBe(user.id)
    // Reuse of the already-rotated token → 401 and the family (including `second`) is revoked.
    const reuse = await api('/user/refresh', { body: { refreshToken: user.refreshToken } })
    expect(reuse.status).toBe(401)
    const afterRevoke = await api('/user/refresh', { body: { refreshToken: second } })
    expect(afterRevoke.status).toBe(401)
    const stored = await env.DB.prepare('SELECT token_hash FROM refresh_tokens WHERE customer_id = ?')
      .bind(user.id)
      .all<{ token_hash: string }>()
    expect(stored.results.some((r) => r.token_hash === user.refreshToken)).toBe(false)
  })

  it('a revoked family ends its access tokens at once, not after their 15 minutes; other sign-ins keep working', async () => {
    const user = await registerAndLogin('family')
    // The thief refreshes first with a stolen copy: they hold an access token of the family.
    const stolen = await api('/user/refresh', { body: { refreshToken: user.refreshToken } })
    expect(stolen.status).toBe(200)
    const thiefToken = stolen.json.result as string
    // The same customer signed in on another device: another family.
    const elsewhere = await api('/user/login', {
      body: { username: user.email, password: 'Secret123' },
      ip: '198.18.9.9',
    })
    expect(elsewhere.status).toBe(200)
    for (const token of [user.token, thiefToken, elsewhere.json.result as string])
      expect((await api('/user/me', { bearer: token })).status).toBe(200)
    // The owner's browser uses its (already rotated) refresh token: reuse, the family is revoked.
    expect((await api('/user/refresh', { body: { refreshToken: user.refreshToken } })).status).toBe(401)
    // Every access token of that family stops at once: reading or writing personal data alike.
    for (const token of [user.token, thiefToken]) {
      expect((await api('/user/me', { bearer: token })).status).toBe(401)
      expect((await api('/user/order-history', { bearer: token })).status).toBe(401)
      expect((await api('/cart/create', { method: 'POST', bearer: token })).status).toBe(401)
    }
    expect((await api('/user/me', { bearer: elsewhere.json.result as string })).status).toBe(200)
  })

  it('lets exactly one of two concurrent refreshes with the same token win', async () => {
    const user = await registerAndLogin('race')
    const answers = await Promise.all([
      api('/user/refresh', { body: { refreshToken: user.refreshToken } }),
      api('/user/refresh', { body: { refreshToken: user.refreshToken } }),
    ])
    expect(answers.filter((a) => a.status === 200).length).toBeLessThanOrEqual(1)
    expect(answers.some((a) => a.status === 401)).toBe(true)
  })
})

describe('rate limiting', () => {
  it('slows an account down after failed logins instead of blocking it: the owner gets in after the spacing', async () => {
    const user = await registerAndLogin('limit')
    for (let i = 0; i < 5; i++) {
      const res = await api('/user/login', {
        body: { username: user.email, password: 'Wrong1234' },
        ip: freshIp(),
      })
      expect(res.status).toBe(401)
      // The next check is allowed 1 s, 2 s, 4 s … after a failure.
      if (i < 4) advanceClock(2 ** i * 1000)
    }
    const early = await api('/user/login', {
      body: { username: user.email, password: user.password },
      ip: freshIp(),
    })
    expect(early.status).toBe(429)
    expect(early.json.result).toContain('Too many failed sign-in attempts for this account')
    advanceClock(Number(early.headers.get('retry-after')) * 1000)
    const owner = await api('/user/login', {
      body: { username: user.email, password: user.password },
      ip: freshIp(),
    })
    expect(owner.status).toBe(200)
  })

  it('blocks an IP after 20 failed logins across accounts', async () => {
    const ip = freshIp()
    for (let i = 0; i < 20; i++) {
      const res = await api('/user/login', {
        body: { username: `nobody${i}@example.com`, password: 'Wrong1234' },
        ip,
      })
      expect(res.status).toBe(401)
    }
    const blocked = await api('/user/login', {
      body: { username: 'nobody-else@example.com', password: 'x' },
      ip,
    })
    expect(blocked.status).toBe(429)
  })

  it('does not count successful logins as failures', async () => {
    const user = await registerAndLogin('success')
    for (let i = 0; i < 7; i++) {
      const res = await api('/user/login', {
        body: { username: user.email, password: user.password },
        ip: freshIp(),
      })
      expect(res.status).toBe(200)
    }
  })
})

describe('passwords', () => {
  it('changes the password: old access tokens and refresh tokens stop working, the new password signs in', async () => {
    const user = await registerAndLogin('change')
    const wrong = await api(`/user/change-password?token=${user.token}`, {
      body: { currentPassword: 'NotMine123', newPassword: 'Brand1234' },
    })
    expect(wrong.status).toBe(400)
    expect(wrong.json.result.errorMessage).toContain("doesn't match")
    advanceClock(1000)
    const weak = await api(`/user/change-password?token=${user.token}`, {
      body: { currentPassword: user.password, newPassword: 'weak' },
    })
    expect(weak.status).toBe(400)
    expect(weak.json.result.errorMessage).toContain('at least 8 characters')
    const changed = await api(`/user/change-password?token=${user.token}`, {
      body: { currentPassword: user.password, newPassword: 'Brand1234' },
    })
    expect(changed.status).toBe(200)
    expect(changed.json.result).toBe(true)
    expect((await api(`/user/me?token=${user.token}`)).status).toBe(401)
    expect((await api('/user/refresh', { body: { refreshToken: user.refreshToken } })).status).toBe(401)
    const login = await api('/user/login', {
      body: { username: user.email, password: 'Brand1234' },
      ip: freshIp(),
    })
    expect(login.status).toBe(200)
  })

  it('mails a single-use reset token and answers the same for unknown addresses', async () => {
    const user = await registerAndLogin('reset')
    const unknown = await api('/user/reset-password', {
      body: { email: 'nobody-here@example.com' },
      ip: freshIp(),
    })
    expect(unknown.status).toBe(200)
    const known = await api('/user/reset-password', { body: { email: user.email }, ip: freshIp() })
    expect(known.json).toEqual(unknown.json)
    const mail = await waitForMail('password-reset', user.email)
    expect(mail.status).toBe('queued')
    const resetToken = /Reset code: (\S+)/.exec(mail?.body ?? '')?.[1] as string
    expect(resetToken).toBeTruthy()
    const bad = await api('/user/create-password', {
      body: { email: user.email, newPassword: 'Reset1234', resetToken: 'wrong-token' },
    })
    expect(bad.status).toBe(400)
    const good = await api('/user/create-password', {
      body: { email: user.email, newPassword: 'Reset1234', resetToken },
    })
    expect(good.status).toBe(200)
    const reused = await api('/user/create-password', {
      body: { email: user.email, newPassword: 'Again1234', resetToken },
    })
    expect(reused.status).toBe(400)
    const login = await api('/user/login', {
      body: { username: user.email, password: 'Reset1234' },
      ip: freshIp(),
    })
    expect(login.status).toBe(200)
  })

  it('rate-limits reset requests per account', async () => {
    const email = 'reset-flood@example.com'
    for (let i = 0; i < 5; i++) {
      expect((await api('/user/reset-password', { body: { email }, ip: freshIp() })).status).toBe(200)
    }
    const blocked = await api('/user/reset-password', { body: { email }, ip: freshIp() })
    expect(blocked.status).toBe(429)
  })
})

describe('social login', () => {
  it('is refused with a clear 400 when Google is not configured', async () => {
    const res = await api('/user/social-login', {
      body: { email: 'a@example.com', fname: 'A', lname: 'B', token: 'x.y.z', provider: 'google' },
    })
    expect(res.status).toBe(400)
    expect(res.json.result).toContain('not configured')
    const other = await api('/user/social-login', {
      body: { email: 'a@example.com', token: 'x.y.z', provider: 'myspace' },
    })
    expect(other.status).toBe(400)
  })
})
