// The local operator sign-in: only failures count toward its per-address and per-account limits,
// and a huge body is refused while it is read, not after.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { LOGIN_MAX_BODY_BYTES } from '../../../worker/admin/session'
import { hashPassword } from '../../../worker/api/auth/crypto'
import { appFetch } from '../../helpers/in-isolate'
import { STREAM_CHUNK_BYTES, streamedBody } from '../../helpers/streamed-body'

const PASSWORD = 'correct horse battery staple'
let n = 0

async function newOperator(): Promise<string> {
  const email = `sign-in-${++n}-${Math.random().toString(36).slice(2, 8)}@ops.test`
  await env.DB.prepare('INSERT INTO operators (email, role, password_hash, created_at) VALUES (?, ?, ?, ?)')
    .bind(email, 'owner', await hashPassword(PASSWORD), '2026-01-01 00:00:00')
    .run()
  return email
}

async function signIn(email: string, password: string, ip: string, init: RequestInit = {}) {
  return appFetch('/admin/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': ip },
    body: JSON.stringify({ email, password }),
    ...init,
  })
}

describe('operator sign-in limits', () => {
  it('counts failures only: the owner signs in 15 times in a row from the office address', async () => {
    const owner = await newOperator()
    const office = '203.0.113.10'
    for (let i = 1; i <= 15; i++)
      expect((await signIn(owner, PASSWORD, office)).status, `sign-in ${i}`).toBe(200)
    // A colleague at the same address is not locked out either.
    const colleague = await newOperator()
    expect((await signIn(colleague, PASSWORD, office)).status).toBe(200)
  })

  it('still refuses the 11th attempt after 10 wrong passwords on an account (even the right one)', async () => {
    const owner = await newOperator()
    for (let i = 0; i < 10; i++)
      expect((await signIn(owner, 'wrong password!!', `198.18.0.${i + 1}`)).status).toBe(401)
    const res = await signIn(owner, PASSWORD, '198.18.1.1')
    expect(res.status).toBe(429)
    expect(await res.text()).toContain('Too many sign-in attempts')
  })

  it('still refuses an address after 10 wrong passwords, whatever accounts they named', async () => {
    const guesser = '198.18.2.1'
    for (let i = 0; i < 10; i++)
      expect((await signIn(`nobody-${i}@ops.test`, 'wrong password!!', guesser)).status).toBe(401)
    expect((await signIn(await newOperator(), PASSWORD, guesser)).status).toBe(429)
  })

  it('counts an IPv6 /64 as one address: ten wrong passwords from ten of its addresses refuse an eleventh', async () => {
    const net = '2001:db8:4d:2'
    for (let i = 0; i < 10; i++)
      expect((await signIn(`nobody-v6-${i}@ops.test`, 'wrong password!!', `${net}::${i + 1}`)).status).toBe(
        401,
      )
    expect((await signIn(await newOperator(), PASSWORD, `${net}:ffff::1`)).status).toBe(429)
    // Another network is not held back.
    expect((await signIn(await newOperator(), PASSWORD, '2001:db8:4d:3::1')).status).toBe(200)
  })
})

describe('the sign-in body', () => {
  it('a 20 MB chunked body is refused after reading at most the limit, not all of it', async () => {
    const { body, pulled } = streamedBody(20 * 1024 * 1024, 0x61)
    // No Content-Length: the body arrives in chunks, as `Transfer-Encoding: chunked` sends it.
    const res = await signIn('owner@ops.test', PASSWORD, '198.18.3.1', {
      body,
      duplex: 'half',
    } as RequestInit)
    expect(res.status).toBe(400)
    expect(await res.text()).toContain(`at most ${LOGIN_MAX_BODY_BYTES} bytes`)
    // The stream may be a chunk or two ahead of the reader; never anywhere near 20 MB.
    expect(pulled.bytes).toBeLessThanOrEqual(LOGIN_MAX_BODY_BYTES + 3 * STREAM_CHUNK_BYTES)
  })

  it('a form post of ordinary length still signs in', async () => {
    const owner = await newOperator()
    const res = await signIn(owner, PASSWORD, '198.18.4.1', {
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'cf-connecting-ip': '198.18.4.1' },
      body: new URLSearchParams({ email: owner, password: PASSWORD }).toString(),
      redirect: 'manual',
    })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe('/admin')
  })
})
