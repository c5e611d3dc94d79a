// Newsletter: nobody reads or changes the status of an address that is not theirs. Sign-ups wait
// for the mailed, signed confirmation link (built from PUBLIC_ORIGIN); leaving works with the
// signed link from a mail or, signed in, for one's own address; links are refused when tampered
// with, of another kind, or expired.
import { env, SELF } from 'cloudflare:test'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { signJws } from '../../../../worker/api/auth/tokens'
import { MSG_BAD_LINK, SUBSCRIBE_LIMIT_PER_ADDRESS } from '../../../../worker/api/newsletter/routes'
import { readConfig } from '../../../../worker/platform/env'
import { appFetch } from '../../../helpers/in-isolate'
import { api, followLink, freshIp, lastMailId, registerAndLogin, waitForMail } from '../../../helpers/user'

vi.spyOn(console, 'error').mockImplementation(() => {})
afterEach(() => {
  vi.useRealTimers()
})

const ORIGIN = readConfig(env).PUBLIC_ORIGIN
const PATH = '/ext/mailchimp-subscribe/subscribe'
let seq = 0
const address = (label: string) => `${label}-${Date.now()}-${++seq}@example.com`

const statusOf = async (email: string) =>
  (
    await env.DB.prepare('SELECT status FROM newsletter_subscribers WHERE email = ?')
      .bind(email)
      .first<{ status: string }>()
  )?.status ?? null

