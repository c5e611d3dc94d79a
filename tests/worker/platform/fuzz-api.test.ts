// API fuzzing in workerd (the fast part; `npm run soak` runs 10,000 cases over HTTP): seeded
// fast-check requests against EVERY /api endpoint — malformed and hostile queries, bodies, headers
// and path segments, 1–2 MB bodies, deep nesting, unicode, injection and prototype pollution.
// Property: never a 5xx (except the order endpoint's out-of-stock contract answer), always JSON with
// the envelope and a clear message (catalogue: ES shape; url/map: hit or null); afterwards the D1
// invariants hold. Reproduce a failure with the seed and path fast-check prints.
//
// Then the adversarial property (tests/helpers/fuzz-attacks.ts), one test per attack class:
// requests built to be expensive or to reach another shopper's data answer 2xx/4xx within a time
// bound, the class's oracle holds (refusals, no foreign data in answers, catalogue prices, no
// attacker host in pages/caches/mails, tampered tokens refused) and the invariants still hold.
import { env, SELF } from 'cloudflare:test'
import fc from 'fast-check'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import {
  checkAnswer,
  checkInvariants,
  describeRequest,
  ENDPOINTS,
  type FuzzPools,
  type FuzzRequest,
  fuzzPools,
  fuzzRequest,
  type InventorySnapshot,
  snapshotInventory,
} from '../../helpers/fuzz-api'
import {
  ATTACK_CLASS_INFO,
  ATTACK_CLASSES,
  type AttackClass,
  type AttackContext,
  type AttackRequest,
  type AttackWorld,
  attackCase,
  attackProbes,
  checkAttackInvariants,
  describeAttack,
  prepareAttackWorld,
  runAttack,
} from '../../helpers/fuzz-attacks'
import { newOrderId } from '../../helpers/orders'
import { api, registerAndLogin } from '../../helpers/user'

vi.spyOn(console, 'error').mockImplementation(() => {})
vi.spyOn(console, 'warn').mockImplementation(() => {})

/** Fixed so `npm test` is reproducible; the soak run uses a fresh seed each time and prints it. */
const SEED = 1107_2026
const RUNS = 260

let pools: FuzzPools
let before: InventorySnapshot

async function send(r: FuzzRequest): Promise<{ status: number; type: string | null; text: string }> {
  const res = await SELF.fetch(`https://shop.test${r.path}`, {
    method: r.method,
    headers: r.headers,
    body: r.body,
  })
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() }
}

beforeAll(async () => {
  const users = [await registerAndLogin('fuzz'), await registerAndLogin('fuzz')]
  const { results: stock } = await env.DB.prepare(
    `SELECT i.sku, i.product_id FROM inventory i WHERE i.qty > 3 AND i.is_in_stock = 1 ORDER BY i.sku LIMIT 12`,
  ).all<{ sku: string; product_id: number }>()
  const { results: products } = await env.DB.prepare(
    'SELECT id, url_path FROM products WHERE status = 1 ORDER BY id LIMIT 6',
  ).all<{ id: number; url_path: string }>()
  const guestCarts: string[] = []
  for (let i = 0; i < 3; i++) guestCarts.push((await api('/cart/create', { method: 'POST' })).json.result)
  const customerCarts: string[] = []
  for (const u of users)
    customerCarts.push((await api('/cart/create', { method: 'POST', bearer: u.token })).json.result)
  const skus = stock.map((s) => s.sku)
  pools = fuzzPools({ skus, products, users, guestCarts, customerCarts, orderId: newOrderId('seed') })
  expect(pools.skus.length).toBeGreaterThan(3)
  before = await snapshotInventory(env.DB)
})

