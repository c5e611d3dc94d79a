// Saving a checkout address to the address book (POST /api/user/addresses): only into the token's
// own book, validated like the account's address form, never twice, bounded, and the first one
// becoming the default the next checkout is prefilled from.
import { describe, expect, it } from 'vitest'
import { countRows } from '../../../helpers/d1-rows'
import { bookAddress } from '../../../helpers/orders'
import { api, registerAndLogin } from '../../../helpers/user'

const home = bookAddress()

const save = (token: string | undefined, body: unknown) =>
  api('/user/addresses', { body, ...(token ? { bearer: token } : {}) })

async function book(token: string) {
  const me = await api('/user/me', { bearer: token })
  return me.json.result as {
    addresses: { id: number; city: string; default_shipping?: boolean; default_billing?: boolean }[]
    default_shipping?: string
  }
}

describe('POST /api/user/addresses', () => {
  it("adds an address to the caller's book, the first one as the default, and never twice", async () => {
    const me = await registerAndLogin('book')
    const first = await save(me.token, { address: home })
    expect(first.status).toBe(200)
    expect(first.json.result).toMatchObject({ saved: true, address: { ...home, default_shipping: true } })
    // The same address again (other case and spacing): nothing written, the saved entry answered.
    const again = await save(me.token, {
      address: { ...home, firstname: ' asha ', city: 'BENGALURU', street: ['12  MG Road', 'Flat 4'] },
    })
    expect(again.json.result).toMatchObject({ saved: false, address: { id: first.json.result.address.id } })
    const office = await save(me.token, {
      address: { ...home, street: ['1 Residency Road'], postcode: '560025' },
    })
    expect(office.json.result).toMatchObject({ saved: true, address: { default_shipping: false } })
    const after = await book(me.token)
    expect(after.addresses.map((a) => a.id)).toEqual([
      first.json.result.address.id,
      office.json.result.address.id,
    ])
    expect(after.default_shipping).toBe(String(first.json.result.address.id))

    // makeDefault moves the default to the new address in the same batch.
    const moved = await save(me.token, {
      address: { ...home, street: ['7 Park Street'], city: 'Kolkata', postcode: '700016' },
      makeDefault: true,
    })
    expect(moved.status).toBe(200)
    const now = await book(me.token)
    expect(now.addresses.filter((a) => a.default_shipping).map((a) => a.id)).toEqual([
      moved.json.result.address.id,
    ])
    expect(now.addresses.filter((a) => a.default_billing).map((a) => a.id)).toEqual([
      moved.json.result.address.id,
    ])
  })

  it("writes only into the token's own book: other customers' ids change nothing", async () => {
    const owner = await registerAndLogin('book-owner')
    const thief = await registerAndLogin('book-thief')
    const saved = await save(owner.token, { address: home })
    const ownerId = saved.json.result.address.customer_id as number
    const addressId = saved.json.result.address.id as number
    // Someone else's customer id in the body: refused.
    expect((await save(thief.token, { address: { ...home, customer_id: ownerId } })).status).toBe(403)
    // Someone else's address id: unknown to the caller, and nothing changes in either book.
    const replay = await save(thief.token, { address: { ...home, city: 'Mysuru', id: addressId } })
    expect(replay.status).toBe(404)
    expect((await book(owner.token)).addresses).toMatchObject([{ id: addressId, city: 'Bengaluru' }])
    expect((await book(thief.token)).addresses).toEqual([])
    // No token, a tampered token: 401 and nothing written.
    expect((await save(undefined, { address: home })).status).toBe(401)
    expect((await save(`${owner.token}x`, { address: home })).status).toBe(401)
    expect(
      await countRows('SELECT count(*) AS n FROM customer_addresses WHERE customer_id = ?', ownerId),
    ).toBe(1)
  })

  it('validates like the account form and names what is wrong', async () => {
    const me = await registerAndLogin('book-bad')
    const cases: [unknown, RegExp][] = [
      [{ address: { ...home, country_id: 'India' } }, /^Invalid address: address\.country_id: /],
      [{ address: { ...home, street: [] } }, /^Invalid address: address\.street: /],
      [{ address: { ...home, city: '   ' } }, /^Invalid address: address\.city: /],
      [{ address: { ...home, firstname: 'x'.repeat(101) } }, /^Invalid address: address\.firstname: /],
      [{ address: { ...home, street: ['x'.repeat(256)] } }, /^Invalid address: address\.street/],
      [{}, /^Invalid address: address: /],
      [{ address: home, makeDefault: 'yes' }, /^Invalid address: makeDefault: /],
    ]
    for (const [body, message] of cases) {
      const res = await save(me.token, body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.json.result).toMatch(message)
    }
    const raw = await api('/user/addresses', { rawBody: '{"address":', bearer: me.token })
    expect(raw.status).toBe(400)
    expect((await book(me.token)).addresses).toEqual([])
  })

  it('keeps a book to 20 addresses, even with saves racing for the last place', async () => {
    const me = await registerAndLogin('book-full')
    for (let i = 0; i < 18; i++) {
      const res = await save(me.token, { address: { ...home, street: [`${i + 1} Brigade Road`] } })
      expect(res.status).toBe(200)
    }
    const racing = await Promise.all(
      [0, 1, 2, 3].map((i) => save(me.token, { address: { ...home, street: [`${i + 1} Church Street`] } })),
    )
    expect(racing.map((r) => r.status).sort()).toEqual([200, 200, 409, 409])
    const refused = racing.find((r) => r.status === 409)
    expect(refused?.json.result).toMatch(/address book is full \(at most 20 addresses\)/)
    expect((await book(me.token)).addresses).toHaveLength(20)
  })
})
