// Registration and password reset do not tell whether an address has an account: the same answer
// and the same work on both paths (PBKDF2 runs counted in this isolate), the owner of a taken
// address is mailed instead. Mailed links are built from PUBLIC_ORIGIN, whatever Host the request had.
import { env, SELF } from 'cloudflare:test'
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest'
import { readConfig } from '../../../../worker/platform/env'
import { api, freshIp, lastMailId, registerAndLogin, waitForMail } from '../../../helpers/user'

vi.spyOn(console, 'error').mockImplementation(() => {})

const ORIGIN = readConfig(env).PUBLIC_ORIGIN

let deriveBits: MockInstance
beforeEach(() => {
  deriveBits = vi.spyOn(crypto.subtle, 'deriveBits')
})
afterEach(() => {
  vi.restoreAllMocks()
})

/** Calls the API through a hostile Host (and forwarding headers) and returns status, headers, JSON. */
async function viaEvilHost(path: string, body: unknown) {
  const res = await SELF.fetch(`https://evil.example${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'cf-connecting-ip': freshIp(),
      'x-forwarded-host': 'evil.example',
      forwarded: 'host=evil.example;proto=https',
    },
    body: JSON.stringify(body),
  })
  return { status: res.status, type: res.headers.get('content-type'), json: await res.json() }
}

/** The answer with the address replaced, so answers about two addresses can be compared. */
const shape = (answer: { status: number; json: unknown }, email: string) => ({
  status: answer.status,
  json: JSON.parse(JSON.stringify(answer.json).split(email).join('<email>')),
})

describe('registration', () => {
  it('answers a taken address exactly like a new one, with the same PBKDF2 work, and mails the owner', async () => {
    expect(ORIGIN).not.toContain('evil')
    const owner = await registerAndLogin('taken')
    const newEmail = `brand-new-${Date.now()}@example.com`
    const body = (email: string) => ({
      customer: {
        email,
        firstname: 'Ira',
        lastname: 'Das',
        addresses: [
          { firstname: 'Ira', lastname: 'Das', street: ['1 Lane', ''], city: 'Goa', country_id: 'IN' },
        ],
      },
      password: 'Chosen-123',
    })
    const before = await lastMailId()
    const ownerRow = () => env.DB.prepare('SELECT * FROM customers WHERE email = ?').bind(owner.email).first()
    const rowBefore = await ownerRow()
    const runs: number[] = []
    const answers = []
    for (const email of [owner.email, newEmail]) {
      const start = deriveBits.mock.calls.length
      answers.push(shape(await viaEvilHost('/api/user/create', body(email)), email))
      runs.push(deriveBits.mock.calls.length - start)
    }
    expect(answers[0]).toEqual(answers[1])
    expect(answers[0]?.status).toBe(200)
    expect(runs).toEqual([1, 1])
    expect(await ownerRow()).toEqual(rowBefore)
    // The owner hears about it; the account is unchanged (its password, no second address book).
    const mail = await waitForMail('account-exists', owner.email, before)
    expect(mail.body).toContain(`${ORIGIN}/`)
    expect(mail.body).not.toContain('evil.example')
    const row = await env.DB.prepare(
      'SELECT c.id, (SELECT COUNT(*) FROM customer_addresses a WHERE a.customer_id = c.id) AS n FROM customers c WHERE email = ?',
    )
      .bind(owner.email)
      .first<{ id: number; n: number }>()
    expect(row?.n).toBe(0)
    expect(
      (await api('/user/login', { ip: freshIp(), body: { username: owner.email, password: owner.password } }))
        .status,
    ).toBe(200)
    // The new address got its account and its address.
    const created = await env.DB.prepare(
      'SELECT (SELECT COUNT(*) FROM customer_addresses a WHERE a.customer_id = c.id) AS n FROM customers c WHERE email = ?',
    )
      .bind(newEmail)
      .first<{ n: number }>()
    expect(created?.n).toBe(1)
    // No mail to the new address.
    expect(
      await env.DB.prepare("SELECT 1 FROM mail_outbox WHERE target_address = ? AND kind = 'account-exists'")
        .bind(newEmail)
        .first(),
    ).toBeNull()
  })
})

describe('password reset', () => {
  it('answers known and unknown addresses alike and mails a link on PUBLIC_ORIGIN, never the request host', async () => {
    const owner = await registerAndLogin('reset-link')
    const unknown = `nobody-${Date.now()}@example.com`
    const before = await lastMailId()
    const known = shape(await viaEvilHost('/api/user/reset-password', { email: owner.email }), owner.email)
    const other = shape(await viaEvilHost('/api/user/reset-password', { email: unknown }), unknown)
    expect(known).toEqual(other)
    expect(known.json).toEqual({ code: 200, result: true })
    const mail = await waitForMail('password-reset', owner.email, before)
    const link = /(\S+resetToken=\S+)/.exec(mail.body)?.[1] ?? ''
    expect(link.startsWith(`${ORIGIN}/?resetPassword=1&`), link).toBe(true)
    expect(mail.body).not.toContain('evil.example')
    // The link's token works once.
    const resetToken = new URL(link).searchParams.get('resetToken') as string
    const done = await api('/user/create-password', {
      ip: freshIp(),
      body: { email: owner.email, newPassword: 'Reset-4567', resetToken },
    })
    expect(done.status).toBe(200)
    expect(
      await env.DB.prepare('SELECT 1 FROM mail_outbox WHERE target_address = ?').bind(unknown).first(),
    ).toBeNull()
  })
})
