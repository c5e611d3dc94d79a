// Order placement is rate-limited: a burst limit per network address that answers before the
// order body is read, and exact hourly counters per address and per account behind it. A replay
// of a placed order is never counted by the hourly counters; it meets the burst limit like any
// request, and a refused replay gets its order back once the limit lets it through.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import {
  MSG_ORDER_BURST,
  MSG_TOO_MANY_ORDERS,
  ORDER_BURST_PER_MINUTE,
  ORDERS_PER_ACCOUNT_PER_HOUR,
  ORDERS_PER_ADDRESS_PER_HOUR,
} from '../../../../worker/api/order/holds'
import { transitionOrder } from '../../../../worker/api/order/lifecycle'
import { freshEmail } from '../../../helpers/orders'
import { inOneWindow } from '../../../helpers/rate-window'
import { freshIp, registerAndLogin } from '../../../helpers/user'
import { orderCount, place, postOrder, seedPlentyOfScarves, withoutBurst } from './place-orders'

beforeEach(seedPlentyOfScarves)

/** A body that never ends, counting how often the reader asked it for more. */
function endlessBody() {
  const chunk = new TextEncoder().encode(`{"order_id":"${'x'.repeat(4096)}`)
  const read = { pulls: 0 }
  // highWaterMark 0: nothing is pulled until someone reads.
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        read.pulls++
        controller.enqueue(chunk)
      },
    },
    { highWaterMark: 0 },
  )
  return { stream, read }
}

/** Spends the burst limit of a fresh address in one window; `next` runs in that window. */
function overTheBurst<T>(next: (ip: string) => Promise<T>) {
  // The binding counts in windows aligned to the minute: the burst is sent again, from a fresh
  // address, if a minute boundary fell inside it.
  return inOneWindow(60_000, async () => {
    const ip = freshIp()
    const statuses: number[] = []
    for (let i = 0; i < ORDER_BURST_PER_MINUTE; i++) statuses.push((await place({ ip, useEnv: env })).status)
    return { statuses, after: await next(ip) }
  })
}

describe('the burst limit', () => {
  it(`refuses the placement after ${ORDER_BURST_PER_MINUTE} a minute from one address, writing nothing`, async () => {
    const { statuses, after: over } = await overTheBurst((ip) => place({ ip, useEnv: env }))
    expect(statuses).toEqual(Array(ORDER_BURST_PER_MINUTE).fill(200))
    expect(over.status).toBe(429)
    expect(over.json.result).toBe(MSG_ORDER_BURST)
    expect(over.json.result).toContain(String(ORDER_BURST_PER_MINUTE))
    expect(over.headers.get('retry-after')).toBe('60')
    expect(await orderCount(over.orderId)).toBe(0)
    // Another address is not held back.
    expect((await place()).status).toBe(200)
  })

  it('answers before the body is read: a body that is junk, invalid or never ends gets the same 429', async () => {
    const endless = endlessBody()
    const { after } = await overTheBurst(async (ip) => ({
      junk: await postOrder('{"order_id": [[[', { ip }),
      invalid: await postOrder(JSON.stringify({ order_id: 1, products: 'all' }), { ip }),
      endless: await postOrder(endless.stream, { ip }),
    }))
    for (const res of [after.junk, after.invalid, after.endless]) {
      expect(res.status).toBe(429)
      expect(res.json.result).toBe(MSG_ORDER_BURST)
      expect(res.headers.get('retry-after')).toBe('60')
    }
    // Not one piece of the endless body was asked for.
    expect(endless.read.pulls).toBe(0)
  })
})

describe('a burst arriving at once', () => {
  it(`asks the binding only for the ${ORDER_BURST_PER_MINUTE} orders it lets through: the isolate refuses the rest itself`, async () => {
    const BURST = 40
    const { answers, asked } = await inOneWindow(60_000, async () => {
      const ip = freshIp()
      let asked = 0
      // The test's binding, counting how often it is asked.
      const counting: RateLimit = {
        limit: (options) => {
          asked++
          return env.ORDER_LIMITER.limit(options)
        },
      }
      const useEnv = { ...env, ORDER_LIMITER: counting } as Env
      const answers = await Promise.all(Array.from({ length: BURST }, () => place({ ip, useEnv })))
      return { answers, asked }
    })
    const statuses = answers.map((a) => a.status).sort()
    expect(statuses).toEqual([
      ...Array(ORDER_BURST_PER_MINUTE).fill(200),
      ...Array(BURST - ORDER_BURST_PER_MINUTE).fill(429),
    ])
    for (const refused of answers.filter((a) => a.status === 429)) {
      expect(refused.json.result).toBe(MSG_ORDER_BURST)
      expect(refused.headers.get('retry-after')).toBe('60')
    }
    expect(asked).toBe(ORDER_BURST_PER_MINUTE)
  })
})