/** Signs up anonymously through a hostile Host and returns the confirm and unsubscribe links mailed. */
async function signUp(email: string) {
  const before = await lastMailId()
  const res = await SELF.fetch(`https://evil.example/api${PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': freshIp() },
    body: JSON.stringify({ email }),
  })
  expect(res.status).toBe(200)
  expect(await res.json()).toEqual({ code: 200, result: 'pending' })
  const mail = await waitForMail('newsletter-confirm', email, before)
  const links = mail.body.match(/https?:\/\/\S+/g) ?? []
  const confirm = links.find((l) => l.includes('/confirm?')) as string
  const unsubscribe = links.find((l) => l.includes('/unsubscribe?')) as string
  return { confirm, unsubscribe, mail }
}

/** Follows a mailed link: `page` and `form` as a browser, `get` and `post` as an API call. */
async function follow(link: string, how: 'get' | 'post' | 'page' | 'form') {
  const res = await followLink(link, how === 'post' ? 'json' : how)
  return {
    status: res.status,
    type: res.type,
    csp: res.csp,
    body: res.type.includes('json') ? JSON.parse(res.text) : res.text,
  } as { status: number; type: string; csp: string | null; body: { code: number; result: unknown } | string }
}

describe('double opt-in', () => {
  it('a sign-up is pending until its mailed link is confirmed; opening the link changes nothing by itself', async () => {
    const email = address('reader')
    const { confirm, unsubscribe } = await signUp(email)
    expect(confirm.startsWith(`${ORIGIN}/api/ext/mailchimp-subscribe/confirm?key=`)).toBe(true)
    expect(unsubscribe.startsWith(`${ORIGIN}/api/ext/mailchimp-subscribe/unsubscribe?key=`)).toBe(true)
    expect(await statusOf(email)).toBe('pending')
    // A mail scanner or a browser opening the link: a page with a button, status unchanged.
    const opened = await follow(confirm, 'page')
    expect(opened.status).toBe(200)
    expect(opened.type).toContain('text/html')
    expect(opened.body).toContain('<form method="post">')
    expect(opened.body).toContain(email)
    expect(opened.csp).toContain("form-action 'self'")
    expect((await follow(confirm, 'get')).body).toEqual({ code: 200, result: { action: 'confirm', email } })
    expect(await statusOf(email)).toBe('pending')
    // The button.
    const done = await follow(confirm, 'form')
    expect(done.status).toBe(200)
    expect(done.body).toContain('Subscription confirmed')
    expect(await statusOf(email)).toBe('subscribed')
    // A second click changes nothing.
    expect((await follow(confirm, 'post')).body).toEqual({ code: 200, result: 'subscribed' })
  })

  it('the signed unsubscribe link works without signing in, and a later replay of the confirm link does not resubscribe', async () => {
    const email = address('leaver')
    const { confirm, unsubscribe } = await signUp(email)
    expect((await follow(confirm, 'post')).body).toEqual({ code: 200, result: 'subscribed' })
    expect((await follow(unsubscribe, 'post')).body).toEqual({ code: 200, result: 'unsubscribed' })
    expect(await statusOf(email)).toBe('unsubscribed')
    expect((await follow(confirm, 'post')).status).toBe(400)
    expect(await statusOf(email)).toBe('unsubscribed')
  })

  it('refuses links that were edited, are of another kind, expired, or are not ours', async () => {
    const email = address('forger')
    const { confirm, unsubscribe } = await signUp(email)
    const key = new URL(confirm).searchParams.get('key') as string
    const [h, p, s] = key.split('.') as [string, string, string]
    const claims = JSON.parse(atob(p.replace(/-/g, '+').replace(/_/g, '/')))
    const victimPayload = btoa(JSON.stringify({ ...claims, email: 'victim@example.com' }))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '')
    const user = await registerAndLogin('forger-user')
    const now = Math.floor(Date.now() / 1000)
    const bad = [
      confirm.replace(key, `${h}.${victimPayload}.${s}`),
      confirm.replace(key, `${key}=`),
      confirm.replace('/confirm?', '/unsubscribe?'),
      unsubscribe.replace('/unsubscribe?', '/confirm?'),
      confirm.replace(key, user.token),
      confirm.replace(
        key,
        await signJws('not-the-secret', {
          typ: 'newsletter-unsubscribe',
          email: 'victim@example.com',
          iat: now,
        }),
      ),
      confirm.replace(
        key,
        await signJws(env.TOKEN_SECRET as string, { typ: 'newsletter-confirm', email, iat: now }),
      ),
      confirm.replace(/key=.*/, 'key='),
      confirm.replace(/key=.*/, `key=${'a'.repeat(5000)}`),
    ]
    for (const link of bad) {
      const res = await follow(link, 'post')
      expect(res.status, link).toBe(400)
      expect(res.type).toContain('json')
      const page = await follow(link, 'page')
      expect(page.status).toBe(400)
      expect(page.body).toContain(MSG_BAD_LINK)
    }
    expect(await statusOf(email)).toBe('pending')
    expect(await statusOf('victim@example.com')).toBeNull()
    // Seven days later the confirmation link has expired.
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 7 * 24 * 3600 * 1000 + 1000)
    expect((await follow(confirm, 'post')).status).toBe(400)
    expect(await statusOf(email)).toBe('pending')
  })
})

describe('nobody else reads or changes an address', () => {
  it('anyone but the signed-in owner reads "unsubscribed" and cannot unsubscribe; repeating a sign-up changes nothing', async () => {
    const email = address('subscriber')
    const { confirm } = await signUp(email)
    await follow(confirm, 'post')
    expect(await statusOf(email)).toBe('subscribed')
    const stranger = await registerAndLogin('stranger')
    for (const bearer of [undefined, stranger.token]) {
      const read = await api(`${PATH}?email=${encodeURIComponent(email)}`, { bearer })
      expect(read.json).toEqual({ code: 200, result: 'unsubscribed' })
      const del = await api(PATH, { method: 'DELETE', bearer, body: { email } })
      expect(del.status).toBe(403)
      expect(del.json.result).toContain('Sign in to change the newsletter settings of your own address')
    }
    // A repeated sign-up answers like any other, keeps the subscription and mails nothing.
    const before = await lastMailId()
    const again = await api(PATH, { ip: freshIp(), body: { email } })
    expect(again.json).toEqual({ code: 200, result: 'pending' })
    expect(await statusOf(email)).toBe('subscribed')
    expect(await lastMailId()).toBe(before)
  })

  it(`at most ${SUBSCRIBE_LIMIT_PER_ADDRESS} confirmation mails per address a day`, async () => {
    const email = address('bombed')
    for (let i = 0; i < SUBSCRIBE_LIMIT_PER_ADDRESS; i++) {
      expect((await api(PATH, { ip: freshIp(), body: { email } })).status).toBe(200)
    }
    const limited = await api(PATH, { ip: freshIp(), body: { email } })
    expect(limited.status).toBe(429)
    expect(limited.json.result).toContain(
      `at most ${SUBSCRIBE_LIMIT_PER_ADDRESS} confirmation mails per address a day`,
    )
  })
})

describe('the signed-in shopper', () => {
  it('reads, subscribes (pending until confirmed) and unsubscribes their own address', async () => {
    const user = await registerAndLogin('own')
    const own = (init: Parameters<typeof api>[1] = {}) =>
      api(PATH, { bearer: user.token, ip: freshIp(), ...init })
    expect((await api(`${PATH}?email=${user.email}`, { bearer: user.token })).json.result).toBe(
      'unsubscribed',
    )
    const before = await lastMailId()
    expect((await own({ body: { email: user.email } })).json.result).toBe('pending')
    expect((await api(`${PATH}?email=${user.email}`, { bearer: user.token })).json.result).toBe('pending')
    const mail = await waitForMail('newsletter-confirm', user.email, before)
    const confirm = (mail.body.match(/https?:\/\/\S+\/confirm\?\S+/) ?? [])[0] as string
    await follow(confirm, 'post')
    expect((await api(`${PATH}?email=${user.email}`, { bearer: user.token })).json.result).toBe('subscribed')
    expect((await own({ body: { email: user.email } })).json.result).toBe('subscribed')
    expect((await own({ method: 'DELETE', body: { email: user.email } })).json.result).toBe('unsubscribed')
    expect(await statusOf(user.email)).toBe('unsubscribed')
  })
})

describe('with Mailchimp', () => {
  it('new members start pending (Mailchimp mails the confirmation); strangers read nothing from Mailchimp', async () => {
    const sent: { url: string; method: string; body: unknown }[] = []
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
      sent.push({
        url,
        method: init?.method ?? 'GET',
        body: init?.body ? JSON.parse(String(init.body)) : null,
      })
      return new Response('{"status":"pending"}', {
        status: 200,
        headers: { 'content-type': 'application/json' },
      })
    })
    const secrets = {
      MAILCHIMP_API_KEY: 'mc-key',
      MAILCHIMP_LIST_URL: 'https://us1.api.mailchimp.com/3.0/lists/abc',
    }
    const call = async (path: string, init: RequestInit) => {
      const res = await appFetch(
        `/api${path}`,
        { ...init, headers: { 'content-type': 'application/json', 'cf-connecting-ip': freshIp() } },
        { ...env, ...secrets },
      )
      return (await res.json()) as { code: number; result: unknown }
    }
    try {
      const email = address('chimp')
      expect(await call(PATH, { method: 'POST', body: JSON.stringify({ email }) })).toEqual({
        code: 200,
        result: 'pending',
      })
      expect(sent).toHaveLength(1)
      expect(sent[0]?.method).toBe('PUT')
      expect(sent[0]?.body).toEqual({ email_address: email, status_if_new: 'pending' })
      expect(await call(`${PATH}?email=${encodeURIComponent(email)}`, { method: 'GET' })).toEqual({
        code: 200,
        result: 'unsubscribed',
      })
      expect(sent).toHaveLength(1)
      expect(await statusOf(email)).toBeNull()
    } finally {
      vi.restoreAllMocks()
    }
  })
})

describe('the per-address mail limit', () => {
  it("strangers using it up do not stop the address's signed-in owner", async () => {
    const user = await registerAndLogin('flooded')
    for (let i = 0; i < SUBSCRIBE_LIMIT_PER_ADDRESS; i++)
      await api(PATH, { ip: freshIp(), body: { email: user.email } })
    expect((await api(PATH, { ip: freshIp(), body: { email: user.email } })).status).toBe(429)
    const own = await api(PATH, { bearer: user.token, ip: freshIp(), body: { email: user.email } })
    expect(own.status).toBe(200)
    expect(own.json.result).toBe('pending')
  })
})
