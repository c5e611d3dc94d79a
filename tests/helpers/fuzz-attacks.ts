/**
 * Adversarial fuzzing shared by the worker test (tests/worker/platform/fuzz-api.test.ts, in workerd) and
 * the soak run's attack phase (tests/soak/run.mjs, over HTTP). Where fuzz-api.ts explores valid
 * shapes with hostile values, this module generates the ATTACKS: requests built to cost the
 * server as much as possible or to reach another shopper's data. Eight classes:
 *
 *   search    pathological search DSL: deep bool/function_score/constant_score nesting up to and
 *             beyond any sensible limit, wide should lists with minimum_should_match, huge terms
 *             lists, thousands of range buckets and aggregations, multi_match over many fields,
 *             long strings, numbers at the edges; also the search-query format and category
 *             pages with pathological filters
 *   glob      _source_include/_source_exclude patterns with many `*`/`?`, regex metacharacters,
 *             unicode, long and many patterns
 *   body      pathological JSON bodies for every POST endpoint: deep nesting, huge arrays, many
 *             and duplicate keys, prototype-pollution keys, wrong types, strings around the body
 *             limit, edge numbers
 *   quantity  hex/octal/binary/exponent/fraction quantity strings and edge numbers in the cart
 *             and the order (decimal integers only; nothing may be written for a rejected one)
 *   bundle    bundle/grouped lines with client-set option quantities and foreign or unknown
 *             option/selection ids (never cheaper than the catalogue; honest bundle orders work)
 *   replay    another shopper's order id, customer cart id and cart item ids replayed by a
 *             guest or another customer (no data of theirs in the answer, nothing of theirs
 *             changed; the owner's own replay still gets its result)
 *   header    spoofed Host / X-Forwarded-Host / Forwarded and other routing headers on pages and
 *             mail-sending endpoints (the attacker's host never appears in any answer, in the
 *             cached page others get, or in a stored mail)
 *   token     tampered, re-encoded, alg=none, wrong-key and garbage tokens (never accepted)
 *
 * Every generated request must answer 2xx/4xx within a time bound, with the class's oracle
 * holding; afterwards the D1 invariants (fuzz-api.ts) and the victim's rows are unchanged.
 * Pure TypeScript with no Node or workerd imports: both sides pass their own `send` and D1.
 */
import fc from 'fast-check'
import { CONTACT_MAIL, checkAnswer, type FuzzPools, type FuzzRequest } from './fuzz-api'
import { deliverTo, shippingInformation, testAddress } from './orders'

// ---------------------------------------------------------------------------------------------
// Types

export const ATTACK_CLASSES = [
  'search',
  'glob',
  'body',
  'quantity',
  'bundle',
  'replay',
  'header',
  'token',
] as const
export type AttackClass = (typeof ATTACK_CLASSES)[number]

export const ATTACK_CLASS_INFO: Record<AttackClass, string> = {
  search: 'pathological search DSL (nesting, width, terms, buckets, aggregations, multi_match, edges)',
  glob: '_source include/exclude glob patterns (many *, ?, metacharacters, unicode, long, many)',
  body: 'pathological JSON bodies on every POST endpoint (depth, width, duplicates, __proto__, size)',
  quantity: 'non-decimal quantities (hex, octal, binary, exponent, fraction, edge numbers)',
  bundle: 'bundle/grouped lines with client-set option quantities and foreign option ids',
  replay: "another shopper's order id, cart id and item ids replayed",
  header: 'spoofed Host / X-Forwarded-Host and routing headers on pages and mail endpoints',
  token: 'tampered, re-encoded, alg=none, wrong-key and garbage access tokens',
}

/** A request as the attacker sends it; `host` is the Host it presents (default: the shop's). */
export interface AttackRequest extends FuzzRequest {
  host?: string
}

/** What came back. `headerText` is every response header as `name: value` lines. */
export interface Answer {
  status: number
  type: string | null
  text: string
  headerText: string
}

export type Send = (r: AttackRequest) => Promise<Answer>

/** The part of D1 the oracles read (workerd's env.DB and Miniflare's getD1Database both fit). */
export interface SqlLike {
  prepare(sql: string): {
    bind(...values: unknown[]): { all<T = Record<string, unknown>>(): Promise<{ results: T[] }> }
    all<T = Record<string, unknown>>(): Promise<{ results: T[] }>
  }
}

export interface AttackContext {
  send: Send
  db: SqlLike
  world: AttackWorld
  /** Bound for the attack request itself (ms). */
  boundMs: number
  /** Clock in ms (performance.now in both runtimes). */
  now: () => number
}

/** What a case sends and expects, resolved against the world when it runs. */
export interface AttackPlan {
  request: AttackRequest
  /** reject = must be 4xx; accept = must be 2xx; any = 2xx or 4xx. */
  expect: 'reject' | 'accept' | 'any'
  /** Over a limit: the 4xx message must name the limit (contain a number). */
  namesLimit?: boolean
  /** Strings that must not appear anywhere in the answer (body or headers), case-insensitively. */
  secrets?: string[]
  /** Follow-up checks once the answer is in; a problem description or null. */
  verify?: (answer: Answer, ctx: AttackContext) => Promise<string | null>
}

export interface AttackCase {
  /** One of ATTACK_CLASSES, or a class only the soak run sends (tests/soak/flood-attacks.ts). */
  cls: string
  /** The kind of attack within its class (reports group failures by it). */
  kind: string
  /** What is pathological about this one (for reports). */
  label: string
  /** Builds the request (with any per-case set-up, e.g. a fresh cart) for this world. */
  plan: (ctx: AttackContext) => Promise<AttackPlan>
}

export interface AttackOutcome {
  status: number
  /** Time of the attack request itself (ms). */
  ms: number
  problem: string | null
  /** Every request the case sent (set-up and checks included). */
  requests: number
  /** The attack request as sent (absent when the set-up failed). */
  request?: AttackRequest
}

interface BundleLink {
  id: number
  sku: string
  qty: number
}
interface BundleInfo {
  sku: string
  options: { option_id: number; links: BundleLink[] }[]
  /** Parts' skus (for stock). */
  parts: string[]
}
interface GroupedInfo {
  sku: string
  parts: string[]
}

/** Everything the generators need: ids of the attacker and of the victim they target. */
export interface AttackWorld {
  tag: string
  pools: FuzzPools
  /** In-stock simple skus that may be added and ordered. */
  sellable: string[]
  victim: {
    email: string
    customerId: number
    token: string
    /** Numeric id of the victim's active customer cart and its lines. */
    cartId: string
    itemIds: number[]
    guestOrder: { orderId: string; body: string; orderNumber: string; entityId: string; accessKey: string }
    customerOrder: { orderId: string; body: string; orderNumber: string; entityId: string; accessKey: string }
    /** What must never reach anyone else: names, address, phone, e-mails, access keys. */
    secrets: string[]
  }
  attacker: {
    email: string
    customerId: number
    token: string
    refreshToken: string
    guestCart: string
    /** The attacker's own guest order (its access key is replayed against the victim's order). */
    orderId: string
    accessKey: string
  }
  bundles: BundleInfo[]
  grouped: GroupedInfo[]
  /** Unit price incl. tax of an honest cart line: key `${sku}|${linkIds}` (bundles) or sku. */
  refUnit: Map<string, number>
  /** Grand total of an honest one-line order of that key (absent when the order failed). */
  refOrderTotal: Map<string, number>
  /** Honest reference orders that failed at set-up (status and message), by key. */
  refOrderFailures: Map<string, string>
  /** Page paths for the header class. */
  pages: string[]
  /** Category slugs (for pathological listing filters). */
  categorySlugs: string[]
  /** Victim rows as they were after set-up (compared by the invariants). */
  snapshot: { orders: string; cart: string }
}

/** The attacker's host names all end with this (checked in answers, caches and mails). */
export const ATTACKER_DOMAIN = 'attacker.invalid'

/** Body sizes are generated around this (a sensible JSON body limit). */
export const BODY_LIMIT_GUESS = 1024 * 1024

// ---------------------------------------------------------------------------------------------
// Small helpers

const json = (v: unknown) => JSON.stringify(v)

const ADDRESS = testAddress('attacker@example.com', { firstname: 'Fuzz', lastname: 'Attacker' })

let emailSeq = 0
/**
 * The attacker's address with an e-mail of its own: orders nobody pays may hold only so many units
 * per e-mail, and these orders are about something else (the order-flood class of the soak tests
 * that limit).
 */
function attackerAddress() {
  emailSeq++
  return { ...ADDRESS, email: `attacker-${emailSeq}-${Math.random().toString(36).slice(2, 7)}@example.com` }
}

function orderBody(
  orderId: string,
  products: unknown[],
  address = attackerAddress(),
  extra: Record<string, unknown> = {},
) {
  return {
    order_id: orderId,
    user_id: '',
    cart_id: '',
    products,
    addressInformation: deliverTo(address),
    ...extra,
  }
}

/** A POST sent once. */
const postOnce = (
  endpoint: string,
  path: string,
  headers: Record<string, string>,
  body: string,
): AttackRequest => ({
  endpoint,
  method: 'POST',
  path,
  headers,
  body,
  repeat: 1,
})

/** An order POST from a network address of its own: orders are limited per address (the soak's order flood). */
const orderPost = (headers: Record<string, string>, body: string) =>
  postOnce('order', '/api/order', { ...headers, 'cf-connecting-ip': setupIp() }, body)

/** A POST of one line to a guest cart. */
const cartUpdatePost = (cart: string, headers: Record<string, string>, body: string) =>
  postOnce('cart/update', `/api/cart/update?cartId=${cart}`, headers, body)

let caseSeq = 0
/** A client order id unique to this process (fast-check values must not depend on it). */
function freshOrderId(prefix: string): string {
  caseSeq++
  return `${prefix}-${Date.now().toString(36)}-${caseSeq}-${Math.random().toString(36).slice(2, 8)}`
}