describe('a replay under the burst limit (the honest retry)', () => {
  it('meets the burst limit with a 429 the shop client retries, writes nothing new, and gets its order back after', async () => {
    const email = freshEmail('retry')
    const { ip, first, again } = await inOneWindow(60_000, async () => {
      const ip = freshIp()
      // The shopper's order, then others from the same address (an office, a mobile network).
      const first = await place({ ip, email, useEnv: env })
      for (let i = 1; i < ORDER_BURST_PER_MINUTE; i++) await place({ ip, useEnv: env })
      return { ip, first, again: await place({ ip, email, orderId: first.orderId, useEnv: env }) }
    })
    expect(first.status, JSON.stringify(first.json)).toBe(200)
    // The replay in the same minute is refused like any request from the address, with a time to
    // retry; the order stays placed once.
    expect(again.status).toBe(429)
    expect(again.headers.get('retry-after')).toBe('60')
    expect(await orderCount(first.orderId)).toBe(1)
    // The client keeps an order answered 429 queued and sends it again later; once the address is
    // under the burst limit (here: the binding out of the way) the replay answers the original order.
    const retried = await place({ ip, email, orderId: first.orderId, useEnv: withoutBurst() })
    expect(retried.status).toBe(200)
    expect(retried.json.result.orderNumber).toBe(first.json.result.orderNumber)
    expect(await orderCount(first.orderId)).toBe(1)
  })

  it('is answered after the hourly limit, without counting toward it', async () => {
    const ip = freshIp()
    const email = freshEmail('replay')
    const useEnv = withoutBurst()
    const first = await place({ ip, email, useEnv })
    for (let i = 1; i < ORDERS_PER_ADDRESS_PER_HOUR; i++)
      expect((await place({ ip, useEnv })).status).toBe(200)
    expect((await place({ ip, useEnv })).status).toBe(429)
    const again = await place({ ip, email, orderId: first.orderId, useEnv })
    // The same order id from the same address: the original answer, not a refusal.
    expect(again.status).toBe(200)
    expect(again.json.result.orderNumber).toBe(first.json.result.orderNumber)
  })
})

describe('the hourly counters', () => {
  it(`counts ${ORDERS_PER_ADDRESS_PER_HOUR} an hour per address exactly in D1 (an IPv6 /64 is one address)`, async () => {
    const net = '2001:db8:77:1'
    const useEnv = withoutBurst()
    for (let i = 0; i < ORDERS_PER_ADDRESS_PER_HOUR; i++)
      expect((await place({ ip: `${net}::${i + 1}`, useEnv })).status).toBe(200)
    const over = await place({ ip: `${net}:ffff::9`, useEnv })
    expect(over.status).toBe(429)
    expect(over.json.result).toBe(MSG_TOO_MANY_ORDERS)
    expect(await orderCount(over.orderId)).toBe(0)
  })

  it(`counts ${ORDERS_PER_ACCOUNT_PER_HOUR} an hour per account, from whatever address`, async () => {
    const user = await registerAndLogin('rate')
    for (let i = 0; i < ORDERS_PER_ACCOUNT_PER_HOUR; i++) {
      const res = await place({ bearer: user.token, userId: user.id })
      expect(res.status, JSON.stringify(res.json)).toBe(200)
      // Paid at once, so the account's holds never stand in the way of the rate under test.
      await transitionOrder(env.DB, { orderId: res.orderId, to: 'processing', actor: 'test' }, Date.now())
    }
    const over = await place({ bearer: user.token, userId: user.id })
    expect(over.status).toBe(429)
    expect(over.json.result).toBe(MSG_TOO_MANY_ORDERS)
    expect(await orderCount(over.orderId)).toBe(0)
  })
})
