// The account's Cancel (/api/user/orders/:number/cancel): a shopper cancels their own cash-on-delivery
// order while it is still to be confirmed, once; another shopper's order (or an unknown number) is
// the same 404 and stays as it was; a confirmed order is refused in words.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { countRows } from '../../../helpers/d1-rows'
import { api, registerAndLogin } from '../../../helpers/user'
import { operator } from '../../admin/operator'
import { placeOrder, seedDocumentFixtures } from '../../documents/fixtures'
import { call, setUpPaymentSandbox } from '../payment/harness'

setUpPaymentSandbox(seedDocumentFixtures)

const place = async (customer: { id: number; token: string }) =>
  (await placeOrder('cashondelivery', { customer })).orderNumber

const status = async (n: string) =>
  (
    await env.DB.prepare('SELECT status FROM orders WHERE increment_id = ?')
      .bind(n)
      .first<{ status: string }>()
  )?.status

const cancel = (n: string, token?: string) =>
  api(`/user/orders/${encodeURIComponent(n)}/cancel`, { method: 'POST', body: {}, bearer: token })

describe('cancel from the account', () => {
  it("cancels one's own order to be confirmed, once; never another's", async () => {
    const shopper = await registerAndLogin('canceller')
    const stranger = await registerAndLogin('stranger')
    const mine = await place(shopper)
    const theirs = await place(stranger)
    expect(await status(mine)).toBe('pending')

    // Another shopper's order: the same 404 as a number that does not exist, and nothing moves.
    const other = await cancel(theirs, shopper.token)
    expect(other.status).toBe(404)
    expect(other.json.result).toBe('This order could not be found.')
    expect((await cancel('999999999', shopper.token)).json.result).toBe(other.json.result)
    expect(await status(theirs)).toBe('pending')
    // No sign-in, no cancel; a number that is not a number is a 404 too.
    expect((await cancel(mine)).status).toBe(401)
    expect((await cancel('1 OR 1=1', shopper.token)).status).toBe(404)

    // Twice at once and once more: canceled once, every answer the same success.
    const answers = await Promise.all([cancel(mine, shopper.token), cancel(mine, shopper.token)])
    expect(answers.map((a) => a.status)).toEqual([200, 200])
    expect((await cancel(mine, shopper.token)).json.result).toEqual({ status: 'canceled' })
    expect(await status(mine)).toBe('canceled')
    const moves = await countRows(
      "SELECT COUNT(*) AS n FROM order_events WHERE client_order_id = (SELECT client_order_id FROM orders WHERE increment_id = ?) AND kind = 'status' AND to_status = 'canceled'",
      mine,
    )
    expect(moves).toBe(1)
  })

  it('refuses, in words, an order the shop has confirmed', async () => {
    const staff = await operator('staff')
    const shopper = await registerAndLogin('late')
    const n = await place(shopper)
    const moved = await call(`/admin/api/orders/${n}/transition`, {
      body: { to: 'processing' },
      headers: { cookie: staff.cookie, 'x-csrf-token': staff.csrf },
    })
    expect(moved.status).toBe(200)
    const res = await cancel(n, shopper.token)
    expect(res.status).toBe(409)
    expect(res.json.result).toBe('This order can no longer be canceled from your account. Please contact us.')
    expect(await status(n)).toBe('processing')
  })
})