async function call(
  send: Send,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{
  status: number
  json: { code?: number; result?: unknown; meta?: unknown } | null
  text: string
}> {
  const a = await send({
    endpoint: 'setup',
    method,
    path,
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': '192.0.2.77', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : json(body),
    repeat: 1,
  })
  let parsed = null
  try {
    parsed = JSON.parse(a.text)
  } catch {}
  return { status: a.status, json: parsed, text: a.text }
}

export async function rows<T>(db: SqlLike, sql: string, ...values: unknown[]): Promise<T[]> {
  const stmt = db.prepare(sql)
  const { results } = await (values.length ? stmt.bind(...values).all<T>() : stmt.all<T>())
  return results
}

/** Message of an error envelope ('' when none). */
/** The message of a refusal: the /api envelope's result, or a plain-text answer itself (/img). */
function envelopeMessage(text: string): string {
  try {
    const env = JSON.parse(text) as { result?: unknown }
    if (typeof env.result === 'string') return env.result
    const r = env.result as { errorMessage?: unknown; message?: unknown } | null
    return String(r?.errorMessage ?? r?.message ?? '')
  } catch {
    return /^\s*</.test(text) ? '' : text.slice(0, 500)
  }
}

function snippet(text: string, n = 160): string {
  return JSON.stringify(text.slice(0, n))
}

// ---------------------------------------------------------------------------------------------
// The world: a victim and an attacker, bundle reference prices, pages

export interface PrepareOptions {
  send: Send
  db: SqlLike
  pools: FuzzPools
  /** Distinguishes this run's accounts and ids from earlier ones in the same database. */
  tag: string
}

let ipSeq = 0
const setupIp = () => {
  ipSeq++
  return `198.18.${Math.floor(ipSeq / 250) % 250}.${ipSeq % 250}`
}

async function register(send: Send, email: string, firstname: string, lastname: string) {
  const created = await call(
    send,
    'POST',
    '/api/user/create',
    { customer: { email, firstname, lastname }, password: 'Secret123' },
    { 'cf-connecting-ip': setupIp() },
  )
  if (created.status !== 200)
    throw new Error(`attack set-up: registering failed: ${created.text.slice(0, 200)}`)
  const login = await call(
    send,
    'POST',
    '/api/user/login',
    { username: email, password: 'Secret123' },
    { 'cf-connecting-ip': setupIp() },
  )
  if (login.status !== 200) throw new Error(`attack set-up: login failed: ${login.text.slice(0, 200)}`)
  return {
    id: Number((created.json?.result as { id?: number })?.id),
    token: String(login.json?.result),
    refreshToken: String((login.json?.meta as { refreshToken?: string })?.refreshToken ?? ''),
  }
}

async function placeOrder(send: Send, body: unknown, token?: string) {
  // Each set-up order from an address of its own (orders are limited per address).
  const res = await call(
    send,
    'POST',
    '/api/order',
    body,
    token
      ? { authorization: `Bearer ${token}`, 'cf-connecting-ip': setupIp() }
      : { 'cf-connecting-ip': setupIp() },
  )
  const r = (res.json?.result ?? {}) as Record<string, unknown>
  return {
    status: res.status,
    text: res.text,
    orderNumber: String(r.orderNumber ?? ''),
    entityId: String(r.backendOrderId ?? r.magentoOrderId ?? ''),
    accessKey: String(r.accessKey ?? ''),
  }
}

function bundleKey(sku: string, linkIds: number[]): string {
  return `${sku}|${linkIds.join(',')}`
}

function honestBundleOption(b: BundleInfo, linkIds: number[]) {
  return {
    extension_attributes: {
      bundle_options: b.options.map((o, i) => {
        const link = o.links.find((l) => l.id === linkIds[i]) ?? o.links[0]
        return { option_id: o.option_id, option_qty: link?.qty ?? 1, option_selections: [link?.id] }
      }),
    },
  }
}

/** Every combination of one link per option. */
function combos(b: BundleInfo): number[][] {
  let out: number[][] = [[]]
  for (const o of b.options) out = out.flatMap((prefix) => o.links.map((l) => [...prefix, l.id]))
  return out
}

/** Unit price incl. tax of the line with `sku` in a cart's totals (null when absent). */
async function cartUnitPrice(send: Send, cart: string, sku: string): Promise<number | null> {
  const totals = await call(send, 'GET', `/api/cart/totals?cartId=${cart}`)
  const items = ((totals.json?.result as { items?: unknown[] })?.items ?? []) as {
    sku?: string
    qty?: number
    price_incl_tax?: number
    row_total_incl_tax?: number
  }[]
  const line = items.find((i) => i.sku === sku)
  if (!line) return null
  if (typeof line.row_total_incl_tax === 'number' && line.qty) return line.row_total_incl_tax / line.qty
  return typeof line.price_incl_tax === 'number' ? line.price_incl_tax : null
}

async function newGuestCart(send: Send): Promise<string> {
  const res = await call(send, 'POST', '/api/cart/create')
  const id = String(res.json?.result ?? '')
  if (res.status !== 200 || !id) throw new Error(`cart/create failed: ${res.text.slice(0, 200)}`)
  return id
}

/** The victim's order rows and cart rows, every column (an attack must change none of them). */
async function victimSnapshot(db: SqlLike, w: Pick<AttackWorld, 'victim'>) {
  const orders = await rows(
    db,
    'SELECT * FROM orders WHERE client_order_id IN (?, ?) ORDER BY client_order_id',
    w.victim.guestOrder.orderId,
    w.victim.customerOrder.orderId,
  )
  const cart = await rows(db, 'SELECT * FROM carts WHERE id = ?', Number(w.victim.cartId))
  const items = await rows(
    db,
    'SELECT * FROM cart_items WHERE cart_id = ? ORDER BY item_id',
    Number(w.victim.cartId),
  )
  return { orders: json(orders), cart: json({ cart, items }) }
}

/**
 * Creates the victim (a customer with a cart, a customer order and a guest order carrying unique
 * personal data) and the attacker (a customer and a guest order of their own), tops up the stock
 * of the products the attacks order, and prices every bundle combination and grouped product
 * with an honest cart line and an honest order (the references the bundle oracle compares with).
 */
export async function prepareAttackWorld(o: PrepareOptions): Promise<AttackWorld> {
  const { send, db, pools } = o
  const tag = o.tag.replace(/[^a-z0-9]/gi, '').toLowerCase() || 'x'

  const composite = await rows<{ sku: string; type_id: string; doc: string }>(
    db,
    "SELECT sku, type_id, doc FROM products WHERE type_id IN ('bundle', 'grouped') AND status = 1 ORDER BY sku",
  )
  const bundles: BundleInfo[] = []
  const grouped: GroupedInfo[] = []
  for (const p of composite) {
    const doc = JSON.parse(p.doc) as {
      bundle_options?: { option_id: number; product_links: { id: number; sku: string; qty?: number }[] }[]
      product_links?: { link_type?: string; linked_product_sku?: string }[]
    }
    if (p.type_id === 'bundle' && doc.bundle_options?.length) {
      const options = doc.bundle_options.map((b) => ({
        option_id: b.option_id,
        links: b.product_links.map((l) => ({ id: l.id, sku: l.sku, qty: l.qty ?? 1 })),
      }))
      bundles.push({ sku: p.sku, options, parts: options.flatMap((b) => b.links.map((l) => l.sku)) })
    } else if (p.type_id === 'grouped') {
      const parts = (doc.product_links ?? [])
        .filter((l) => (l.link_type ?? 'associated') === 'associated' && l.linked_product_sku)
        .map((l) => l.linked_product_sku as string)
      if (parts.length) grouped.push({ sku: p.sku, parts })
    }
  }
  // Plain products a shopper can order as they are (no option to choose, none required).
  const simple = await rows<{ sku: string; doc: string }>(
    db,
    "SELECT p.sku, p.doc FROM products p JOIN inventory i ON i.sku = p.sku WHERE p.type_id = 'simple' AND p.status = 1 ORDER BY p.sku",
  )
  const sellable = simple
    .filter(
      (p) =>
        !(JSON.parse(p.doc) as { custom_options?: { is_require?: boolean }[] }).custom_options?.some(
          (c) => c.is_require,
        ),
    )
    .map((p) => p.sku)
    .slice(0, 6)
  if (sellable.length < 4) throw new Error('attack set-up: fewer than 4 plain simple products to order')
  // The attacks order these: plenty of stock, so "out of stock" never hides a wrong answer.
  const stocked = [
    ...new Set([...sellable, ...bundles.flatMap((b) => b.parts), ...grouped.flatMap((g) => g.parts)]),
  ]
  for (const sku of stocked)
    await rows(
      db,
      'UPDATE inventory SET qty = MAX(qty, 100000), is_in_stock = 1 WHERE sku = ? RETURNING sku',
      sku,
    )

  // The victim: unique strings, so any of them in another caller's answer is a leak.
  const secretName = `Vq${tag}zz`
  const victimAddress = {
    firstname: 'Vicky',
    lastname: secretName,
    street: [`${tag} Hidden Lane`, 'Flat 7'],
    city: 'Kochi',
    postcode: '682001',
    country_id: 'IN',
    telephone: `97${String(Number.parseInt(tag.slice(0, 6), 36) % 100000000).padStart(8, '0')}`,
    email: `victim-${tag}@example.com`,
  }
  const v = await register(send, victimAddress.email, 'Vicky', secretName)
  const cartRes = await call(send, 'POST', '/api/cart/create', undefined, {
    authorization: `Bearer ${v.token}`,
  })
  const victimCart = String(cartRes.json?.result ?? '')
  for (const sku of sellable.slice(0, 2)) {
    const added = await call(
      send,
      'POST',
      `/api/cart/update?cartId=${victimCart}`,
      { cartItem: { sku, qty: 2, quoteId: victimCart } },
      { authorization: `Bearer ${v.token}` },
    )
    if (added.status !== 200)
      throw new Error(`attack set-up: victim cart add failed: ${added.text.slice(0, 200)}`)
  }
  const itemIds = (
    await rows<{ item_id: number }>(
      db,
      'SELECT item_id FROM cart_items WHERE cart_id = ?',
      Number(victimCart),
    )
  ).map((r) => r.item_id)
  const guestBody = json(
    orderBody(`victim-g-${tag}`, [{ sku: sellable[2] ?? sellable[0], qty: 1, price: 1 }], {
      ...victimAddress,
      email: `guest-victim-${tag}@example.com`,
    }),
  )
  const guestOrder = await placeOrder(send, guestBody)
  if (guestOrder.status !== 200)
    throw new Error(`attack set-up: victim guest order failed: ${guestOrder.text.slice(0, 200)}`)
  const customerBody = json({
    ...orderBody(`victim-c-${tag}`, [{ sku: sellable[3] ?? sellable[0], qty: 1, price: 1 }], victimAddress),
    user_id: v.id,
  })
  const customerOrder = await placeOrder(send, customerBody, v.token)
  if (customerOrder.status !== 200)
    throw new Error(`attack set-up: victim customer order failed: ${customerOrder.text.slice(0, 200)}`)

  // The attacker.
  const attackerEmail = `attacker-${tag}@example.com`
  const a = await register(send, attackerEmail, 'Mallory', 'Attacker')
  const attackerCart = await newGuestCart(send)
  const attackerOrderId = `attacker-g-${tag}`
  const attackerOrder = await placeOrder(
    send,
    orderBody(attackerOrderId, [{ sku: sellable[0], qty: 1, price: 1 }], {
      ...ADDRESS,
      email: attackerEmail,
    }),
  )

  // Reference prices: an honest cart line and an honest order per bundle combination / grouped.
  const refUnit = new Map<string, number>()
  const refOrderTotal = new Map<string, number>()
  const refOrderFailures = new Map<string, string>()
  const references: { key: string; sku: string; option?: unknown }[] = [
    ...bundles.flatMap((b) =>
      combos(b).map((ids) => ({
        key: bundleKey(b.sku, ids),
        sku: b.sku,
        option: honestBundleOption(b, ids),
      })),
    ),
    ...grouped.map((g) => ({ key: g.sku, sku: g.sku })),
  ]
  for (const ref of references) {
    const cart = await newGuestCart(send)
    const added = await call(send, 'POST', `/api/cart/update?cartId=${cart}`, {
      cartItem: {
        sku: ref.sku,
        qty: 1,
        quoteId: cart,
        ...(ref.option ? { product_option: ref.option } : {}),
      },
    })
    const unit = added.status === 200 ? await cartUnitPrice(send, cart, ref.sku) : null
    if (unit !== null) refUnit.set(ref.key, unit)
    const id = `ref-${tag}-${ref.key.replace(/[^A-Za-z0-9]/g, '')}`
    const placed = await placeOrder(
      send,
      orderBody(id, [
        { sku: ref.sku, qty: 1, price: 1, ...(ref.option ? { product_option: ref.option } : {}) },
      ]),
    )
    const stored = await rows<{ grand_total: number }>(
      db,
      'SELECT grand_total FROM orders WHERE client_order_id = ?',
      id,
    )
    if (placed.status === 200 && stored[0]) refOrderTotal.set(ref.key, stored[0].grand_total)
    else refOrderFailures.set(ref.key, `${placed.status} ${envelopeMessage(placed.text).slice(0, 120)}`)
  }

  // Pages an attacker can point spoofed routing headers at.
  const cats = await rows<{ slug: string }>(
    db,
    'SELECT slug FROM categories WHERE is_active = 1 AND level = 2 ORDER BY id LIMIT 3',
  )
  const prods = await rows<{ sku: string; slug: string }>(
    db,
    "SELECT sku, slug FROM products WHERE status = 1 AND visibility = 4 AND type_id = 'simple' ORDER BY id LIMIT 2",
  )
  const pages = [
    '/',
    ...cats.map((c) => `/c/${c.slug}`),
    ...prods.map((p) => `/p/${encodeURIComponent(p.sku)}/${p.slug}`),
    ...prods.slice(0, 1).map((p) => `/amp/p/${encodeURIComponent(p.sku)}/${p.slug}`),
    ...cats.slice(0, 1).map((c) => `/amp/c/${c.slug}`),
    '/sitemap.xml',
    '/robots.txt',
    '/i/about-us',
    '/page-not-found',
    '/search?q=saree',
    '/contact',
  ]

  const world: AttackWorld = {
    tag,
    pools,
    sellable,
    victim: {
      email: victimAddress.email,
      customerId: v.id,
      token: v.token,
      cartId: victimCart,
      itemIds,
      guestOrder: { orderId: `victim-g-${tag}`, body: guestBody, ...pick(guestOrder) },
      customerOrder: { orderId: `victim-c-${tag}`, body: customerBody, ...pick(customerOrder) },
      secrets: [
        secretName,
        `${tag} Hidden Lane`,
        victimAddress.telephone,
        victimAddress.email,
        `guest-victim-${tag}@example.com`,
        guestOrder.accessKey,
        customerOrder.accessKey,
      ].filter((s) => s.length >= 6),
    },
    attacker: {
      email: attackerEmail,
      customerId: a.id,
      token: a.token,
      refreshToken: a.refreshToken,
      guestCart: attackerCart,
      orderId: attackerOrderId,
      accessKey: attackerOrder.accessKey,
    },
    bundles,
    grouped,
    refUnit,
    refOrderTotal,
    refOrderFailures,
    pages,
    categorySlugs: cats.map((c) => c.slug),
    snapshot: { orders: '', cart: '' },
  }
  world.snapshot = await victimSnapshot(db, world)
  return world
}

function pick(o: { orderNumber: string; entityId: string; accessKey: string }) {
  return { orderNumber: o.orderNumber, entityId: o.entityId, accessKey: o.accessKey }
}

// ---------------------------------------------------------------------------------------------
// Edge values

/** Numbers at the edges (JSON-representable). */
export const EDGE_NUMBERS = [1e308, -1e308, -0, 0, 5e-324, 2 ** 53 + 1, -(2 ** 63), 1e21, 0.1 + 0.2, -1, 4001]
/** Strings that look numeric to a lenient parser. */
export const EDGE_NUMBER_STRINGS = [
  'NaN',
  'Infinity',
  '-Infinity',
  '1e309',
  '-1e309',
  '0x10',
  '0o20',
  '0b10000',
  '1e1',
  '1.6e1',
  '-0',
  '+16',
  ' 16',
  '16.0',
  '1_6',
  '١٦',
  '１６',
  '0x7fffffffffffffff',
  '9'.repeat(400),
  '.5',
  '',
]
/** Literal JSON number texts that JSON.parse turns into edge values (Infinity, 0, huge). */
const EDGE_NUMBER_LITERALS = [
  '1e999',
  '-1e999',
  '1e-400',
  '123456789012345678901234567890',
  '-0.0e0',
  '5e-324',
]

/**
 * Quantities a shop must refuse (decimal integers only: a string of digits or an integer number,
 * within 1..the line maximum). Whitespace and sign variants are left out: refusing or trimming
 * them are both sound.
 */
export const BAD_QUANTITIES: unknown[] = [
  '0x10',
  '0X10',
  '0x0',
  '0o20',
  '0O20',
  '0b10000',
  '0B11',
  '1e1',
  '1E1',
  '1.6e1',
  '16e0',
  '160e-1',
  '1e-1',
  '16.5',
  '0.5',
  '.5',
  'Infinity',
  '-Infinity',
  'NaN',
  '',
  '1_6',
  '١٦',
  '１６',
  '0x7fffffffffffffff',
  '9'.repeat(400),
  16.5,
  0.5,
  5e-324,
  0,
  -0,
  -1,
  1e308,
  2 ** 53 + 1,
  null,
  true,
  [16],
  { valueOf: 16 },
]

const unicodeJunk = fc.constantFrom(
  '\u0000',
  '\uD800',
  '\u202E',
  '🧨',
  'é',
  'ß',
  '\uFEFF',
  '\u2028',
  'Ω',
  '中',
  '\\',
  '"',
)

// ---------------------------------------------------------------------------------------------
// search: pathological DSL

const CATALOG = '/api/catalog/vue_storefront_catalog'
const FIELDS = [
  'sku',
  'name',
  'price',
  'final_price',
  'special_price',
  'color',
  'size',
  'category_ids',
  'category.category_id',
  'type_id',
  'visibility',
  'status',
  'description',
  'short_description',
  'updated_at',
  'created_at',
  'stock.is_in_stock',
  'configurable_children.sku',
  'configurable_children.price',
  'designer',
  'product_tag',
  'url_key',
  'meta_title',
  'id',
  'no_such_field',
]
const TEXT_FIELDS = [
  'name',
  'description',
  'sku',
  'short_description',
  'meta_title',
  'url_key',
  'product_tag',
]

const searchText = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom('saree', 'silk kurta', 'red', 'lehenga choli set', 'x') },
  { weight: 2, arbitrary: fc.string({ maxLength: 60 }) },
  { weight: 1, arbitrary: fc.array(unicodeJunk, { maxLength: 40 }).map((a) => a.join('')) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 20_000 }).map((n) => 'ab '.repeat(n)) },
)

