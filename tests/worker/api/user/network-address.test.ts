// Every per-address limit of the account and mail endpoints counts an IPv6 /64 as one address (one
// subscriber usually holds a whole /64): stepping through the addresses of one network buys no
// attempts. Each limit is spent from many addresses of one /64 and refuses yet another of them,
// while an address of another network still gets through.
import { describe, expect, it } from 'vitest'
import {
  CLIENT_ADDRESS_LIMIT,
  LOGIN_LIMIT_PER_IP,
  MSG_CLIENT_ADDRESS_LIMITED,
} from '../../../../worker/api/auth/rate-limit'
import { inOneWindow } from '../../../helpers/rate-window'
import { api, registerAndLogin } from '../../../helpers/user'

let nets = 0
/** A fresh /64 and the `i`-th address in it. */
function network() {
  const prefix = `2001:db8:64:${(++nets).toString(16)}`
  return {
    at: (i: number) => `${prefix}::${(i + 1).toString(16)}`,
    other: `2001:db8:65:${nets.toString(16)}::1`,
  }
}

describe('an IPv6 /64 is one address', () => {
  it('for newsletter sign-ups (10 in 15 minutes)', async () => {
    const net = network()
    const signUp = (ip: string, i: number) =>
      api('/ext/mailchimp-subscribe/subscribe', { ip, body: { email: `v6-news-${nets}-${i}@example.com` } })
    for (let i = 0; i < 10; i++) expect((await signUp(net.at(i), i)).status, `sign-up ${i + 1}`).toBe(200)
    const over = await signUp(net.at(10), 10)
    expect(over.status).toBe(429)
    expect(over.json.result).toContain('10 sign-ups per network address')
    expect((await signUp(net.other, 11)).status).toBe(200)
  })

  it(`for failed sign-ins (${LOGIN_LIMIT_PER_IP} in 15 minutes)`, async () => {
    const net = network()
    // Each try names another (unknown) account, so only the address's count can refuse.
    const guess = (ip: string, i: number) =>
      api('/user/login', {
        ip,
        body: { username: `v6-nobody-${nets}-${i}@example.com`, password: 'Wrong1234' },
      })
    for (let i = 0; i < LOGIN_LIMIT_PER_IP; i++) expect((await guess(net.at(i), i)).status).toBe(401)
    const over = await guess(net.at(LOGIN_LIMIT_PER_IP), LOGIN_LIMIT_PER_IP)
    expect(over.status).toBe(429)
    expect(over.json.result).toContain('from your network address')
    expect((await guess(net.other, LOGIN_LIMIT_PER_IP + 1)).status).toBe(401)
  }, 60_000)

  it(`for the burst binding (${CLIENT_ADDRESS_LIMIT} password or mail requests a minute)`, async () => {
    const user = await registerAndLogin('v6-burst')
    const login = (ip: string) =>
      api('/user/login', { ip, body: { username: user.email, password: user.password } })
    const { statuses, over, other } = await inOneWindow(60_000, async () => {
      const net = network()
      const statuses: number[] = []
      for (let i = 0; i < CLIENT_ADDRESS_LIMIT; i++) statuses.push((await login(net.at(i))).status)
      return { statuses, over: await login(net.at(CLIENT_ADDRESS_LIMIT)), other: await login(net.other) }
    })
    expect(statuses).toEqual(Array(CLIENT_ADDRESS_LIMIT).fill(200))
    expect(over.status).toBe(429)
    expect(over.json.result).toBe(MSG_CLIENT_ADDRESS_LIMITED)
    expect(other.status).toBe(200)
  }, 60_000)
})
