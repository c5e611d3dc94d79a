import { describe, expect, it } from 'vitest'
import { bookAddress } from '../../../helpers/orders'
import { api, registerAndLogin } from '../../../helpers/user'

const address = (over: Record<string, unknown> = {}) => bookAddress({ telephone: '9876543210', ...over })
/** Sends `customer` as the profile of the account signed in with `token` (POST /api/user/me). */
const saveProfile = (token: string, customer: Record<string, unknown>) =>
  api(`/user/me?token=${token}`, { body: { customer } })
/** The profile fields of `user` with `name` as both first and last name. */
const named = (user: { email: string }, name: string) => ({
  email: user.email,
  firstname: name,
  lastname: name,
})

describe('profile and address book', () => {
  it('updates the profile and replaces the address book; defaults come from the flags', async () => {
    const user = await registerAndLogin('profile')
    const res = await saveProfile(user.token, {
      email: user.email,
      firstname: 'Asha',
      lastname: 'Iyer',
      group_id: 4,
      addresses: [address({ default_shipping: true }), address({ city: 'Mysuru', default_billing: true })],
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    const customer = res.json.result
    expect(customer.lastname).toBe('Iyer')
    expect(customer.group_id).toBe(1) // server-owned: the body cannot change it
    expect(customer.addresses).toHaveLength(2)
    expect(customer.addresses[0]).toMatchObject({ customer_id: user.id, city: 'Bengaluru' })
    expect(customer.default_shipping).toBe(String(customer.addresses[0].id))
    expect(customer.default_billing).toBe(String(customer.addresses[1].id))

    // Keep the first (edited), drop the second.
    const kept = { ...customer.addresses[0], city: 'Chennai' }
    const next = await api('/user/me', {
      bearer: user.token,
      body: { customer: { email: user.email, firstname: 'Asha', lastname: 'Iyer', addresses: [kept] } },
    })
    expect(next.json.result.addresses).toHaveLength(1)
    expect(next.json.result.addresses[0]).toMatchObject({ id: kept.id, city: 'Chennai' })
  })

  it("refuses user B's address ids, customer ids or customer id in user A's update (403) and changes nothing", async () => {
    const a = await registerAndLogin('owner-a')
    const b = await registerAndLogin('owner-b')
    const bAfter = await saveProfile(b.token, { ...named(b, 'B'), addresses: [address()] })
    const bAddress = bAfter.json.result.addresses[0]
    const attempts = [
      { ...named(a, 'A'), addresses: [{ ...bAddress, city: 'Stolen' }] },
      { ...named(a, 'A'), addresses: [address({ customer_id: b.id })] },
      { id: b.id, ...named(a, 'A') },
    ]
    for (const customer of attempts) {
      const res = await saveProfile(a.token, customer)
      expect(res.status).toBe(403)
      expect(res.json.code).toBe(403)
    }
    const bNow = await api(`/user/me?token=${b.token}`)
    expect(bNow.json.result.addresses[0].city).toBe('Bengaluru')
    const aNow = await api(`/user/me?token=${a.token}`)
    expect(aNow.json.result.firstname).toBe('Asha')
  })

  it('rejects too many addresses and an e-mail owned by someone else', async () => {
    const a = await registerAndLogin('limits-a')
    const b = await registerAndLogin('limits-b')
    const many = await saveProfile(a.token, {
      ...named(a, 'A'),
      addresses: Array.from({ length: 21 }, () => address()),
    })
    expect(many.status).toBe(400)
    expect(many.json.result).toContain('At most 20 addresses')
    const steal = await saveProfile(a.token, { ...named(a, 'A'), email: b.email })
    expect(steal.status).toBe(400)
    const missing = await saveProfile(a.token, { email: a.email })
    expect(missing.status).toBe(400)
    expect(missing.json.result).toContain('firstname')
  })

  it('serves an empty, paged order history to a new customer and 401 without a token', async () => {
    const user = await registerAndLogin('history')
    const res = await api(`/user/order-history?token=${user.token}&pageSize=10&currentPage=1`)
    expect(res.status).toBe(200)
    expect(res.json.result).toMatchObject({
      items: [],
      total_count: 0,
      search_criteria: { page_size: 10, current_page: 1 },
    })
    expect((await api('/user/order-history')).status).toBe(401)
    expect((await api(`/user/order-history?token=${user.token}&pageSize=0`)).status).toBe(400)
  })
})