const edgeScalar: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...EDGE_NUMBERS),
  fc.constantFrom(...EDGE_NUMBER_STRINGS),
  fc.integer({ min: -1000, max: 100_000 }),
  fc.string({ maxLength: 12 }),
  fc.constantFrom(true, false, null),
)

const field = fc.oneof(
  { weight: 9, arbitrary: fc.constantFrom(...FIELDS) },
  { weight: 1, arbitrary: fc.string() },
)

function termsClause(values: unknown[], f: string) {
  return { terms: { [f]: values } }
}

const leafClause: fc.Arbitrary<unknown> = fc.oneof(
  fc.record({ f: field, v: fc.array(edgeScalar, { maxLength: 12 }) }).map(({ f, v }) => termsClause(v, f)),
  fc.record({ f: field, v: edgeScalar }).map(({ f, v }) => ({ term: { [f]: v } })),
  fc
    .record({
      f: field,
      gte: fc.option(edgeScalar, { nil: undefined }),
      lte: fc.option(edgeScalar, { nil: undefined }),
      gt: fc.option(edgeScalar, { nil: undefined }),
    })
    .map(({ f, ...b }) => ({ range: { [f]: b } })),
  field.map((f) => ({ exists: { field: f } })),
  fc
    .record({
      f: fc.constantFrom(...TEXT_FIELDS),
      q: searchText,
      fuzz: fc.constantFrom(0, 1, 2, 'AUTO', 3, -1),
    })
    .map(({ f, q, fuzz }) => ({ match: { [f]: { query: q, fuzziness: fuzz } } })),
  fc
    .record({
      n: fc.integer({ min: 1, max: 60 }),
      q: searchText,
      op: fc.constantFrom('or', 'and'),
      msm: fc.constantFrom(undefined, '75%', '-25%', 3, -2, '100%', 1000),
    })
    .map(({ n, q, op, msm }) => ({
      multi_match: {
        query: q,
        operator: op,
        fuzziness: 'AUTO',
        fields: Array.from({ length: n }, (_, i) => `${TEXT_FIELDS[i % TEXT_FIELDS.length]}^${(i % 7) + 1}`),
        ...(msm === undefined ? {} : { minimum_should_match: msm }),
      },
    })),
  fc
    .record({ f: fc.constantFrom(...TEXT_FIELDS), q: searchText })
    .map(({ f, q }) => ({ match_phrase: { [f]: q } })),
  fc.constant({ match_all: {} }),
  fc.constant({ match_none: {} }),
)

const msmValue = fc.constantFrom(
  undefined,
  1,
  2,
  50,
  100,
  -1,
  '50%',
  '-50%',
  '100%',
  '0%',
  '1000%',
  1e308,
  '75%25',
)
const weight = fc.oneof(
  fc.constantFrom(...EDGE_NUMBERS.filter((n) => Number.isFinite(n))),
  fc.double({ noNaN: true }),
)

/** Random clause trees mixing every compound clause (fast-check keeps the depth small on average). */
const dslTree: fc.Arbitrary<unknown> = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leafClause,
    fc
      .record({
        must: fc.array(tie('node'), { maxLength: 3 }),
        should: fc.array(tie('node'), { maxLength: 4 }),
        filter: fc.array(tie('node'), { maxLength: 3 }),
        must_not: fc.array(tie('node'), { maxLength: 2 }),
        minimum_should_match: msmValue,
        boost: fc.option(weight, { nil: undefined }),
      })
      .map((b) => ({ bool: Object.fromEntries(Object.entries(b).filter(([, x]) => x !== undefined)) })),
    fc
      .record({
        query: tie('node'),
        functions: fc.array(fc.record({ filter: tie('node'), weight }), { maxLength: 3 }),
        min_score: fc.option(fc.constantFrom(0, 0.5, 1, -1e308), { nil: undefined }),
        score_mode: fc.constantFrom('multiply', 'sum', 'avg', 'first', 'max', 'min'),
        boost_mode: fc.constantFrom('multiply', 'replace', 'sum', 'avg', 'max', 'min'),
        max_boost: fc.option(weight, { nil: undefined }),
      })
      .map((f) => ({
        function_score: Object.fromEntries(Object.entries(f).filter(([, x]) => x !== undefined)),
      })),
    tie('node').map((filter) => ({ constant_score: { filter, boost: 2 } })),
  ),
})).node

type Shape =
  | 'alternating'
  | 'fs-chain'
  | 'bool-chain'
  | 'cs-chain'
  | 'should-wide'
  | 'terms-huge'
  | 'range-buckets'
  | 'many-aggs'
  | 'multi-match-wide'
  | 'deep-must-and-should'

/** A deterministic pathological shape at size n (each of the reported attack shapes). */
function shapeQuery(
  shape: Shape,
  n: number,
  leaf: unknown,
): { body: Record<string, unknown>; overLimit: boolean } {
  let q: unknown = leaf
  switch (shape) {
    case 'alternating':
      // bool.should ↔ function_score{min_score}: each level's SQL used to contain its child twice.
      for (let d = 0; d < n; d++)
        q = {
          bool: {
            should: [
              {
                function_score: {
                  query: q,
                  min_score: 0,
                  functions: [{ filter: { term: { sku: `s${d}` } }, weight: 2 }],
                },
              },
            ],
          },
        }
      return { body: { query: q }, overLimit: n >= 100 }
    case 'fs-chain':
      for (let d = 0; d < n; d++)
        q = { function_score: { query: q, functions: [{ filter: { term: { color: d } }, weight: 1.5 }] } }
      return { body: { query: q }, overLimit: n >= 100 }
    case 'bool-chain':
      for (let d = 0; d < n; d++) q = { bool: { must: [q], should: [{ term: { sku: `b${d}` } }] } }
      return { body: { query: q }, overLimit: n >= 100 }
    case 'cs-chain':
      for (let d = 0; d < n; d++) q = { constant_score: { filter: q } }
      return { body: { query: q }, overLimit: n >= 100 }
    case 'deep-must-and-should':
      // The same subtree under must AND should at every level (doubles the body; capped at 2^12).
      for (let d = 0; d < Math.min(n, 12); d++) q = { bool: { must: [q], should: [q] } }
      return { body: { query: q }, overLimit: false }
    case 'should-wide':
      return {
        body: {
          query: {
            bool: {
              should: Array.from({ length: n }, (_, i) => ({ term: { sku: `w${i}` } })),
              minimum_should_match: Math.max(1, Math.floor(n / 2)),
            },
          },
        },
        overLimit: n >= 5000,
      }
    case 'terms-huge':
      return {
        body: {
          query: { bool: { filter: [{ terms: { sku: Array.from({ length: n }, (_, i) => `t${i}`) } }] } },
        },
        overLimit: n >= 50_000,
      }
    case 'range-buckets':
      return {
        body: {
          size: 0,
          aggs: {
            price: {
              range: {
                field: 'price',
                ranges: Array.from({ length: n }, (_, i) => ({ from: i * 10, to: i * 10 + 10 })),
              },
            },
          },
        },
        overLimit: n >= 20_000,
      }
    case 'many-aggs':
      return {
        body: {
          size: 0,
          aggs: Object.fromEntries(
            Array.from({ length: n }, (_, i) => [
              `a${i}`,
              i % 3 === 0
                ? { terms: { field: FIELDS[i % FIELDS.length], size: 1000 } }
                : i % 3 === 1
                  ? { max: { field: 'price' } }
                  : { range: { field: 'final_price', ranges: [{ to: i }, { from: i }] } },
            ]),
          ),
        },
        overLimit: n >= 2000,
      }
    case 'multi-match-wide':
      return {
        body: {
          query: {
            multi_match: {
              query: 'silk saree red kurta',
              fuzziness: 'AUTO',
              fields: Array.from({ length: n }, (_, i) => `${TEXT_FIELDS[i % TEXT_FIELDS.length]}^${i + 1}`),
            },
          },
        },
        overLimit: n >= 1000,
      }
  }
}

