// The PIN check and cash-on-delivery offer from the courier's serviceability, cached per PIN, with
// the PIN table as the fallback when the courier is down; bounded per asking address.
import { env } from 'cloudflare:test'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { codServiceable } from '../../../worker/api/checkout/cod'
import { COURIER_LOOKUPS_PER_HOUR } from '../../../worker/fulfilment/serviceability'
import { seedCartFixtures } from '../../helpers/cart-fixtures'
import { freshIp } from '../../helpers/user'
import { courier, courierCalls, routeStandIns, shopCall } from './harness'

beforeAll(() => routeStandIns())
beforeEach(async () => {
  courier.setDown(false)
  await seedCartFixtures()
})

const ask = (postcode: string, ip = freshIp()) =>
  shopCall(`/api/checkout/delivery?postcode=${postcode}`, { headers: { 'cf-connecting-ip': ip } })
const lookups = () => courierCalls.filter((c) => c.includes('/courier/serviceability')).length

describe('delivery to a PIN', () => {
  it("asks the courier once per PIN a day, and the courier's word decides cash on delivery", async () => {
    // 560002: not in the PIN table, the courier collects cash there.
    await env.DB.prepare("DELETE FROM cod_pincodes WHERE pincode IN ('560002', '560010')").run()
    expect(await codServiceable(env.DB, 'IN', '560002')).toBe(false)
    const before = lookups()
    const first = await ask('560002')
    expect(first.json.result).toMatchObject({ serviceable: true, cod: true, source: 'courier' })
    expect(first.json.result.days).toBeGreaterThan(0)
    const again = await ask('560002')
    expect(again.json.result.source).toBe('cache')
    expect(lookups()).toBe(before + 1)
    expect(await codServiceable(env.DB, 'IN', '560002')).toBe(true)
    // 560010: the table lists it, the courier collects no cash there: the courier wins.
    await env.DB.prepare(
      "INSERT OR REPLACE INTO cod_pincodes (pincode, updated_at) VALUES ('560010', '2026-01-01')",
    ).run()
    expect((await ask('560010')).json.result).toMatchObject({ serviceable: true, cod: false })
    expect(await codServiceable(env.DB, 'IN', '560010')).toBe(false)
  })

  it('a PIN the courier does not serve says so in words', async () => {
    const res = await ask('901234')
    expect(res.status).toBe(200)
    expect(res.json.result).toMatchObject({ serviceable: false, cod: false })
    expect(res.json.result.message).toContain('901234')
  })

  it('the courier down: the PIN table answers, and nothing is cached', async () => {
    courier.setDown(true)
    const res = await ask('560001')
    expect(res.json.result).toMatchObject({ source: 'pin-table', cod: true })
    courier.setDown(false)
    expect((await ask('560001')).json.result.source).toBe('courier')
  })

  it('one address scanning PIN codes reaches the courier a bounded number of times', async () => {
    const ip = freshIp()
    const before = lookups()
    for (let i = 0; i < COURIER_LOOKUPS_PER_HOUR + 5; i++) await ask(String(400100 + i), ip)
    expect(lookups() - before).toBe(COURIER_LOOKUPS_PER_HOUR)
    expect((await ask('400999', ip)).json.result.source).toBe('pin-table')
  })

  it('refuses anything but a PIN code with a readable 400', async () => {
    const res = await ask('0123;DROP')
    expect(res.status).toBe(400)
    expect(res.json.result).toMatch(/PIN code/)
  })
})
