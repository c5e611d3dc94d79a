// The fulfilment tests' harness: the shop with the courier configured against the local courier
// stand-in (scripts/courier-sandbox, the code `npm start` runs) and the payment stand-in, the
// courier's webhooks held so each test delivers them when, in what order and how often it wants.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { beforeAll, beforeEach, vi } from 'vitest'
import {
  COURIER_SANDBOX_SECRETS,
  courierSandboxVars,
  createCourierSandbox,
} from '../../../scripts/courier-sandbox/sandbox'
import { readyToShip } from '../../../worker/admin/fulfilment'
import { transitionOrder } from '../../../worker/api/order/lifecycle'
import { readConfig } from '../../../worker/platform/env'
import { seedCartFixtures } from '../../helpers/cart-fixtures'
import { runCron as runCronIn } from '../../helpers/in-isolate'
import { call, type HeldWebhook, payEnv, place, SANDBOX_ORIGIN, sandbox } from '../api/payment/harness'

export const COURIER_ORIGIN = 'https://courier-sandbox.test'
export const courierHeld: HeldWebhook[] = []
export const courier = createCourierSandbox({
  origin: COURIER_ORIGIN,
  shopOrigin: 'https://shop.test',
  ...COURIER_SANDBOX_SECRETS,
  deliver: async (url, init) => {
    courierHeld.push({ url, headers: init.headers, body: init.body })
  },
})

export const shipEnv = { ...payEnv, ...courierSandboxVars(COURIER_ORIGIN) } as Env

/**
 * Lets a test break the courier's answers: throw after the stand-in acted (a lost answer), or hold
 * the answer to a matching call until the test releases it (a slow courier).
 */
export const faults: { loseAnswerTo: RegExp | null; holdAnswerTo: RegExp | null } = {
  loseAnswerTo: null,
  holdAnswerTo: null,
}
let held: { reached: () => void; released: Promise<void> } | null = null

/** Holds the courier's next answer to a call matching `to`: `reached` resolves once a call is held. */
export function holdCourier(to: RegExp) {
  faults.holdAnswerTo = to
  let release = () => {}
  const reached = new Promise<void>((resolve) => {
    held = { reached: resolve, released: new Promise<void>((r) => (release = r)) }
  })
  return { reached, release: () => release() }
}
export const courierCalls: string[] = []

/** Every outbound call to the stand-ins is answered by them. */
export function routeStandIns() {
  const realFetch = globalThis.fetch
  vi.stubGlobal('fetch', (async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init)
    if (req.url.startsWith(COURIER_ORIGIN)) {
      courierCalls.push(`${req.method} ${new URL(req.url).pathname}`)
      if (held && faults.holdAnswerTo?.test(req.url)) {
        const h = held
        faults.holdAnswerTo = null
        held = null
        h.reached()
        await h.released
      }
      const res = await courier.fetch(req)
      if (faults.loseAnswerTo?.test(req.url)) {
        faults.loseAnswerTo = null
        throw new TypeError('network connection lost')
      }
      return res
    }
    if (req.url.startsWith(SANDBOX_ORIGIN)) return sandbox.fetch(req)
    return realFetch(input, init)
  }) as typeof fetch)
}

/** The context the back-office functions take, with the courier configured. */
export function ops() {
  const executionCtx = createExecutionContext()
  return {
    x: { env: shipEnv, config: readConfig(shipEnv), executionCtx, actor: 'ops@shop.test' },
    done: () => waitOnExecutionContext(executionCtx),
  }
}

/** Calls the shop's API with the courier configured. */
export const shopCall = (path: string, init: Parameters<typeof call>[1] = {}) => call(path, init, shipEnv)

/** Delivers held courier webhooks (all, or those for `awb`) to the shop. */
export async function deliverCourier(awb?: string) {
  const chosen = courierHeld.filter((w) => !awb || JSON.parse(w.body).awb === awb)
  for (const w of chosen) courierHeld.splice(courierHeld.indexOf(w), 1)
  const answers = []
  for (const w of chosen)
    answers.push(await shopCall('/api/fulfilment/courier/events', { rawBody: w.body, headers: w.headers }))
  return answers
}

/** A cash-on-delivery order the shop has confirmed ('processing'). */
export async function confirmedCodOrder(products?: Parameters<typeof place>[1]) {
  const o = await place('cashondelivery', products)
  const moved = await transitionOrder(
    env.DB,
    { orderId: o.orderId, to: 'processing', actor: 'test' },
    Date.now(),
  )
  if (!moved.changed) throw new Error(`not confirmed: ${JSON.stringify(moved)}`)
  return o
}

/** A card order paid at the payment stand-in ('processing'). */
export async function paidCardOrder(products?: Parameters<typeof place>[1]) {
  const o = await place('card', products)
  const started = await call('/api/payment/start', {
    body: { orderNumber: o.orderNumber, accessKey: o.accessKey },
  })
  const answer = (await sandbox.razorpayPay(
    started.json.result.options.order_id,
    'succeed',
  )) as unknown as Record<string, string>
  const res = await call('/api/payment/razorpay/verify', { body: { orderNumber: o.orderNumber, ...answer } })
  if (res.json.result.status !== 'processing') throw new Error(`not paid: ${JSON.stringify(res.json)}`)
  return o
}

export const shipmentsOf = async (orderId: string) =>
  (
    await env.DB.prepare('SELECT * FROM shipments WHERE client_order_id = ? ORDER BY id').bind(orderId).all<{
      id: number
      ref: string
      awb: string
      state: string
      step: string
      kind: string
      cod_minor: number
      return_id: number | null
    }>()
  ).results

export const stockOf = async (sku: string) =>
  (await env.DB.prepare('SELECT qty FROM inventory WHERE sku = ?').bind(sku).first<{ qty: number }>())?.qty

/** Runs the Cron Trigger's jobs at `at` with the courier configured. */
/** Runs the five-minute cron as scheduled at `at`, with the courier and payment keys set. */
export const runCron = (at: number) => runCronIn(at, shipEnv)

/** A test file's set-up: the stand-ins answer, and each test starts with the courier up and no faults. */
export function withCourierStandIn() {
  beforeAll(() => routeStandIns())
  beforeEach(async () => {
    courierHeld.length = 0
    courier.setDown(false)
    faults.loseAnswerTo = null
    await seedCartFixtures()
  })
}

/** The operator's "ready to ship" for an order number. */
export async function ship(number: string) {
  const { x, done } = ops()
  const res = await readyToShip(x, number, Date.now())
  await done()
  return res
}