const SHAPE_SIZES: Record<Shape, fc.Arbitrary<number>> = {
  alternating: fc.oneof(fc.integer({ min: 1, max: 16 }), fc.integer({ min: 17, max: 160 })),
  'fs-chain': fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 41, max: 400 })),
  'bool-chain': fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 41, max: 400 })),
  'cs-chain': fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 41, max: 2000 })),
  'deep-must-and-should': fc.integer({ min: 1, max: 12 }),
  'should-wide': fc.oneof(fc.integer({ min: 2, max: 200 }), fc.integer({ min: 201, max: 8000 })),
  'terms-huge': fc.oneof(fc.integer({ min: 1, max: 2000 }), fc.integer({ min: 2001, max: 60_000 })),
  'range-buckets': fc.oneof(fc.integer({ min: 1, max: 1200 }), fc.integer({ min: 1201, max: 25_000 })),
  'many-aggs': fc.oneof(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 401, max: 2500 })),
  'multi-match-wide': fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 41, max: 1200 })),
}

const ENTITY_TYPES = ['product', 'category', 'attribute', 'taxrule', 'review', 'cms_block', 'cms_page']

const searchParams = fc.record({
  size: fc.oneof(
    { weight: 4, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constantFrom(0, 1, 24, 4000, 4001, -1, 1e308, '1e3', '0x10', 'NaN', '24.5') },
  ),
  from: fc.oneof(
    { weight: 4, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constantFrom(0, 9999, 10_000, -5, 1e308, '1e2', 'Infinity') },
  ),
  sort: fc.oneof(
    { weight: 4, arbitrary: fc.constant(undefined) },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 1, max: 400 })
        .map((n) =>
          Array.from({ length: n }, (_, i) => `${FIELDS[i % FIELDS.length]}:${i % 2 ? 'asc' : 'desc'}`).join(
            ',',
          ),
        ),
    },
  ),
})

export function searchRequest(
  entity: string,
  body: Record<string, unknown>,
  viaGet: boolean,
  params: { size?: unknown; from?: unknown; sort?: unknown },
  extra: Record<string, string> = {},
): AttackRequest {
  const qs = new URLSearchParams()
  for (const [k, v] of Object.entries(params)) if (v !== undefined) qs.append(k, String(v))
  for (const [k, v] of Object.entries(extra)) qs.append(k, v)
  const text = json(body)
  // A GET carries the DSL in ?request= (URL length stays sane: big bodies go by POST).
  const get = viaGet && text.length < 6000
  if (get) qs.append('request', text)
  const q = qs.toString()
  return {
    endpoint: 'catalog/search',
    method: get ? 'GET' : 'POST',
    path: `${CATALOG}/${entity}/_search${q ? `?${q}` : ''}`,
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': '203.0.113.50' },
    body: get ? undefined : text,
    repeat: 1,
  }
}

/** A clause every engine accepts. */
const CLEAN_LEAF = { term: { sku: 'x' } }

/** Longest URL sent: Cloudflare refuses longer ones before the worker sees them. */
export const MAX_URL_LENGTH = 16_000

function staticCase(
  cls: AttackClass,
  kind: string,
  label: string,
  request: AttackRequest,
  expect: AttackPlan['expect'] = 'any',
  namesLimit = false,
): AttackCase {
  return { cls, kind, label, plan: async () => ({ request, expect, namesLimit }) }
}

const searchCase: fc.Arbitrary<AttackCase> = fc.oneof(
  // The attack shapes, sized up to and beyond any sensible limit.
  {
    weight: 5,
    arbitrary: fc
      .constantFrom(...(Object.keys(SHAPE_SIZES) as Shape[]))
      .chain((shape) =>
        fc.record({
          shape: fc.constant(shape),
          n: SHAPE_SIZES[shape],
          leaf: leafClause,
          viaGet: fc.boolean(),
          params: searchParams,
        }),
      )
      .map(({ shape, n, leaf, viaGet, params }) => {
        const over = shapeQuery(shape, n, CLEAN_LEAF).overLimit
        // Over a limit, the limit is the only thing wrong with the request (a valid leaf, no odd
        // parameters), so the refusal has to be about it.
        const { body, overLimit } = shapeQuery(shape, n, over ? CLEAN_LEAF : leaf)
        return staticCase(
          'search',
          overLimit ? `${shape} over any sensible limit` : shape,
          `${shape} n=${n}${overLimit ? ' (over any sensible limit)' : ''}`,
          searchRequest('product', body, viaGet, overLimit ? {} : params),
          overLimit ? 'reject' : 'any',
          overLimit,
        )
      }),
  },
  // Random clause trees with edge values, on any entity type, with aggregations and min_score.
  {
    weight: 4,
    arbitrary: fc
      .record({
        query: dslTree,
        entity: fc.oneof(
          { weight: 4, arbitrary: fc.constant('product') },
          { weight: 2, arbitrary: fc.constantFrom(...ENTITY_TYPES) },
        ),
        aggs: fc.option(
          fc.dictionary(
            fc.string({ minLength: 1, maxLength: 8 }).map((s) => s.replace(/[^A-Za-z0-9_]/g, 'a')),
            fc.oneof(
              field.map((f) => ({ terms: { field: f, size: 10 } })),
              fc
                .record({ f: field, n: fc.integer({ min: 0, max: 50 }), lo: edgeScalar })
                .map(({ f, n, lo }) => ({
                  range: {
                    field: f,
                    ranges: Array.from({ length: n }, (_, i) => ({ from: i === 0 ? lo : i, to: i + 1 })),
                  },
                })),
              field.map((f) => ({ min: { field: f } })),
            ),
            { maxKeys: 6 },
          ),
          { nil: undefined },
        ),
        minScore: fc.option(edgeScalar, { nil: undefined }),
        viaGet: fc.boolean(),
        params: searchParams,
      })
      .map(({ query, entity, aggs, minScore, viaGet, params }) => {
        const body: Record<string, unknown> = { query }
        if (aggs) body.aggs = aggs
        if (minScore !== undefined) body.min_score = minScore
        return staticCase(
          'search',
          'random DSL tree',
          `random DSL tree on ${entity}`,
          searchRequest(entity, body, viaGet, params),
        )
      }),
  },
  // The search-query request format with huge filter lists.
  {
    weight: 1,
    arbitrary: fc.record({ n: fc.integer({ min: 1, max: 20_000 }), text: searchText }).map(({ n, text }) => {
      const sq = {
        _availableFilters: Array.from({ length: Math.min(n, 3000) }, (_, i) => ({
          field: FIELDS[i % FIELDS.length],
          scope: 'catalog',
          options: {},
        })),
        _appliedFilters: Array.from({ length: n }, (_, i) => ({
          attribute: FIELDS[i % FIELDS.length],
          value: i % 2 ? { in: [i, `${i}`] } : { gte: i, lte: 1e308 },
          scope: 'default',
        })),
        _appliedSort: [],
        _searchText: text,
      }
      const r = searchRequest('product', sq, false, {})
      return staticCase('search', 'search-query format', `search-query format, ${n} applied filters`, {
        ...r,
        path: `${CATALOG}/product/_search?request_format=search-query&response_format=compact`,
      })
    }),
  },
  // Category pages with pathological filter parameters (the listing builds a search from them).
  {
    weight: 1,
    arbitrary: fc
      .record({
        values: fc.integer({ min: 1, max: 3000 }),
        params: fc.integer({ min: 1, max: 60 }),
        page: fc.constantFrom('1', '2', '1e308', '-1', '0x10', '99999999'),
        sort: fc.constantFrom('price-asc', 'newest', 'x'.repeat(500), '__proto__'),
        slot: fc.nat(10),
      })
      .map(({ values, params, page, sort, slot }): AttackCase => {
        const qs = new URLSearchParams()
        const names = ['color', 'size', 'price', 'designer', 'rts', 'gender', 'discount', 'category_product']
        for (let i = 0; i < params; i++) {
          const name = names[i % names.length] as string
          qs.append(
            name,
            name === 'price'
              ? Array.from({ length: Math.min(values, 500) }, (_, k) => `${k}-${k + 1}`).join(',')
              : Array.from({ length: values }, (_, k) => String(k)).join(','),
          )
        }
        qs.append('sort', sort)
        qs.append('page', page)
        return {
          cls: 'search',
          kind: 'category page filters',
          label: `category page with ${params} filter params × ${values} values`,
          plan: async (ctx) => {
            const slug =
              ctx.world.categorySlugs[slot % Math.max(1, ctx.world.categorySlugs.length)] ?? 'women'
            return {
              request: {
                endpoint: 'page',
                method: 'GET',
                path: `/c/${slug}?${qs.toString()}`.slice(0, MAX_URL_LENGTH),
                headers: { accept: 'text/html', 'cf-connecting-ip': '203.0.113.51' },
                repeat: 1,
              },
              expect: 'any',
            }
          },
        }
      }),
  },
)

// ---------------------------------------------------------------------------------------------
// glob: _source patterns

const globPattern: fc.Arbitrary<string> = fc.oneof(
  // Many wildcards then a literal: the catastrophic-backtracking shape.
  fc
    .record({ stars: fc.integer({ min: 1, max: 60 }), lit: fc.constantFrom('x', 'zq', 'sku', 'a.b', '') })
    .map(({ stars, lit }) => `${'*'.repeat(stars)}${lit}`),
  fc
    .record({ n: fc.integer({ min: 1, max: 40 }), lit: fc.constantFrom('a', 'e', '_', '.') })
    .map(({ n, lit }) => `${`${lit}*`.repeat(n)}qq`),
  fc.integer({ min: 1, max: 30 }).map((n) => `${'*.'.repeat(n)}sku`),
  fc.integer({ min: 1, max: 30 }).map((n) => `configurable_children${'.*'.repeat(n)}`),
  fc.integer({ min: 1, max: 30 }).map((n) => '?'.repeat(n)),
  fc.constantFrom('(a+)+$', '.*.*.*x', '[a-z]*', 'a{1,99999}', '\\', '^sku$', 'sku|name', '*?*?*?x', '(?=x)'),
  fc.array(unicodeJunk, { minLength: 1, maxLength: 10 }).map((a) => `*${a.join('*')}*x`),
  fc.integer({ min: 190, max: 6000 }).map((n) => 'a'.repeat(n)),
  fc.integer({ min: 100, max: 3000 }).map((n) => `${'*'.repeat(n)}x`),
  fc.constantFrom('sku', 'name', 'configurable_children.sku', 'price', '*', '*.sku', 'media_gallery.*'),
)

const globCase: fc.Arbitrary<AttackCase> = fc
  .record({
    include: fc.array(globPattern, { maxLength: 4 }),
    exclude: fc.array(globPattern, { maxLength: 3 }),
    many: fc.option(fc.integer({ min: 201, max: 3000 }), { nil: undefined }),
    alias: fc.constantFrom('_source_include', '_sourceInclude', '_source_includes'),
    viaBody: fc.boolean(),
    size: fc.constantFrom(undefined, 1, 24, 100),
    entity: fc.oneof(
      { weight: 5, arbitrary: fc.constant('product') },
      { weight: 1, arbitrary: fc.constantFrom(...ENTITY_TYPES) },
    ),
  })
  .map(({ include, exclude, many, alias, viaBody, size, entity }) => {
    let inc = many ? Array.from({ length: many }, (_, i) => `${'*'.repeat(1 + (i % 5))}f${i}`) : include
    let exc = exclude
    const plain = (p: string) => /^[A-Za-z0-9_.*]+$/.test(p)
    const tooLong = (p: string) => plain(p) && p.length >= 1000
    const overLimit =
      inc.filter(plain).length + exc.filter(plain).length >= 1000 || [...inc, ...exc].some(tooLong)
    // Over a limit, only well-formed patterns are sent, so the refusal has to be about the limit.
    if (overLimit) {
      inc = inc.filter(plain)
      exc = exc.filter(plain)
    }
    const longest = Math.max(0, ...inc.map((p) => p.length), ...exc.map((p) => p.length))
    const query = new URLSearchParams({ q: [...inc, ...exc].join(',') }).toString()
    // Lists too long for a URL travel in the body's _source.
    const inBody = viaBody || query.length > MAX_URL_LENGTH - 500
    const extra: Record<string, string> = {}
    const body: Record<string, unknown> = { query: { match_all: {} } }
    if (inBody) body._source = { includes: inc, excludes: exc }
    else {
      if (inc.length) extra[alias] = inc.join(',')
      if (exc.length) extra._source_exclude = exc.join(',')
    }
    return staticCase(
      'glob',
      overLimit
        ? 'patterns over any sensible limit'
        : inBody
          ? 'patterns in the body'
          : 'patterns in the query',
      `${inc.length} include / ${exc.length} exclude patterns, longest ${longest}${inBody ? ' (in the body)' : ''}${overLimit ? ' (over any sensible limit)' : ''}`,
      searchRequest(entity, body, false, { size }, extra),
      overLimit ? 'reject' : 'any',
      overLimit,
    )
  })

