// The courier stand-in restarted against the shop's kept state (a second `npm start`, a second
// e2e run) must not hand out an AWB it handed out before: the shop stores AWBs as unique, and a
// reissued one made "Ready to ship" fail.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { COURIER_SANDBOX_SECRETS, createCourierSandbox } from '../../../scripts/courier-sandbox/sandbox'

const origin = 'http://127.0.0.1:1'

/** Books one parcel at a fresh stand-in the way the shop does (login, create, assign) → its AWB. */
async function bookOne(sandbox: ReturnType<typeof createCourierSandbox>, ref: string): Promise<string> {
  const call = async (path: string, body: unknown, token?: string) =>
    (await (
      await sandbox.fetch(
        new Request(`${origin}/v1/external${path}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          body: JSON.stringify(body),
        }),
      )
    ).json()) as Record<string, unknown>
  const { token } = (await call('/auth/login', {
    email: COURIER_SANDBOX_SECRETS.email,
    password: COURIER_SANDBOX_SECRETS.password,
  })) as { token: string }
  const created = (await call(
    '/orders/create/adhoc',
    { order_id: ref, order_items: [{ sku: 'A', units: 1 }], sub_total: 100, payment_method: 'Prepaid' },
    token,
  )) as { shipment_id: number }
  const assigned = (await call('/courier/assign/awb', { shipment_id: created.shipment_id }, token)) as {
    response: { data: { awb_code: string } }
  }
  return assigned.response.data.awb_code
}

const fresh = () =>
  createCourierSandbox({
    origin,
    shopOrigin: origin,
    ...COURIER_SANDBOX_SECRETS,
    deliver: async () => undefined,
  })

afterEach(() => {
  vi.useRealTimers()
})

describe('the courier stand-in', () => {
  it('restarted later, never reissues an AWB it gave out before', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date('2026-11-29T04:00:00Z'))
    const first = [await bookOne(fresh(), '000000001')]
    vi.setSystemTime(new Date('2026-11-29T04:05:00Z'))
    const second = await bookOne(fresh(), '000000002')
    expect(second).toMatch(/^SBF\d+$/)
    expect(first).not.toContain(second)
  })
})
