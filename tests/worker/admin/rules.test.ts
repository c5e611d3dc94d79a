// The cash-on-delivery rules screen: a PIN code or phone number typed as people write them is
// kept as the checkout compares it, and the checkout refuses cash on delivery for it at once;
// a value that is no Indian PIN or mobile number is refused beside its field with what was typed
// kept; every add and remove is audited; a viewer changes nothing.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { COD_REFUSALS } from '../../../worker/api/checkout/cod'
import { LEHENGA, SCARF, seedCartFixtures } from '../../helpers/cart-fixtures'
import { deliverTo, freshEmail, newOrderId, testAddress } from '../../helpers/orders'
import { api } from '../../helpers/user'
import { admin, operator, post } from './operator'

beforeEach(async () => {
  await seedCartFixtures()
  await env.DB.batch([
    env.DB.prepare('DELETE FROM cod_blocklist'),
    env.DB.prepare('DELETE FROM made_to_order'),
  ])
})

const codFor = (postcode: string) => api(`/checkout/cod?postcode=${postcode}`)

/** The checkout's answer for a guest cart holding a scarf, with the form's phone. */
async function codForPhone(phone: string) {
  const cartId = (await api('/cart/create?token=', { method: 'POST' })).json.result as string
  const cartItem = { sku: SCARF.sku, qty: 1 }
  expect((await api(`/cart/update?token=&cartId=${cartId}`, { body: { cartItem } })).status).toBe(200)
  return api(`/checkout/cod?postcode=560001&cartId=${cartId}&phone=${encodeURIComponent(phone)}`)
}

/** Places a cash-on-delivery order of a scarf to the test address (PIN 560001). */
const placeCod = () =>
  api('/order', {
    body: {
      order_id: newOrderId('rules'),
      user_id: '',
      cart_id: '',
      products: [{ sku: SCARF.sku, qty: 1, price: 1 }],
      addressInformation: deliverTo(testAddress(freshEmail('rules')), 'cashondelivery'),
    },
  })

const audited = async (target: string) =>
  (
    await env.DB.prepare('SELECT action FROM admin_audit WHERE target = ? ORDER BY id').bind(target).all<{
      action: string
    }>()
  ).results.map((r) => r.action)

describe('the COD rules screen', () => {
  it('blocks a PIN code typed with a space: the checkout refuses cash on delivery there at once', async () => {
    const staff = await operator('staff')
    expect((await codFor('560001')).json.result.available).toBe(true)
    const added = await post(staff, '/api/rules/pin', '/admin/rules', [
      ['value', '560 001'],
      ['note', 'Parcels refused at the door'],
    ])
    expect(added.status).toBe(303)
    expect((await codFor('560001')).json.result).toMatchObject({
      available: false,
      message: 'Cash on delivery is not available for PIN 560001.',
    })
    const placed = await placeCod()
    expect(placed.status).toBe(400)
    expect(placed.json.result).toContain('Cash on delivery is not available for PIN 560001.')
    const screen = await admin(staff, '/rules')
    expect(screen.text).toContain('Parcels refused at the door')
    const removed = await post(staff, '/api/rules/pin/delete', '/admin/rules', [
      ['value', '560001'],
      ['_form', '560001'],
    ])
    expect(removed.status).toBe(303)
    expect((await codFor('560001')).json.result.available).toBe(true)
    expect(await audited('cod-pin:560001')).toEqual(['cod.block.pin', 'cod.unblock.pin'])
  })

  it('blocks a mobile number however it is typed, and a product made to order', async () => {
    const staff = await operator('staff')
    expect(
      (await post(staff, '/api/rules/phone', '/admin/rules', [['value', '+91 98765-43210']])).status,
    ).toBe(303)
    expect((await codForPhone('098765 43210')).json.result).toMatchObject({
      available: false,
      message: COD_REFUSALS.phone,
    })
    expect((await admin(staff, '/rules')).text).toContain('+91 98765 43210')
    expect(
      (await post(staff, '/api/rules/made-to-order', '/admin/rules', [['sku', LEHENGA.sku]])).status,
    ).toBe(303)
    expect(
      await env.DB.prepare('SELECT sku FROM made_to_order')
        .all()
        .then((r) => r.results),
    ).toEqual([{ sku: LEHENGA.sku }])
    expect(await audited(`product:${LEHENGA.sku}`)).toContain('cod.made_to_order.add')
  })

  it('refuses what is no Indian PIN, mobile number or product, in words, with the form kept', async () => {
    const staff = await operator('staff')
    for (const [kind, typed, why] of [
      ['pin', '012345', 'a PIN code is six digits and does not start with 0'],
      ['pin', '56001', 'a PIN code is six digits'],
      ['phone', '+44 20 7946 0958', 'a mobile number is ten digits starting with 6, 7, 8 or 9'],
      ['phone', '5876543210', 'a mobile number is ten digits'],
    ] as const) {
      const res = await post(staff, `/api/rules/${kind}`, '/admin/rules', [['value', typed]])
      expect(res.status, typed).toBe(400)
      expect(res.text).toContain(why)
      expect(res.text).toContain(`value="${typed}"`)
    }
    const unknown = await post(staff, '/api/rules/made-to-order', '/admin/rules', [['sku', 'NO-SUCH-SKU']])
    expect(unknown.status).toBe(400)
    expect(unknown.text).toContain('no product has the SKU NO-SUCH-SKU')
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM cod_blocklist').first('n')).toBe(0)
    const twice = [['value', '560001']] as [string, string][]
    expect((await post(staff, '/api/rules/pin', '/admin/rules', twice)).status).toBe(303)
    const again = await post(staff, '/api/rules/pin', '/admin/rules', twice)
    expect(again.status).toBe(400)
    expect(again.text).toContain('PIN code 560001 is already blocked')
    const viewer = await operator('viewer')
    expect((await post(viewer, '/api/rules/pin/delete', '/admin/rules', twice)).status).toBe(403)
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM cod_blocklist').first('n')).toBe(1)
  })
})