// ---------------------------------------------------------------------------------------------
// body: pathological JSON bodies on every POST endpoint

interface PostTarget {
  name: string
  path: string
  /** A valid body for this world; `order` is a fresh client order id. */
  body: (w: AttackWorld, order: string) => unknown
  /** Sent with the attacker's access token. */
  auth?: boolean
  /** Needs a fresh guest cart (`?cartId=` is appended). */
  cart?: boolean
}

const POST_TARGETS: PostTarget[] = [
  {
    name: 'user/create',
    path: '/api/user/create',
    body: (_w, order) => ({
      customer: { email: `b${order.replace(/[^a-z0-9]/gi, '')}@example.com`, firstname: 'F', lastname: 'Z' },
      password: 'Secret123',
    }),
  },
  {
    name: 'user/login',
    path: '/api/user/login',
    body: (w) => ({ username: w.attacker.email, password: 'Wrong123' }),
  },
  {
    name: 'user/social-login',
    path: '/api/user/social-login',
    body: () => ({ email: 'a@example.com', fname: 'A', lname: 'B', token: 'x.y.z', provider: 'google' }),
  },
  { name: 'user/refresh', path: '/api/user/refresh', body: () => ({ refreshToken: 'not-a-token' }) },
  {
    name: 'user/reset-password',
    path: '/api/user/reset-password',
    body: () => ({ email: 'nobody@example.com' }),
  },
  {
    name: 'user/create-password',
    path: '/api/user/create-password',
    body: (w) => ({ email: w.attacker.email, newPassword: 'Secret123', resetToken: 'abc' }),
  },
  {
    name: 'user/change-password',
    path: '/api/user/change-password',
    auth: true,
    body: () => ({ currentPassword: 'wrong-one', newPassword: 'Secret999' }),
  },
  {
    name: 'user/me POST',
    path: '/api/user/me',
    auth: true,
    body: (w) => ({
      customer: { email: w.attacker.email, firstname: 'Mallory', lastname: 'Attacker', addresses: [ADDRESS] },
    }),
  },
  { name: 'cart/create', path: '/api/cart/create', body: () => ({}) },
  {
    name: 'cart/update',
    path: '/api/cart/update',
    cart: true,
    body: (w) => ({ cartItem: { sku: w.sellable[0], qty: 1 } }),
  },
  {
    name: 'cart/delete',
    path: '/api/cart/delete',
    cart: true,
    body: (w) => ({ cartItem: { sku: w.sellable[0], item_id: 1 } }),
  },
  {
    name: 'cart/shipping-methods',
    path: '/api/cart/shipping-methods',
    cart: true,
    body: () => ({ address: { country_id: 'IN' } }),
  },
  {
    name: 'cart/shipping-information',
    path: '/api/cart/shipping-information',
    cart: true,
    body: () => shippingInformation(ADDRESS),
  },
  {
    name: 'cart/collect-totals',
    path: '/api/cart/collect-totals',
    cart: true,
    body: () => ({ methods: { paymentMethod: { method: 'cashondelivery' } } }),
  },
  { name: 'cart/pull', path: '/api/cart/pull', cart: true, body: () => ({}) },
  {
    name: 'order',
    path: '/api/order',
    body: (w, order) => orderBody(order, [{ sku: w.sellable[1], qty: 1, price: 1 }]),
  },
  {
    name: 'giftcard/store-credit-spending',
    path: '/api/giftcard/store-credit-spending',
    auth: true,
    body: () => ({ amount: 1, order_id: 'x' }),
  },
  {
    name: 'review/create',
    path: '/api/review/create',
    body: (w) => ({
      review: {
        product_id: w.pools.productIds[0],
        title: 'T',
        detail: 'D',
        nickname: 'N',
        review_entity: 'product',
      },
    }),
  },
  {
    name: 'newsletter',
    path: '/api/ext/mailchimp-subscribe/subscribe',
    body: () => ({ email: 'n@example.com' }),
  },
  {
    name: 'mail/send-email',
    path: '/api/ext/mail-service/send-email',
    body: () => ({ ...CONTACT_MAIL }),
  },
  {
    name: 'wishlist/add',
    path: '/api/wishlist/add-wishlist',
    auth: true,
    body: (w) => ({ item_id: w.pools.productIds[1] }),
  },
  {
    name: 'wishlist/remove',
    path: '/api/wishlist/remove-wishlist',
    auth: true,
    body: (w) => ({ item_id: w.pools.productIds[1] }),
  },
  { name: 'wishlist/show', path: '/api/wishlist/show-wishlist-history', auth: true, body: () => ({}) },
  {
    name: 'fbconversion',
    path: '/api/fbconversion/callFbConversionApi',
    body: () => ({
      event_name: 'AddToCart',
      event_id: 'e-1',
      event_time: 1700000000,
      action_source: 'website',
      custom_data: { value: 1 },
    }),
  },
  {
    name: 'state/send-state',
    path: '/api/state/send-state',
    body: () => ({ id: 'cart-1', state: { items: [] } }),
  },
  { name: 'catalog/search', path: `${CATALOG}/product/_search`, body: () => ({ query: { match_all: {} } }) },
  { name: 'stock/check', path: '/api/stock/check', body: () => ({ sku: 'x' }) },
  { name: 'stock/list', path: '/api/stock/list', body: () => ({ skus: ['x'] }) },
  { name: 'product/size-guide-collection', path: '/api/product/size-guide-collection', body: () => ({}) },
  { name: 'product/search-content', path: '/api/product/search-content', body: () => ({}) },
  { name: 'misc/otw-data', path: '/api/misc/otw-data', body: () => ({}) },
  {
    name: 'url/map',
    path: '/api/url/map',
    body: () => ({ url: 'women', includeFields: null, excludeFields: [] }),
  },
]

type BodyAttack =
  | 'deep-array'
  | 'deep-object'
  | 'deep-inside'
  | 'wide-array'
  | 'wide-inside'
  | 'many-keys'
  | 'dup-keys'
  | 'proto'
  | 'wrong-type'
  | 'long-string'
  | 'edge-numbers'
  | 'unicode-keys'

/** Paths of every value in a JSON tree (the root first). */
function valuePaths(tree: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [prefix]
  if (Array.isArray(tree)) {
    for (const [i, v] of tree.entries()) out.push(...valuePaths(v, [...prefix, i]))
  } else if (tree && typeof tree === 'object')
    for (const [k, v] of Object.entries(tree)) out.push(...valuePaths(v, [...prefix, k]))
  return out
}

/** Serialises `tree` with the value at `path` replaced by raw JSON text. */
function withRawAt(tree: unknown, path: (string | number)[], raw: string): string {
  if (path.length === 0) return raw
  const [head, ...rest] = path
  if (Array.isArray(tree))
    return `[${tree.map((v, i) => (i === head ? withRawAt(v, rest, raw) : json(v))).join(',')}]`
  if (tree && typeof tree === 'object')
    return `{${Object.entries(tree)
      .map(([k, v]) => `${json(k)}:${k === head ? withRawAt(v, rest, raw) : json(v)}`)
      .join(',')}}`
  return raw
}

/** Puts `members` (raw `"k":v` text) first in the object `base` (or makes an object of them). */
function prependMembers(base: string, members: string): string {
  return base.startsWith('{') && base !== '{}' ? `{${members},${base.slice(1)}` : `{${members}}`
}

/** A long JSON string literal of about `bytes` bytes: ASCII, multi-byte, or escape-heavy. */
function longLiteral(bytes: number, kind: number): string {
  switch (kind % 4) {
    case 0:
      return `"${'x'.repeat(bytes - 2)}"`
    case 1:
      return `"${'€'.repeat(Math.floor((bytes - 2) / 3))}"`
    case 2:
      return `"${'\\\\'.repeat(Math.floor((bytes - 2) / 2))}"`
    default:
      return `"${'\\u0000'.repeat(Math.floor((bytes - 2) / 6))}"`
  }
}

function renderBodyAttack(
  kind: BodyAttack,
  template: unknown,
  pathIndex: number,
  size: number,
  variant: number,
): string {
  const paths = valuePaths(template)
  const path = paths[pathIndex % paths.length] ?? []
  const base = json(template)
  switch (kind) {
    case 'deep-array':
      return `${'['.repeat(size)}${base}${']'.repeat(size)}`
    case 'deep-object':
      return `${'{"a":'.repeat(size)}${base}${'}'.repeat(size)}`
    case 'deep-inside':
      return withRawAt(template, path, `${'[{"x":'.repeat(size)}1${'}]'.repeat(size)}`)
    case 'wide-array':
      return `[${Array.from({ length: size }, () => base).join(',')}]`
    case 'wide-inside': {
      const element = ['1', '"x"', '{"sku":"x","qty":1}', '[]', 'null'][variant % 5] as string
      return withRawAt(template, path, `[${Array.from({ length: size }, () => element).join(',')}]`)
    }
    case 'many-keys':
      return prependMembers(base, Array.from({ length: size }, (_, i) => `"k${i}":${i}`).join(','))
    case 'dup-keys':
      // The same keys many times with conflicting values (JSON.parse keeps the last one).
      return prependMembers(
        base,
        Array.from(
          { length: size },
          (_, i) => `"qty":${i % 2 ? '"0x10"' : '1'},"sku":"dup${i}","__proto__":{"admin":true}`,
        ).join(','),
      )
    case 'proto': {
      const payloads = [
        '{"__proto__":{"isAdmin":true,"polluted":1,"code":200}}',
        '{"constructor":{"prototype":{"polluted":1}}}',
        '{"__proto__":[1,2,3]}',
        '{"prototype":null,"toString":"x","valueOf":1,"hasOwnProperty":"y"}',
        '{"__proto__":{"__proto__":{"polluted":1}}}',
      ]
      return prependMembers(
        withRawAt(template, path, payloads[variant % payloads.length] as string),
        '"__proto__":{"polluted":1}',
      )
    }
    case 'wrong-type': {
      const wrong = ['[]', '{}', '"string"', '0', 'true', 'null', '[[[]]]', '{"":{}}', '"1"', '-1']
      return withRawAt(template, path, wrong[variant % wrong.length] as string)
    }
    case 'long-string': {
      const sizes = [
        BODY_LIMIT_GUESS - 1024,
        BODY_LIMIT_GUESS - 1,
        BODY_LIMIT_GUESS,
        BODY_LIMIT_GUESS + 1,
        2 * BODY_LIMIT_GUESS,
        4 * BODY_LIMIT_GUESS,
      ]
      return withRawAt(template, path, longLiteral(sizes[size % sizes.length] as number, variant))
    }
    case 'edge-numbers': {
      const lit = EDGE_NUMBER_LITERALS[variant % EDGE_NUMBER_LITERALS.length] as string
      return base.replace(/(?<=[:,[])-?\d+(\.\d+)?([eE][+-]?\d+)?(?=[,}\]])/g, lit)
    }
    case 'unicode-keys': {
      const keys = ['\u0000', '\uD800', '\u202E', '🧨', 'sku\u0000', ' sku', 'SKU', 'sku ', 'ｓｋｕ']
      return withRawAt(template, path, `{${keys.map((k, i) => `${json(k)}:${i}`).join(',')}}`)
    }
  }
}

