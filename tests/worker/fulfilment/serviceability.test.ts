// The PIN check and cash-on-delivery offer from the courier's serviceability, cached per PIN, with
// the PIN table as the fallback when the courier is down; bounded per asking address.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { codServiceable } from '../../../worker/api/checkout/cod'
import { COURIER_LOOKUPS_PER_HOUR } from '../../../worker/fulfilment/serviceability'
import { etdDays } from '../../../worker/fulfilment/shiprocket'
import worker from '../../../worker/index'
import { seedCartFixtures } from '../../helpers/cart-fixtures'
import { freshIp } from '../../helpers/user'
import { courier, courierCalls, holdCourier, routeStandIns, shipEnv, shopCall } from './harness'

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

describe('a slow courier at checkout', () => {
  // 400050: the PIN table lists it for cash on delivery; the courier collects no cash there.
  const codAsk = (ip = freshIp()) =>
    shopCall('/api/checkout/cod?postcode=400050&country=IN', { headers: { 'cf-connecting-ip': ip } })
  const clearCache = () => env.DB.prepare("DELETE FROM pin_serviceability WHERE postcode = '400050'").run()

  it("the COD answer is the courier's, asked at once, not whatever the cache held", async () => {
    await clearCache()
    const res = await codAsk()
    expect(res.json.result).toMatchObject({
      available: false,
      source: 'courier',
      pending: false,
      message: 'Cash on delivery is not available for PIN 400050.',
    })
    expect(res.json.result.estimate).toMatch(/^Delivery to 400050 by \d+\w\w of \w+, \d{4}\.$/)
    // Placement and the cart's payment methods now read the same answer.
    expect(await codServiceable(env.DB, 'IN', '400050')).toBe(false)
  })

  it('a courier slower than the bounded wait: the PIN table answers, says so, and the late answer is kept', async () => {
    await clearCache()
    // The courier holds its answer; the shop waits no longer than configured (here not at all).
    const hold = holdCourier(/\/courier\/serviceability/)
    const ctx = createExecutionContext()
    const res = await worker.fetch(
      new Request('https://shop.test/api/checkout/cod?postcode=400050&country=IN', {
        headers: { 'cf-connecting-ip': freshIp() },
      }),
      { ...shipEnv, COURIER_WAIT_MS: '0' } as Env,
      ctx,
    )
    const body = (await res.json()) as { result: Record<string, unknown> }
    // A defined answer: the table's (COD offered at 400050), marked as not yet the courier's, never cached.
    expect(body.result).toMatchObject({ available: true, source: 'pin-table', pending: true })
    expect(body.result.estimate).toMatch(
      /^Delivery to 400050 usually by .+ Checking PIN 400050 with the courier…$/,
    )
    expect(res.headers.get('cache-control')).toBe('private, no-store')
    // The courier answers late: its answer is cached by the same request, and decides from then on.
    hold.release()
    await waitOnExecutionContext(ctx)
    expect((await codAsk()).json.result).toMatchObject({ available: false, source: 'cache', pending: false })
    expect(await codServiceable(env.DB, 'IN', '400050')).toBe(false)
  })

  it('the product page and the checkout state the same date for a PIN', async () => {
    const pin = '682030'
    const checkout = await shopCall(`/api/checkout/cod?postcode=${pin}&country=IN`, {
      headers: { 'cf-connecting-ip': freshIp() },
    })
    const product = await ask(pin)
    expect(product.json.result.message).toBe(
      `${checkout.json.result.estimate} Cash on delivery is not available for PIN ${pin}.`,
    )
    expect(product.json.result.date).toMatch(/^\d+\w\w of \w+, \d{4}$/)
  })
})

describe("the courier's etd", () => {
  it('counts days from today in India, past midnight there before UTC', () => {
    // 20:00 UTC on 29 November is 01:30 on the 30th in India: 3 December is 3 days away.
    expect(etdDays('Dec 03, 2026', Date.UTC(2026, 10, 29, 20))).toBe(3)
    expect(etdDays('Dec 03, 2026', Date.UTC(2026, 10, 29, 12))).toBe(4)
    expect(etdDays('', Date.UTC(2026, 10, 29))).toBeNull()
    expect(etdDays('soon', Date.UTC(2026, 10, 29))).toBeNull()
  })
})