describe('API fuzzing (seeded)', () => {
  it('covers every endpoint of the embedded backend', () => {
    const names = new Set(ENDPOINTS.map((e) => e.name))
    expect(names.size).toBe(ENDPOINTS.length)
    expect(ENDPOINTS.length).toBeGreaterThanOrEqual(50)
  })

  it(`never answers a 5xx or a non-envelope (${RUNS} cases, seed ${SEED})`, async () => {
    const seen = new Map<string, number>()
    await fc.assert(
      fc.asyncProperty(fuzzRequest(pools), async (r) => {
        seen.set(r.endpoint, (seen.get(r.endpoint) ?? 0) + 1)
        const answers = await Promise.all(Array.from({ length: r.repeat }, () => send(r)))
        for (const a of answers) {
          const problem = checkAnswer(r, a.status, a.type, a.text)
          if (problem) throw new Error(`${problem}\n  request: ${describeRequest(r)}`)
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    )
    // The sample reached most endpoints.
    expect(seen.size).toBeGreaterThan(ENDPOINTS.length * 0.7)
  }, 120_000)

  it('leaves the database invariants intact', async () => {
    expect(await checkInvariants(env.DB, before)).toEqual([])
  })

  it('prototype pollution in bodies never reaches Object.prototype', () => {
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined()
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})

describe('targeted hostile inputs on every endpoint', () => {
  const hostileBodies: [string, string][] = [
    ['2 MB string', JSON.stringify({ x: 'x'.repeat(2_000_000) })],
    ['deep array', `${'['.repeat(20_000)}${']'.repeat(20_000)}`],
    ['deep object', `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`],
    ['lone surrogates', '{"a":"\\ud800\\udc00\\ud800","email":"\\udfff@example.com"}'],
    ['NUL', '{"a":"\\u0000","sku":"\\u0000"}'],
    ['pollution', '{"__proto__":{"code":200},"constructor":{"prototype":{"x":1}}}'],
  ]
  it('each POST endpoint answers every hostile body with a 4xx/2xx JSON envelope', async () => {
    const problems: string[] = []
    for (const ep of ENDPOINTS) {
      const methods = Array.isArray(ep.method) ? ep.method : [ep.method]
      if (!methods.includes('POST') || ep.path.includes('{')) continue
      for (const [label, body] of hostileBodies) {
        const r: FuzzRequest = {
          endpoint: ep.name,
          method: 'POST',
          path: `${ep.path}?cartId=${pools.guestCarts[0]}`,
          headers: { 'content-type': 'application/json', 'cf-connecting-ip': '203.0.113.9' },
          body,
          repeat: 1,
        }
        const a = await send(r)
        const problem = checkAnswer(r, a.status, a.type, a.text)
        if (problem) problems.push(`${ep.name} ${label}: ${problem}`)
      }
    }
    expect(problems).toEqual([])
  }, 60_000)
})

describe('bugs the fuzzer found', () => {
  it('PUT/PATCH/DELETE on an unknown page URL ends on /page-not-found instead of a redirect loop', async () => {
    for (const method of ['PATCH', 'PUT', 'DELETE', 'POST']) {
      const res = await SELF.fetch('https://shop.test/api/../not-a-page', { method, redirect: 'manual' })
      expect(res.status, method).toBe(303)
      expect(res.headers.get('location')).toBe('/page-not-found')
      await res.arrayBuffer()
      const followed = await SELF.fetch('https://shop.test/not-a-page-either', { method })
      expect(followed.status, method).toBe(404)
      await followed.arrayBuffer()
    }
  })
})

// ---------------------------------------------------------------------------------------------
// Adversarial property, one test per attack class

/** Fixed so `npm test` is reproducible (printed in every failure); the soak run picks its own. */
const ATTACK_SEED = 1507_2026
const ATTACK_RUNS: Record<AttackClass, number> = {
  search: 70,
  glob: 40,
  body: 60,
  quantity: 40,
  bundle: 40,
  replay: 60,
  header: 40,
  token: 40,
}
/**
 * A hang detector, not a speed target: the worker tier shares two cores with the other tiers, so a
 * bound near the target fails on a busy machine. The soak (`npm run soak`, phase attack) holds
 * every attack to its 1 s target on a machine of its own.
 */
const ATTACK_BOUND_MS = 10_000

/**
 * Attack classes the server does not withstand yet, with what fails. Each still runs as an
 * expected failure (showing the attack works); once its fix is in, the test reports "expected to
 * fail but passed" — then delete the entry so the property guards against a regression.
 */
const OPEN_ATTACKS: Partial<Record<AttackClass, string>> = {}

/** An answer that has not come after this long never will (a stuck request fails, not the run). */
const NO_ANSWER_MS = 10_000

async function sendAttack(r: AttackRequest) {
  const answer = (async () => {
    const res = await SELF.fetch(`https://${r.host ?? 'shop.test'}${r.path}`, {
      method: r.method,
      headers: r.headers,
      body: r.body,
      redirect: 'manual',
    })
    const text = await res.text()
    const headerText = [...res.headers].map(([k, v]) => `${k}: ${v}`).join('\n')
    return { status: res.status, type: res.headers.get('content-type'), text, headerText }
  })()
  let timer: ReturnType<typeof setTimeout> | undefined
  const stuck = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${NO_ANSWER_MS / 1000} s`)), NO_ANSWER_MS)
  })
  try {
    return await Promise.race([answer, stuck])
  } finally {
    clearTimeout(timer)
  }
}

describe(`adversarial fuzzing (seed ${ATTACK_SEED}, bound ${ATTACK_BOUND_MS} ms per request)`, () => {
  let world: AttackWorld
  let ctx: AttackContext
  let before: InventorySnapshot

  beforeAll(async () => {
    world = await prepareAttackWorld({ send: sendAttack, db: env.DB, pools, tag: `w${ATTACK_SEED}` })
    ctx = { send: sendAttack, db: env.DB, world, boundMs: ATTACK_BOUND_MS, now: () => performance.now() }
    before = await snapshotInventory(env.DB)
  }, 60_000)

  for (const cls of ATTACK_CLASSES) {
    const open = OPEN_ATTACKS[cls]
    const title = `${cls}: ${ATTACK_CLASS_INFO[cls]} (${ATTACK_RUNS[cls]} cases)${open ? ` — OPEN: ${open}` : ''}`
    ;(open ? it.fails : it)(
      title,
      async ({ annotate }) => {
        const times: number[] = []
        let worst = { ms: 0, what: '' }
        const attempt = async (a: Parameters<typeof runAttack>[0]) => {
          const o = await runAttack(a, ctx)
          times.push(o.ms)
          if (o.ms > worst.ms) worst = { ms: o.ms, what: describeAttack(a, o.request, 120) }
          if (o.problem)
            throw new Error(`seed ${ATTACK_SEED}: ${o.problem}\n  attack: ${describeAttack(a, o.request)}`)
        }
        // The smallest known-bad shapes first, so a server that still has such a bug fails fast.
        for (const probe of attackProbes([cls])) await attempt(probe)
        await fc.assert(fc.asyncProperty(attackCase([cls]), attempt), {
          seed: ATTACK_SEED,
          numRuns: ATTACK_RUNS[cls],
          endOnFailure: true,
        })
        expect(await checkInvariants(env.DB, before)).toEqual([])
        expect(await checkAttackInvariants(env.DB, world, { mails: cls === 'header' })).toEqual([])
        times.sort((x, y) => x - y)
        const p = (q: number) =>
          Math.round(times[Math.min(times.length - 1, Math.floor(times.length * q))] ?? 0)
        await annotate(
          `${times.length} attacks: p50 ${p(0.5)} ms, p99 ${p(0.99)} ms, worst ${Math.round(worst.ms)} ms — ${worst.what}`,
        )
      },
      120_000,
    )
  }
})