const BODY_SIZES: Record<BodyAttack, fc.Arbitrary<number>> = {
  'deep-array': fc.constantFrom(100, 1000, 10_000, 100_000, 500_000),
  'deep-object': fc.constantFrom(100, 1000, 10_000, 100_000),
  'deep-inside': fc.constantFrom(50, 1000, 20_000, 100_000),
  'wide-array': fc.constantFrom(10, 1000, 4000),
  'wide-inside': fc.constantFrom(101, 1000, 100_000, 200_000),
  'many-keys': fc.constantFrom(100, 10_000, 100_000),
  'dup-keys': fc.constantFrom(2, 100, 10_000, 40_000),
  proto: fc.constant(1),
  'wrong-type': fc.constant(1),
  'long-string': fc.nat(5),
  'edge-numbers': fc.constant(1),
  'unicode-keys': fc.constant(1),
}

const CONTENT_TYPES = [
  'application/json',
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  '',
]

const bodyCase: fc.Arbitrary<AttackCase> = fc
  .constantFrom(...(Object.keys(BODY_SIZES) as BodyAttack[]))
  .chain((kind) =>
    fc.record({
      kind: fc.constant(kind),
      target: fc.constantFrom(...POST_TARGETS),
      size: BODY_SIZES[kind],
      pathIndex: fc.nat(60),
      variant: fc.nat(20),
      contentType: fc.constantFrom(...CONTENT_TYPES),
    }),
  )
  .map(
    ({ kind, target, size, pathIndex, variant, contentType }): AttackCase => ({
      cls: 'body',
      kind,
      label: `${kind} (${size}) on ${target.name}`,
      plan: async (ctx) => {
        const w = ctx.world
        const order = freshOrderId('body')
        const cart = target.cart ? await newGuestCart(ctx.send) : ''
        return {
          request: {
            endpoint: target.name,
            method: 'POST',
            path: cart ? `${target.path}?cartId=${cart}` : target.path,
            headers: {
              ...(contentType ? { 'content-type': contentType } : {}),
              ...(target.auth ? { authorization: `Bearer ${w.attacker.token}` } : {}),
              'cf-connecting-ip': `203.0.113.${60 + (variant % 20)}`,
            },
            body: renderBodyAttack(kind, target.body(w, order), pathIndex, size, variant),
            repeat: 1,
          },
          expect: 'any',
        }
      },
    }),
  )

// ---------------------------------------------------------------------------------------------
// quantity: decimal integers only

function isDecimalQuantity(q: unknown): boolean {
  if (typeof q === 'number') return Number.isInteger(q) && q >= 1 && q <= 10_000 && !Object.is(q, -0)
  return typeof q === 'string' && /^\d+$/.test(q) && Number(q) >= 1 && Number(q) <= 10_000
}

async function guestCartLines(db: SqlLike, cart: string) {
  return rows<{ item_id: number; qty: number }>(
    db,
    'SELECT i.item_id, i.qty FROM cart_items i JOIN carts c ON c.id = i.cart_id WHERE c.guest_token = ? ORDER BY i.item_id',
    cart,
  )
}

const quantityCase: fc.Arbitrary<AttackCase> = fc
  .record({
    target: fc.constantFrom('cart' as const, 'cart' as const, 'order' as const, 'cart-item' as const),
    qty: fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom(...BAD_QUANTITIES) },
      { weight: 1, arbitrary: fc.constantFrom<unknown>('3', 2, '12') },
    ),
    skuIndex: fc.nat(5),
  })
  .map(({ target, qty, skuIndex }): AttackCase => {
    const good = isDecimalQuantity(qty)
    const qtyText = json(qty) ?? 'null'
    return {
      cls: 'quantity',
      kind: good ? `${target} (decimal)` : target,
      label: `${target} qty ${qtyText}`,
      plan: async (ctx) => {
        const sku = ctx.world.sellable[skuIndex % ctx.world.sellable.length] as string
        const headers = { 'content-type': 'application/json', 'cf-connecting-ip': '203.0.113.80' }
        if (target === 'order') {
          const order = freshOrderId('qty')
          return {
            request: orderPost(headers, json(orderBody(order, [{ sku, qty, price: 1 }]))),
            expect: good ? 'accept' : 'reject',
            verify: async (_a, c) => {
              const stored = await rows<{ qty: number }>(
                c.db,
                'SELECT qty FROM order_items WHERE client_order_id = ?',
                order,
              )
              if (!good && stored.length)
                return `an order with quantity ${qtyText} was stored (qty ${stored[0]?.qty})`
              if (good && stored[0]?.qty !== Number(qty))
                return `order stored qty ${stored[0]?.qty}, sent ${qtyText}`
              return null
            },
          }
        }
        const cart = await newGuestCart(ctx.send)
        let item = ''
        if (target === 'cart-item') {
          // Changing the quantity of an existing line by its item id.
          await call(ctx.send, 'POST', `/api/cart/update?cartId=${cart}`, {
            cartItem: { sku, qty: 1, quoteId: cart },
          })
          item = `,"item_id":${(await guestCartLines(ctx.db, cart))[0]?.item_id ?? 1}`
        }
        return {
          request: cartUpdatePost(
            cart,
            headers,
            `{"cartItem":{"sku":${json(sku)},"qty":${qtyText},"quoteId":${json(cart)}${item}}}`,
          ),
          expect: good ? 'accept' : 'reject',
          verify: async (_a, c) => {
            const expected = good ? Number(qty) : target === 'cart-item' ? 1 : undefined
            const actual = (await guestCartLines(c.db, cart))[0]?.qty
            if (actual !== expected)
              return `cart line qty is ${actual ?? 'absent'} after sending ${qtyText} (expected ${expected ?? 'no line'})`
            return null
          },
        }
      },
    }
  })

// ---------------------------------------------------------------------------------------------
// bundle: client-set option quantities and foreign ids

const OPTION_QTYS: unknown[] = [
  0,
  -1,
  0.0001,
  1e-9,
  0.5,
  1.5,
  2,
  100,
  1e308,
  '0x10',
  '1e-3',
  'NaN',
  'Infinity',
  '',
  null,
  '2',
  -0,
]

type BundleKind = 'honest' | 'qty' | 'unknown-selection' | 'foreign-selection' | 'unknown-option' | 'grouped'

interface BundleLine {
  sku: string
  option?: unknown
  /** Reference key (refUnit / refOrderTotal). */
  key: string
  /** Foreign or unknown ids: must be refused. */
  mustReject: boolean
  honest: boolean
}

function bundleLine(
  w: AttackWorld,
  kind: BundleKind,
  index: number,
  linkChoice: number[],
  qty: unknown,
  optionIndex: number,
): BundleLine {
  if (kind === 'grouped' || w.bundles.length === 0) {
    const g = w.grouped[index % Math.max(1, w.grouped.length)]
    // A grouped product with a client-made bundle selection: it must not change the price.
    return {
      sku: g?.sku ?? 'none',
      option: {
        extension_attributes: { bundle_options: [{ option_id: 1, option_qty: qty, option_selections: [1] }] },
      },
      key: g?.sku ?? 'none',
      mustReject: false,
      honest: false,
    }
  }
  const b = w.bundles[index % w.bundles.length] as BundleInfo
  const ids = b.options.map((o, i) => o.links[(linkChoice[i] ?? 0) % o.links.length]?.id ?? 0)
  const other = w.bundles.find((x) => x.sku !== b.sku)
  const target = optionIndex % b.options.length
  const entries = b.options.map((o, i) => {
    const link = o.links.find((l) => l.id === ids[i])
    const entry: Record<string, unknown> = {
      option_id: o.option_id,
      option_qty: link?.qty ?? 1,
      option_selections: [ids[i]],
    }
    if (i === target) {
      if (kind === 'qty') entry.option_qty = qty
      if (kind === 'unknown-selection') entry.option_selections = [987_654_321]
      if (kind === 'foreign-selection') entry.option_selections = [other?.options[0]?.links[0]?.id ?? 123]
      if (kind === 'unknown-option') entry.option_id = 9_876_543
    }
    return entry
  })
  return {
    sku: b.sku,
    option: { extension_attributes: { bundle_options: entries } },
    key: bundleKey(b.sku, ids),
    mustReject: kind === 'unknown-selection' || kind === 'foreign-selection' || kind === 'unknown-option',
    honest: kind === 'honest',
  }
}

const bundleCase: fc.Arbitrary<AttackCase> = fc
  .record({
    target: fc.constantFrom('cart' as const, 'cart' as const, 'order' as const),
    kind: fc.constantFrom<BundleKind>(
      'honest',
      'qty',
      'qty',
      'unknown-selection',
      'foreign-selection',
      'unknown-option',
      'grouped',
    ),
    index: fc.nat(10),
    linkChoice: fc.array(fc.nat(3), { minLength: 4, maxLength: 4 }),
    qty: fc.constantFrom(...OPTION_QTYS),
    optionIndex: fc.nat(3),
  })
  .map(
    ({ target, kind, index, linkChoice, qty, optionIndex }): AttackCase => ({
      cls: 'bundle',
      kind: `${target} ${kind}`,
      label: `${target} ${kind}${kind === 'qty' || kind === 'grouped' ? ` option_qty ${json(qty) ?? 'null'}` : ''}`,
      plan: async (ctx) => {
        const line = bundleLine(ctx.world, kind, index, linkChoice, qty, optionIndex)
        const headers = { 'content-type': 'application/json', 'cf-connecting-ip': '203.0.113.90' }
        const product = { sku: line.sku, qty: 1, ...(line.option ? { product_option: line.option } : {}) }
        if (target === 'order') {
          const order = freshOrderId('bundle')
          return {
            // The client's price claims nothing: the server prices from the catalogue.
            request: orderPost(headers, json(orderBody(order, [{ ...product, price: 0.01 }]))),
            expect: line.mustReject ? 'reject' : line.honest ? 'accept' : 'any',
            verify: async (a, c) => {
              if (a.status < 200 || a.status >= 300) return null
              const stored = await rows<{ grand_total: number }>(
                c.db,
                'SELECT grand_total FROM orders WHERE client_order_id = ?',
                order,
              )
              const total = stored[0]?.grand_total
              const ref = c.world.refOrderTotal.get(line.key)
              if (total === undefined) return 'the order answered 2xx but is not stored'
              if (ref === undefined)
                return `no honest reference order for ${line.key} (it answered ${c.world.refOrderFailures.get(line.key) ?? '?'})`
              if (total < ref * 0.995) return `order grand total ${total} is below the honest order's ${ref}`
              return null
            },
          }
        }
        const cart = await newGuestCart(ctx.send)
        return {
          request: cartUpdatePost(cart, headers, json({ cartItem: { ...product, quoteId: cart } })),
          expect: line.mustReject ? 'reject' : line.honest ? 'accept' : 'any',
          verify: async (a, c) => {
            if (a.status < 200 || a.status >= 300) return null
            const ref = c.world.refUnit.get(line.key)
            const unit = await cartUnitPrice(c.send, cart, line.sku)
            if (unit === null) return 'the line was accepted but is absent from the totals'
            if (ref === undefined) return `no honest reference price for ${line.key}`
            if (unit < ref * 0.995) return `line priced ${unit}, below the catalogue's ${ref}`
            if (line.honest && Math.abs(unit - ref) > ref * 0.005)
              return `honest line priced ${unit}, reference ${ref}`
            return null
          },
        }
      },
    }),
  )

// ---------------------------------------------------------------------------------------------
// replay: another shopper's ids

type ReplayKind =
  | 'order-replay'
  | 'order-replay-self'
  | 'order-get'
  | 'cart-replay'
  | 'item-replay'
  | 'history'
type Caller = 'guest' | 'attacker' | 'garbage'

const CART_ENDPOINTS: [string, 'GET' | 'POST'][] = [
  ['pull', 'GET'],
  ['update', 'POST'],
  ['delete', 'POST'],
  ['totals', 'GET'],
  ['payment-methods', 'GET'],
  ['shipping-methods', 'POST'],
  ['shipping-information', 'POST'],
  ['collect-totals', 'POST'],
  ['apply-coupon', 'POST'],
  ['delete-coupon', 'POST'],
  ['coupon', 'GET'],
]

async function victimUnchanged(ctx: AttackContext): Promise<string | null> {
  const now = await victimSnapshot(ctx.db, ctx.world)
  if (now.orders !== ctx.world.snapshot.orders) return "the victim's orders changed"
  if (now.cart !== ctx.world.snapshot.cart) return "the victim's cart changed"
  return null
}

function replayPlan(
  w: AttackWorld,
  kind: ReplayKind,
  which: 'guestOrder' | 'customerOrder',
  caller: Caller,
  idForm: number,
  keyForm: number,
  cartEndpoint: [string, 'GET' | 'POST'],
  variant: number,
  attackerCart: string,
): AttackPlan {
  const victim = w.victim[which]
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'cf-connecting-ip': '203.0.113.100',
  }
  if (caller === 'attacker') headers.authorization = `Bearer ${w.attacker.token}`
  if (caller === 'garbage') headers.authorization = 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.'
  const secrets = w.victim.secrets
  const plan = (
    endpoint: string,
    method: string,
    path: string,
    body: unknown,
    expect: AttackPlan['expect'],
  ): AttackPlan => ({
    request: {
      endpoint,
      method,
      path,
      headers,
      body: body === undefined ? undefined : typeof body === 'string' ? body : json(body),
      repeat: 1,
    },
    expect,
    secrets,
    verify: (_a, ctx) => victimUnchanged(ctx),
  })
  switch (kind) {
    case 'order-replay': {
      // A valid order of the attacker's own under the victim's order id: refused, nothing shown.
      const products = [{ sku: w.sellable[variant % w.sellable.length], qty: 1, price: 1 }]
      const bodies = [
        orderBody(victim.orderId, products, { ...ADDRESS, email: w.attacker.email }),
        orderBody(victim.orderId, products),
        {
          ...(JSON.parse(victim.body) as object),
          addressInformation: orderBody('', products).addressInformation,
        },
        { ...orderBody(victim.orderId, products), user_id: w.victim.customerId },
        orderBody(` ${victim.orderId} `, products),
      ]
      return plan('order', 'POST', '/api/order', bodies[variant % bodies.length], 'reject')
    }
    case 'order-replay-self': {
      // The owner re-sends the exact body after a lost answer: their own result, once. One owner
      // re-sends once, so each replay comes from an address of its own (from one address, the
      // sixth placement in a minute meets the burst limit's 429, replay or not).
      const own: Record<string, string> = {
        'content-type': 'application/json',
        'cf-connecting-ip': setupIp(),
      }
      if (which === 'customerOrder') own.authorization = `Bearer ${w.victim.token}`
      return {
        request: {
          endpoint: 'order',
          method: 'POST',
          path: '/api/order',
          headers: own,
          body: victim.body,
          repeat: 1,
        },
        expect: 'accept',
        verify: async (a, ctx) => {
          let number: unknown
          try {
            number = (JSON.parse(a.text) as { result?: { orderNumber?: unknown } }).result?.orderNumber
          } catch {}
          if (number !== victim.orderNumber)
            return `the owner's replay answered order ${String(number)}, not their own ${victim.orderNumber}`
          return victimUnchanged(ctx)
        },
      }
    }
    case 'order-get': {
      const ids = [
        victim.orderId,
        victim.orderNumber,
        victim.entityId,
        ` ${victim.orderId} `,
        victim.orderId.toUpperCase(),
      ]
      const keys = [undefined, 'x'.repeat(64), w.attacker.accessKey, victim.accessKey.slice(0, -1), '']
      const qs = new URLSearchParams({ orderId: ids[idForm % ids.length] as string })
      const key = keys[keyForm % keys.length]
      if (key !== undefined) {
        qs.set('accessKey', key)
        headers['x-order-access-key'] = key
      }
      return plan('order/get', 'GET', `/api/order/get?${qs.toString()}`, undefined, 'reject')
    }
    case 'cart-replay': {
      const [name, method] = cartEndpoint
      const bodies: Record<string, unknown> = {
        update: { cartItem: { sku: w.sellable[4] ?? w.sellable[0], qty: 3, quoteId: w.victim.cartId } },
        delete: { cartItem: { item_id: w.victim.itemIds[0], quoteId: w.victim.cartId } },
        'shipping-methods': { address: { country_id: 'IN' } },
        'shipping-information': { addressInformation: { shippingAddress: ADDRESS, billingAddress: ADDRESS } },
        'collect-totals': { methods: { paymentMethod: { method: 'cashondelivery' } } },
      }
      const coupon = name === 'apply-coupon' ? '&coupon=WELCOME10' : ''
      return plan(
        `cart/${name}`,
        method,
        `/api/cart/${name}?cartId=${w.victim.cartId}${coupon}`,
        method === 'POST' ? (bodies[name] ?? {}) : undefined,
        'reject',
      )
    }
    case 'item-replay': {
      // The attacker's own cart with the victim's item ids and quote id in the body.
      const item = w.victim.itemIds[variant % Math.max(1, w.victim.itemIds.length)] ?? 1
      const del = variant % 2 === 0
      return plan(
        del ? 'cart/delete' : 'cart/update',
        'POST',
        `/api/cart/${del ? 'delete' : 'update'}?cartId=${attackerCart}`,
        {
          cartItem: del
            ? { item_id: item, quoteId: w.victim.cartId }
            : { sku: w.sellable[0], qty: 5, item_id: item, quoteId: w.victim.cartId },
        },
        caller === 'garbage' ? 'reject' : 'any',
      )
    }
    case 'history': {
      const me = variant % 2 === 0
      const qs = new URLSearchParams({
        customerId: String(w.victim.customerId),
        user_id: String(w.victim.customerId),
        email: w.victim.email,
      })
      return plan(
        me ? 'user/me GET' : 'user/order-history',
        'GET',
        `/api/user/${me ? 'me' : 'order-history'}?${qs.toString()}`,
        undefined,
        caller === 'attacker' ? 'accept' : 'reject',
      )
    }
  }
}

const replayCase: fc.Arbitrary<AttackCase> = fc
  .record({
    kind: fc.constantFrom<ReplayKind>(
      'order-replay',
      'order-replay',
      'order-replay-self',
      'order-get',
      'order-get',
      'cart-replay',
      'cart-replay',
      'item-replay',
      'history',
    ),
    which: fc.constantFrom('guestOrder' as const, 'customerOrder' as const),
    caller: fc.constantFrom<Caller>('guest', 'attacker', 'garbage'),
    idForm: fc.nat(4),
    keyForm: fc.nat(4),
    cartEndpoint: fc.constantFrom(...CART_ENDPOINTS),
    variant: fc.nat(20),
  })
  .map(
    ({ kind, which, caller, idForm, keyForm, cartEndpoint, variant }): AttackCase => ({
      cls: 'replay',
      kind,
      label: `${kind} of the victim's ${which}${kind === 'cart-replay' ? ` via cart/${cartEndpoint[0]}` : ''} by ${caller === 'garbage' ? 'a forged token' : `the ${caller}`}`,
      plan: async (ctx) =>
        replayPlan(
          ctx.world,
          kind,
          which,
          caller,
          idForm,
          keyForm,
          cartEndpoint,
          variant,
          kind === 'item-replay' ? await newGuestCart(ctx.send) : '',
        ),
    }),
  )

// ---------------------------------------------------------------------------------------------
// header: spoofed routing headers

async function lastMailId(db: SqlLike): Promise<number> {
  return (await rows<{ id: number | null }>(db, 'SELECT MAX(id) AS id FROM mail_outbox'))[0]?.id ?? 0
}

const SPOOFABLE = [
  'host',
  'x-forwarded-host',
  'forwarded',
  'x-forwarded-proto',
  'x-original-url',
  'x-rewrite-url',
  'x-http-method-override',
  'x-forwarded-server',
  'x-host',
  'cf-connecting-ip',
  'cf-ipcountry',
  'true-client-ip',
  'authorization',
]

type HeaderTarget = { page: number } | { api: 'reset' | 'newsletter' | 'home-data' | 'create' }

const headerCase: fc.Arbitrary<AttackCase> = fc
  .record({
    target: fc.oneof(
      { weight: 3, arbitrary: fc.nat(20).map((i): HeaderTarget => ({ page: i })) },
      {
        weight: 1,
        arbitrary: fc.constantFrom<HeaderTarget>(
          { api: 'reset' },
          { api: 'newsletter' },
          { api: 'home-data' },
          { api: 'create' },
        ),
      },
    ),
    spoofs: fc.subarray(SPOOFABLE, { minLength: 1 }),
    n: fc.nat(1_000_000),
    accept: fc.constantFrom('text/html', '*/*', 'application/json'),
  })
  .map(
    ({ target, spoofs, n, accept }): AttackCase => ({
      cls: 'header',
      kind: `${'page' in target ? 'page' : target.api}${spoofs.includes('host') ? ' with a spoofed Host' : ''}`,
      label: `${'page' in target ? 'page' : target.api} with ${spoofs.join(', ')}`,
      plan: async (ctx) => {
        const w = ctx.world
        const evil = `evil${n}.${ATTACKER_DOMAIN}`
        const values: Record<string, string> = {
          'x-forwarded-host': evil,
          forwarded: `for=1.2.3.4;host=${evil};proto=https`,
          'x-forwarded-proto': 'javascript',
          'x-original-url': '/api/user/me',
          'x-rewrite-url': '/admin',
          'x-http-method-override': 'DELETE',
          'x-forwarded-server': evil,
          'x-host': evil,
          'cf-connecting-ip': ['::1', 'unknown', '1.1.1.1, 2.2.2.2', '999.999.999.999', 'x'.repeat(2000)][
            n % 5
          ] as string,
          'cf-ipcountry': ['XX', 'T1', '<script>', 'gb', ''][n % 5] as string,
          'true-client-ip': '127.0.0.1',
          authorization: [
            'Bearer ',
            'Bearer null',
            `Bearer ${'A'.repeat(8000)}`,
            'Basic YWRtaW46YWRtaW4=',
            'Bearer a.b.c.d',
          ][n % 5] as string,
        }
        const headers: Record<string, string> = { accept, 'cf-connecting-ip': '203.0.113.120' }
        for (const s of spoofs) if (s !== 'host') headers[s] = values[s] as string
        const host = spoofs.includes('host') ? evil : undefined
        let request: AttackRequest
        if ('page' in target) {
          const page = w.pages[target.page % w.pages.length] as string
          request = { endpoint: 'page', method: 'GET', path: page, headers, repeat: 1 }
        } else {
          const paths = {
            reset: ['user/reset-password', '/api/user/reset-password'],
            newsletter: ['newsletter', '/api/ext/mailchimp-subscribe/subscribe'],
            'home-data': ['home/data', '/api/home/data'],
            create: ['user/create', '/api/user/create'],
          } as const
          const [endpoint, path] = paths[target.api]
          headers['content-type'] = 'application/json'
          // Mails to the victim and the attacker: a link in either must not use the spoofed host.
          const body =
            target.api === 'create'
              ? json({
                  customer: { email: `h${n}-${w.tag}@example.com`, firstname: 'H', lastname: 'S' },
                  password: 'Secret123',
                })
              : target.api === 'home-data'
                ? undefined
                : json({ email: n % 2 ? w.victim.email : w.attacker.email })
          request = { endpoint, method: body ? 'POST' : 'GET', path, headers, body, repeat: 1 }
        }
        if (host) request.host = host
        const mailsBefore = await lastMailId(ctx.db)
        return {
          request,
          expect: 'any',
          secrets: [ATTACKER_DOMAIN],
          verify: async (_a, c) => {
            // The page the next shopper gets (possibly from the output cache) is clean too.
            if (request.endpoint === 'page') {
              const again = await c.send({
                endpoint: 'page',
                method: 'GET',
                path: request.path,
                headers: { accept, 'cf-connecting-ip': '203.0.113.121' },
                repeat: 1,
              })
              if (`${again.text}\n${again.headerText}`.toLowerCase().includes(ATTACKER_DOMAIN))
                return `the next shopper's ${request.path} contains the attacker's host (cache poisoned)`
            }
            const mails = await rows<{ n: number }>(
              c.db,
              'SELECT COUNT(*) AS n FROM mail_outbox WHERE id > ? AND (body LIKE ? OR subject LIKE ?)',
              mailsBefore,
              `%${ATTACKER_DOMAIN}%`,
              `%${ATTACKER_DOMAIN}%`,
            )
            if ((mails[0]?.n ?? 0) > 0)
              return `a mail it stored contains the attacker's host (${mails[0]?.n} rows)`
            return null
          },
        }
      },
    }),
  )

// ---------------------------------------------------------------------------------------------
// token: tampered tokens

function b64url(bytes: Uint8Array): string {
  let s = ''
  for (const b of bytes) s += String.fromCharCode(b)
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}
const utf8 = (s: string) => new TextEncoder().encode(s)

async function hs256(key: string, data: string): Promise<string> {
  const k = await crypto.subtle.importKey('raw', utf8(key || ' '), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ])
  return b64url(new Uint8Array(await crypto.subtle.sign('HMAC', k, utf8(data))))
}

const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'

/**
 * The same signature bytes spelled differently: a 32-byte signature is 43 characters whose last
 * one carries 4 bits; its 2 low bits are padding a lenient decoder ignores.
 */
export function reencodeLastChar(sig: string): string {
  const last = sig.at(-1) ?? 'A'
  const i = B64URL.indexOf(last)
  return `${sig.slice(0, -1)}${B64URL[(i & ~3) | ((i + 1) & 3)] ?? last}`
}

type TokenForm =
  | 'reencoded-last-char'
  | 'padded'
  | 'standard-alphabet'
  | 'alg-none'
  | 'alg-none-victim'
  | 'wrong-key'
  | 'swapped-payload'
  | 'header-reordered'
  | 'empty-signature'
  | 'refresh-as-access'
  | 'huge'
  | 'garbage'
  | 'expired-claims'

const TOKEN_FORMS: TokenForm[] = [
  'reencoded-last-char',
  'padded',
  'standard-alphabet',
  'alg-none',
  'alg-none-victim',
  'wrong-key',
  'swapped-payload',
  'header-reordered',
  'empty-signature',
  'refresh-as-access',
  'huge',
  'garbage',
  'expired-claims',
]

const TOKEN_ENDPOINTS = [
  { name: 'user/me GET', method: 'GET', path: '/api/user/me' },
  { name: 'user/order-history', method: 'GET', path: '/api/user/order-history' },
  {
    name: 'giftcard/store-credit-transaction',
    method: 'GET',
    path: '/api/giftcard/store-credit-transaction',
  },
  { name: 'cart/pull', method: 'GET', path: '/api/cart/pull?cartId={victimCart}' },
  { name: 'cart/create', method: 'POST', path: '/api/cart/create' },
  { name: 'wishlist/show', method: 'POST', path: '/api/wishlist/show-wishlist-history' },
]

async function tamper(form: TokenForm, w: AttackWorld, variant: number): Promise<string> {
  const base = variant % 2 ? w.victim.token : w.attacker.token
  const [h = '', p = '', s = ''] = base.split('.')
  const now = Math.floor(Date.now() / 1000)
  const victimClaims = b64url(
    utf8(json({ sub: String(w.victim.customerId), ver: 0, typ: 'access', iat: now, exp: now + 900 })),
  )
  switch (form) {
    case 'reencoded-last-char':
      return `${h}.${p}.${reencodeLastChar(s)}`
    case 'padded':
      return `${h}.${p}.${s}=`
    case 'standard-alphabet':
      return `${h}.${p}.${s.replace(/-/g, '+').replace(/_/g, '/')}=`
    case 'alg-none':
      return `${b64url(utf8('{"alg":"none","typ":"JWT"}'))}.${p}.`
    case 'alg-none-victim':
      return `${b64url(utf8('{"alg":"none","typ":"JWT"}'))}.${victimClaims}.`
    case 'wrong-key': {
      const header = b64url(utf8('{"alg":"HS256","typ":"JWT"}'))
      const key = ['secret', '', 'test-token-secret', 'changeme'][variant % 4] as string
      return `${header}.${victimClaims}.${await hs256(key, `${header}.${victimClaims}`)}`
    }
    case 'swapped-payload':
      return `${h}.${victimClaims}.${s}`
    case 'header-reordered':
      return `${b64url(utf8('{"typ":"JWT","alg":"HS256"}'))}.${p}.${s}`
    case 'empty-signature':
      return `${h}.${p}.`
    case 'refresh-as-access':
      return w.attacker.refreshToken || 'x'
    case 'huge':
      return `${h}.${p}${'A'.repeat(20_000)}.${s}`
    case 'garbage':
      return ['null', 'undefined', '[object Object]', 'a.b.c', '..', 'é.é.é', `${h}.${p}`][
        variant % 7
      ] as string
    case 'expired-claims': {
      const claims = b64url(
        utf8(json({ sub: String(w.attacker.customerId), ver: 0, typ: 'access', iat: 1, exp: 2 })),
      )
      return `${h}.${claims}.${s}`
    }
  }
}

const tokenCase: fc.Arbitrary<AttackCase> = fc
  .record({
    form: fc.constantFrom(...TOKEN_FORMS),
    endpoint: fc.constantFrom(...TOKEN_ENDPOINTS),
    where: fc.constantFrom('header', 'query'),
    variant: fc.nat(20),
  })
  .map(
    ({ form, endpoint, where, variant }): AttackCase => ({
      cls: 'token',
      kind: form,
      label: `${form} token in the ${where} of ${endpoint.name}`,
      plan: async (ctx) => {
        const w = ctx.world
        const token = await tamper(form, w, variant)
        const path = endpoint.path.replace('{victimCart}', w.victim.cartId)
        const sep = path.includes('?') ? '&' : '?'
        return {
          request: {
            endpoint: endpoint.name,
            method: endpoint.method,
            path: where === 'query' ? `${path}${sep}token=${encodeURIComponent(token)}` : path,
            headers: {
              'content-type': 'application/json',
              'cf-connecting-ip': '203.0.113.130',
              ...(where === 'header' ? { authorization: `Bearer ${token}` } : {}),
            },
            body: endpoint.method === 'POST' ? '{}' : undefined,
            repeat: 1,
          },
          // A tampered token authenticates nobody.
          expect: 'reject',
          secrets: [w.victim.email, w.attacker.email],
        }
      },
    }),
  )

// ---------------------------------------------------------------------------------------------
// Putting it together

const BY_CLASS: Record<AttackClass, fc.Arbitrary<AttackCase>> = {
  search: searchCase,
  glob: globCase,
  body: bodyCase,
  quantity: quantityCase,
  bundle: bundleCase,
  replay: replayCase,
  header: headerCase,
  token: tokenCase,
}

/** An arbitrary over attack cases of the given classes (all by default), equally weighted. */
export function attackCase(classes: readonly AttackClass[] = ATTACK_CLASSES): fc.Arbitrary<AttackCase> {
  // fast-check prints a counterexample with this (the class and label, not the plan's source).
  return fc
    .oneof(...classes.map((c) => BY_CLASS[c]))
    .map((a) => Object.assign(a, { [fc.toStringMethod]: () => `[${a.cls}] ${a.label}` }))
}

/**
 * Fixed cases to send before the generated ones: the smallest shapes known to be slow or to fail,
 * so a server that still has such a bug fails fast instead of being frozen by a larger variant
 * (a catastrophic RegExp cannot be interrupted from inside the isolate).
 */
export function attackProbes(classes: readonly AttackClass[] = ATTACK_CLASSES): AttackCase[] {
  const out: AttackCase[] = []
  if (classes.includes('glob'))
    out.push(
      staticCase(
        'glob',
        'probe',
        'probe: five wildcards then a literal',
        searchRequest('product', { query: { match_all: {} } }, false, {}, { _source_include: '*****x' }),
      ),
    )
  if (classes.includes('search')) {
    const probes: [Shape, number][] = [
      ['alternating', 7],
      ['multi-match-wide', 9],
      ['should-wide', 100],
      ['range-buckets', 1000],
      ['many-aggs', 300],
    ]
    for (const [shape, n] of probes)
      out.push(
        staticCase(
          'search',
          `probe ${shape}`,
          `probe: ${shape} n=${n}`,
          searchRequest('product', shapeQuery(shape, n, { term: { sku: 'x' } }).body, false, {}),
        ),
      )
  }
  return out
}

/** Short description of an attack for reports (path and body truncated). */
export function describeAttack(a: AttackCase, sent?: AttackRequest, limit = 240): string {
  if (!sent) return `[${a.cls}] ${a.label}`
  const body =
    sent.body === undefined ? '' : ` body(${sent.body.length}): ${JSON.stringify(sent.body.slice(0, limit))}`
  return `[${a.cls}] ${a.label} — ${sent.method} ${sent.host ? `//${sent.host}` : ''}${sent.path.slice(0, limit)}${body}`
}

/**
 * Runs one attack: its set-up, the attack request (timed), then the checks — 2xx/4xx only (the
 * order endpoint's out-of-stock answer aside), the endpoint's answer shape, the expectation, a
 * limit named when an over-limit input is refused, no secret in the answer, the time bound — and
 * the case's follow-up checks.
 */
export async function runAttack(a: AttackCase, ctx: AttackContext): Promise<AttackOutcome> {
  let requests = 0
  const counted: AttackContext = {
    ...ctx,
    send: (r) => {
      requests++
      return ctx.send(r)
    },
  }
  let plan: AttackPlan
  try {
    plan = await a.plan(counted)
  } catch (err) {
    return { status: 0, ms: 0, problem: `set-up failed: ${String(err).slice(0, 300)}`, requests }
  }
  const request = plan.request
  const t0 = ctx.now()
  let answer: Answer
  try {
    answer = await counted.send(request)
  } catch (err) {
    return {
      status: 0,
      ms: ctx.now() - t0,
      problem: `request failed: ${String(err).slice(0, 200)}`,
      requests,
      request,
    }
  }
  const ms = ctx.now() - t0
  const problems: string[] = []
  const shape = checkAnswer(request, answer.status, answer.type, answer.text)
  if (shape) problems.push(shape)
  else if (answer.status >= 500) problems.push(`${answer.status} ${snippet(answer.text)}`)
  const ok = answer.status >= 200 && answer.status < 300
  const refused = answer.status >= 400 && answer.status < 500
  if (plan.expect === 'reject' && !refused)
    problems.push(`expected a 4xx refusal, got ${answer.status} ${snippet(answer.text)}`)
  if (plan.expect === 'accept' && !ok)
    problems.push(`expected 2xx, got ${answer.status} ${snippet(answer.text)}`)
  if (plan.namesLimit && refused && !/\d/.test(envelopeMessage(answer.text)))
    problems.push(`the refusal does not name the limit: ${snippet(envelopeMessage(answer.text))}`)
  const haystack = `${answer.text}\n${answer.headerText}`.toLowerCase()
  for (const s of plan.secrets ?? [])
    if (s && haystack.includes(s.toLowerCase())) problems.push(`the answer contains ${JSON.stringify(s)}`)
  if (ms > ctx.boundMs) problems.push(`took ${Math.round(ms)} ms (bound ${ctx.boundMs} ms)`)
  if (problems.length === 0 && plan.verify) {
    try {
      const late = await plan.verify(answer, counted)
      if (late) problems.push(late)
    } catch (err) {
      problems.push(`follow-up check failed: ${String(err).slice(0, 200)}`)
    }
  }
  return {
    status: answer.status,
    ms,
    problem: problems.length ? problems.join('; ') : null,
    requests,
    request,
  }
}

/**
 * Invariants after an attack run, on top of fuzz-api's checkInvariants: the victim's orders and
 * cart are as they were, no stored mail carries the attacker's host (unless `mails: false`: the
 * spoofed-header attacks check that themselves), and nothing polluted Object.prototype here.
 */
export async function checkAttackInvariants(
  db: SqlLike,
  world: AttackWorld,
  { mails: checkMails = true } = {},
): Promise<string[]> {
  const problems: string[] = []
  const now = await victimSnapshot(db, world)
  if (now.orders !== world.snapshot.orders) problems.push("the victim's orders changed")
  if (now.cart !== world.snapshot.cart) problems.push("the victim's cart changed")
  if (!checkMails) return problems.concat(polluted())
  const mails = await rows<{ n: number }>(
    db,
    'SELECT COUNT(*) AS n FROM mail_outbox WHERE body LIKE ? OR subject LIKE ?',
    `%${ATTACKER_DOMAIN}%`,
    `%${ATTACKER_DOMAIN}%`,
  )
  if ((mails[0]?.n ?? 0) > 0) problems.push(`stored mails with the attacker's host: ${mails[0]?.n}`)
  return problems.concat(polluted())
}

function polluted(): string[] {
  const probe = {} as Record<string, unknown>
  return probe.polluted !== undefined || probe.isAdmin !== undefined || probe.admin !== undefined
    ? ['Object.prototype was polluted']
    : []
}
