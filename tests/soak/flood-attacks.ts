/**
 * Attack classes only the soak run sends (`npm run soak`): floods that need many requests from
 * one address or to one inbox, and requests whose cost is their size. Each case is one timed
 * request, judged like every other attack (tests/helpers/fuzz-attacks.ts: 2xx/4xx within the
 * bound, a refusal over a limit names it); what a flood may achieve in all is checked once the
 * phase is over (`checkFloodInvariants`).
 *
 *   orders    order placement from a few addresses (an IPv6 /64 among them) and bursts of 40
 *             parallel orders from one address: placed orders per address, and units held by
 *             orders nobody paid or confirmed per address and per e-mail, stay within the limits
 *   mail      every form that mails an address (order, Notify me, newsletter, password reset,
 *             registration), all aimed at one inbox from fresh addresses with the sender's own
 *             words in every field: mails per kind stay within the per-recipient limits, and no
 *             mail carries the sender's words
 *   size      catalogue searches asking for thousands of documents (`size`, `from`)
 *   cachekey  pages with query parameters no page reads: none enters an output-cache key
 *   img       one image at one size under every spelling of its URL (leading zeros, actions in
 *             other cases), and an original too large to resize (a permanent 4xx naming the limit)
 */
import fc from 'fast-check'
import { UNCONFIRMED_MAILS_PER_RECIPIENT } from '../../worker/api/mail/notify'
import { SUBSCRIBE_LIMIT_PER_ADDRESS } from '../../worker/api/newsletter/routes'
import {
  MAX_HELD_UNITS,
  MAX_HELD_UNITS_PER_ADDRESS,
  ORDERS_PER_ADDRESS_PER_HOUR,
} from '../../worker/api/order/holds'
import { CONFIRM_MAILS_PER_ADDRESS } from '../../worker/api/stock-alerts/confirm'
import { addressKey } from '../../worker/platform/http'
import {
  type AttackCase,
  type AttackPlan,
  type AttackRequest,
  type AttackWorld,
  rows,
  type Send,
  type SqlLike,
  searchRequest,
} from '../helpers/fuzz-attacks'
import { deliverTo, testAddress } from '../helpers/orders'

export const SOAK_ATTACK_CLASSES = ['orders', 'mail', 'size', 'cachekey', 'img'] as const
export type SoakAttackClass = (typeof SOAK_ATTACK_CLASSES)[number]

export const SOAK_ATTACK_CLASS_INFO: Record<SoakAttackClass, string> = {
  orders: 'order floods from a few addresses and 40-order bursts from one (placement and hold limits)',
  mail: 'every mailing form aimed at one inbox with the sender’s words (per-recipient limits, no relay)',
  size: 'searches asking for thousands of documents (size, from)',
  cachekey: 'pages with query parameters no page reads (output-cache keys)',
  img: 'one image at one size under many URL spellings, and a too-large original',
}

/** The sender's words in every mailing form: a mail that carries them relays the sender. */
const MARKER = 'zqrelaymarker'
/** Query parameters no page reads are named with this. */
const JUNK_PARAM = 'zqk'
/** The orders of one burst, sent at once from one address (the finding: 40 in 2.5 s all accepted). */
const BURST = 40

/** What the soak-only classes need besides the attack world. */
export interface FloodWorld {
  tag: string
  /** Addresses the order flood comes from (IPv4), and an IPv6 /64 whose addresses count as one. */
  orderAddresses: string[]
  orderNet: string
  /** Addresses each order burst came from. */
  burstAddresses: string[]
  /** The e-mail the order flood shares (its holds are limited per e-mail). */
  orderVictim: string
  /** The inbox the mail flood aims at (a registered customer's). */
  mailVictim: string
  sellable: string[]
  /** A sold-out sku ("Notify me" takes only those). */
  soldOut: string | null
  pages: string[]
  /** Catalogue image paths (under /img/W/H/…): one that resizes, and one too large to (if any). */
  image: string | null
  hugeImage: string | null
}

const json = (v: unknown) => JSON.stringify(v)
const rand = (n: number) => Math.floor(Math.random() * n)

let seq = 0
const fresh = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++seq}-${rand(1e6).toString(36)}`
/** A fresh IPv4 address from the CGNAT range, unique to this run (the limits count per address). */
const freshAddress = () => `100.${64 + rand(63)}.${rand(256)}.${1 + rand(254)}`

async function post(send: Send, path: string, body: unknown, ip: string) {
  return send({
    endpoint: 'setup',
    method: 'POST',
    path,
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': ip },
    body: json(body),
    repeat: 1,
  })
}

/**
 * Sets up the soak-only classes: fresh addresses and victims for this run, a sold-out sku, the
 * pages, and the images the caller put in the bucket.
 */
export async function prepareFloodWorld(o: {
  send: Send
  db: SqlLike
  world: AttackWorld
  images?: { path: string; huge?: string }
}): Promise<FloodWorld> {
  const tag = `${o.world.tag}${rand(1e6).toString(36)}`
  const mailVictim = `mail-victim-${tag}@example.com`
  const registered = await post(
    o.send,
    '/api/user/create',
    { customer: { email: mailVictim, firstname: 'Mia', lastname: 'Victim' }, password: 'Secret123' },
    freshAddress(),
  )
  if (registered.status !== 200) throw new Error(`flood set-up: registering failed: ${registered.text}`)
  const candidates = await rows<{ sku: string }>(
    o.db,
    `SELECT i.sku FROM inventory i JOIN products p ON p.sku = COALESCE(i.parent_sku, i.sku)
     WHERE p.status = 1 AND i.manage_stock = 1 AND p.type_id IN ('simple', 'configurable') ORDER BY i.sku DESC LIMIT 20`,
  )
  const soldOut = candidates.map((c) => c.sku).find((sku) => !o.world.sellable.includes(sku)) ?? null
  if (soldOut)
    await rows(
      o.db,
      'UPDATE inventory SET qty = 0, is_in_stock = 0, backorders = 0 WHERE sku = ? RETURNING sku',
      soldOut,
    )
  return {
    tag,
    orderAddresses: [freshAddress(), freshAddress(), freshAddress()],
    orderNet: `2001:db8:${rand(0xffff).toString(16)}:${rand(0xffff).toString(16)}`,
    burstAddresses: [],
    orderVictim: `order-victim-${tag}@example.com`,
    mailVictim,
    sellable: o.world.sellable,
    soldOut,
    pages: [
      '/',
      ...o.world.categorySlugs.map((s) => `/c/${s}`),
      ...o.world.pages.filter((p) => p.startsWith('/p/')),
    ],
    image: o.images?.path ?? null,
    hugeImage: o.images?.huge ?? null,
  }
}

function orderRequest(f: FloodWorld, ip: string, email: string, qty: number, payment: string, sku: string) {
  return {
    endpoint: 'order',
    method: 'POST',
    path: '/api/order',
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': ip },
    body: json({
      order_id: fresh(`flood-${f.tag}`),
      user_id: '',
      cart_id: '',
      products: [{ sku, qty, price: 1 }],
      addressInformation: deliverTo(testAddress(email), payment),
    }),
    repeat: 1,
  } satisfies AttackRequest
}

// ---------------------------------------------------------------------------------------------
// orders

const orderCase = (f: FloodWorld): fc.Arbitrary<AttackCase> =>
  fc
    .record({
      from: fc.nat(3),
      victim: fc.boolean(),
      qty: fc.oneof(
        { weight: 4, arbitrary: fc.integer({ min: 1, max: 3 }) },
        fc.constantFrom(15, 16, 30, 40),
      ),
      payment: fc.constantFrom('card', 'cashondelivery'),
      sku: fc.nat(5),
      burst: fc.oneof({ weight: 7, arbitrary: fc.constant(false) }, fc.constant(true)),
    })
    .map(
      ({ from, victim, qty, payment, sku, burst }): AttackCase => ({
        cls: 'orders',
        kind: burst ? 'burst' : from === 3 ? 'ipv6 /64' : 'one address',
        label: burst ? `${BURST} orders at once from one address` : `order of ${qty} (${payment})`,
        plan: async (ctx): Promise<AttackPlan> => {
          const item = f.sellable[sku % f.sellable.length] as string
          if (!burst) {
            const ip =
              from === 3
                ? `${f.orderNet}:${rand(0xffff).toString(16)}::${rand(0xffff).toString(16)}`
                : (f.orderAddresses[from] as string)
            const email = victim ? f.orderVictim : `${fresh('flood')}@example.com`
            return {
              request: orderRequest(f, ip, email, qty, payment, item),
              expect: 'any',
              namesLimit: true,
            }
          }
          // The burst goes out as set-up; the request after it is the one judged and timed.
          const ip = freshAddress()
          f.burstAddresses.push(ip)
          const started = ctx.now()
          const answers = await Promise.all(
            Array.from({ length: BURST }, () =>
              ctx.send(orderRequest(f, ip, `${fresh('burst')}@example.com`, 1, 'card', item)),
            ),
          )
          const slowest = ctx.now() - started
          // The order after the burst is refused while the address's minute or hour is used up;
          // once the per-minute window has turned (a slow burst) it may be placed, within the hour's.
          return {
            request: orderRequest(f, ip, `${fresh('burst')}@example.com`, 1, 'card', item),
            expect: 'any',
            namesLimit: true,
            verify: async (judged) => {
              const bad = answers.filter((a) => a.status >= 500 || a.status < 200)
              if (bad.length) return `${bad.length} of the burst's orders answered ${bad[0]?.status}`
              const placed = [...answers, judged].filter((a) => a.status === 200).length
              if (placed > ORDERS_PER_ADDRESS_PER_HOUR)
                return `${placed} of ${BURST} parallel orders from one address and the one after them were placed (at most ${ORDERS_PER_ADDRESS_PER_HOUR} an hour)`
              if (slowest > ctx.boundMs * 4)
                return `the burst of ${BURST} took ${Math.round(slowest)} ms (bound ${ctx.boundMs} ms per order)`
              return null
            },
          }
        },
      }),
    )

// ---------------------------------------------------------------------------------------------
// mail

type MailKind = 'order' | 'notify' | 'newsletter' | 'reset' | 'register'

function mailRequest(f: FloodWorld, kind: MailKind, ip: string): AttackRequest {
  const words = `Visit ${MARKER}.invalid for a prize`
  const headers = { 'content-type': 'application/json', 'cf-connecting-ip': ip }
  const at = (path: string, body: unknown): AttackRequest => ({
    endpoint: path.slice(5),
    method: 'POST',
    path,
    headers,
    body: json(body),
    repeat: 1,
  })
  switch (kind) {
    case 'order':
      return {
        ...orderRequest(f, ip, f.mailVictim, 1, 'cashondelivery', f.sellable[0] as string),
        body: json({
          order_id: fresh(`mail-${f.tag}`),
          user_id: '',
          cart_id: '',
          products: [{ sku: f.sellable[0], qty: 1, price: 1 }],
          addressInformation: deliverTo(
            testAddress(f.mailVictim, {
              firstname: words,
              lastname: MARKER,
              street: [words, words],
              city: MARKER,
            }),
          ),
        }),
      }
    case 'notify':
      return at('/api/stock-alerts', { email: f.mailVictim, sku: f.soldOut ?? f.sellable[0] })
    case 'newsletter':
      return at('/api/ext/mailchimp-subscribe/subscribe', { email: f.mailVictim })
    case 'reset':
      return at('/api/user/reset-password', { email: f.mailVictim })
    case 'register':
      return at('/api/user/create', {
        customer: { email: f.mailVictim, firstname: words, lastname: MARKER },
        password: 'Secret123',
      })
  }
}

const mailCase = (f: FloodWorld): fc.Arbitrary<AttackCase> =>
  fc.constantFrom<MailKind>('order', 'notify', 'newsletter', 'reset', 'register').map(
    (kind): AttackCase => ({
      cls: 'mail',
      kind,
      label: `${kind} for one inbox from a fresh address`,
      plan: async () => ({ request: mailRequest(f, kind, freshAddress()), expect: 'any', namesLimit: true }),
    }),
  )

// ---------------------------------------------------------------------------------------------
// size

const sizeCase: fc.Arbitrary<AttackCase> = fc
  .record({
    size: fc.constantFrom(500, 1000, 2000, 4000, 4001, 10_000),
    from: fc.constantFrom(0, 0, 1000, 6000, 9999),
    aggs: fc.boolean(),
    entity: fc.constantFrom('product', 'product', 'category'),
  })
  .map(
    ({ size, from, aggs, entity }): AttackCase => ({
      cls: 'size',
      kind: `size ${size >= 2000 ? '≥ 2000' : '< 2000'}`,
      label: `${entity} size ${size} from ${from}${aggs ? ' with aggregations' : ''}`,
      plan: async () => ({
        request: searchRequest(
          entity,
          {
            query: { match_all: {} },
            ...(aggs ? { aggs: { colors: { terms: { field: 'color', size: 100 } } } } : {}),
          },
          false,
          { size, from },
        ),
        expect: 'any',
        namesLimit: true,
      }),
    }),
  )

// ---------------------------------------------------------------------------------------------
// cachekey

const cacheKeyCase = (f: FloodWorld): fc.Arbitrary<AttackCase> =>
  fc
    .record({
      page: fc.nat(20),
      junk: fc.array(fc.tuple(fc.nat(1e6), fc.string({ maxLength: 12 })), { minLength: 1, maxLength: 8 }),
      known: fc.constantFrom<string[]>([], ['page=2'], ['sort=price'], ['utm_source=x']),
    })
    .map(
      ({ page, junk, known }): AttackCase => ({
        cls: 'cachekey',
        kind: 'unknown parameters',
        label: `${junk.length} unknown parameters${known.length ? ` and ${known.join('&')}` : ''}`,
        plan: async () => {
          const params = new URLSearchParams()
          for (const [name, value] of junk) params.append(`${JUNK_PARAM}${name}`, value)
          for (const k of known) {
            const [name, value] = k.split('=') as [string, string]
            params.append(name, value)
          }
          return {
            request: {
              endpoint: 'page',
              method: 'GET',
              path: `${f.pages[page % f.pages.length]}?${params}`,
              headers: { accept: 'text/html', 'cf-connecting-ip': '203.0.113.160' },
              repeat: 1,
            },
            expect: 'any',
          }
        },
      }),
    )

// ---------------------------------------------------------------------------------------------
// img

const imgCase = (f: FloodWorld): fc.Arbitrary<AttackCase> =>
  fc
    .record({
      width: fc.constantFrom('600', '0600', '00600', '600.0', '+600'),
      height: fc.constantFrom('744', '0744'),
      action: fc.constantFrom('', 'resize/', 'fit/', 'crop/', 'RESIZE/', 'Fit/'),
      accept: fc.constantFrom('image/avif,image/webp,*/*', 'image/webp,*/*', 'image/jpeg', '*/*'),
      huge: fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, fc.constant(true)),
    })
    .map(
      ({ width, height, action, accept, huge }): AttackCase => ({
        cls: 'img',
        kind: huge ? 'too-large original' : 'size spelling',
        label: huge ? 'a 30,000 × 30,000 original' : `/img/${width}/${height}/${action}`,
        plan: async () => {
          const path = huge ? f.hugeImage : f.image
          if (!path) throw new Error('no image in the bucket for the img class (see tests/soak/run.mjs)')
          return {
            request: {
              endpoint: 'img',
              method: 'GET',
              path: huge
                ? `/img/600/744/resize${path}`
                : `/img/${width}/${height}/${action}${path.replace(/^\//, '')}`,
              headers: { accept, 'cf-connecting-ip': '203.0.113.161' },
              repeat: 1,
            },
            // The too-large original: a permanent refusal that names the limit, not a "retry".
            expect: huge ? 'reject' : 'any',
            namesLimit: huge,
            verify: async (a) =>
              a.status === 200 && !/^image\//.test(a.type ?? '') ? `a 200 of type ${a.type}` : null,
          }
        },
      }),
    )

// ---------------------------------------------------------------------------------------------
// Putting it together

/** An arbitrary over the cases of one soak-only class. */
export function floodCase(cls: SoakAttackClass, f: FloodWorld): fc.Arbitrary<AttackCase> {
  const arb = {
    orders: () => orderCase(f),
    mail: () => mailCase(f),
    size: () => sizeCase,
    cachekey: () => cacheKeyCase(f),
    img: () => imgCase(f),
  }[cls]()
  return arb.map((a) => Object.assign(a, { [fc.toStringMethod]: () => `[${a.cls}] ${a.label}` }))
}

const HOLDING = "('pending_payment', 'payment_failed', 'pending')"
const UNITS = `(SELECT COALESCE(SUM(i.qty), 0) FROM order_items i WHERE i.client_order_id = o.client_order_id
  AND (i.parent_sku IS NOT NULL OR NOT EXISTS (SELECT 1 FROM order_items p
    WHERE p.client_order_id = i.client_order_id AND p.parent_sku = i.sku)))`

/** What the soak-only classes may have achieved in all, checked once the phase is over. */
export async function checkFloodInvariants(
  db: SqlLike,
  f: FloodWorld,
  classes: readonly string[],
): Promise<string[]> {
  const problems: string[] = []
  if (classes.includes('orders')) {
    const keys = [...f.orderAddresses, ...f.burstAddresses].map(addressKey)
    keys.push(addressKey(`${f.orderNet}::1`))
    for (const key of keys) {
      const [row] = await rows<{ placed: number; held: number }>(
        db,
        `SELECT COUNT(*) AS placed, COALESCE(SUM(CASE WHEN o.status IN ${HOLDING} THEN ${UNITS} END), 0) AS held
         FROM orders o WHERE o.placed_from = ?`,
        key,
      )
      if ((row?.placed ?? 0) > ORDERS_PER_ADDRESS_PER_HOUR)
        problems.push(
          `${row?.placed} orders placed from ${key} (at most ${ORDERS_PER_ADDRESS_PER_HOUR} an hour)`,
        )
      if ((row?.held ?? 0) > MAX_HELD_UNITS_PER_ADDRESS)
        problems.push(
          `${row?.held} units held by unpaid orders from ${key} (at most ${MAX_HELD_UNITS_PER_ADDRESS})`,
        )
    }
    const [victim] = await rows<{ held: number }>(
      db,
      `SELECT COALESCE(SUM(${UNITS}), 0) AS held FROM orders o
       WHERE o.status IN ${HOLDING} AND o.customer_email = ? COLLATE NOCASE`,
      f.orderVictim,
    )
    if ((victim?.held ?? 0) > MAX_HELD_UNITS)
      problems.push(`${victim?.held} units held by unpaid orders of one e-mail (at most ${MAX_HELD_UNITS})`)
  }
  if (classes.includes('mail')) {
    const kinds = await rows<{ kind: string; n: number }>(
      db,
      'SELECT kind, COUNT(*) AS n FROM mail_outbox WHERE target_address = ? COLLATE NOCASE GROUP BY kind',
      f.mailVictim,
    )
    const count = (match: (kind: string) => boolean) =>
      kinds.filter((k) => match(k.kind)).reduce((n, k) => n + k.n, 0)
    const orderMails = count((k) => k.startsWith('order-') && k !== 'order-merchant')
    if (orderMails > UNCONFIRMED_MAILS_PER_RECIPIENT)
      problems.push(
        `${orderMails} order mails to one inbox (at most ${UNCONFIRMED_MAILS_PER_RECIPIENT} a day)`,
      )
    const confirm = count((k) => k === 'stock-alert-confirm')
    if (confirm > CONFIRM_MAILS_PER_ADDRESS)
      problems.push(
        `${confirm} back-in-stock confirmations to one inbox (at most ${CONFIRM_MAILS_PER_ADDRESS} a day)`,
      )
    const newsletter = count((k) => k === 'newsletter-confirm')
    if (newsletter > SUBSCRIBE_LIMIT_PER_ADDRESS)
      problems.push(
        `${newsletter} newsletter confirmations to one inbox (at most ${SUBSCRIBE_LIMIT_PER_ADDRESS} a day)`,
      )
    const [relayed] = await rows<{ n: number }>(
      db,
      'SELECT COUNT(*) AS n FROM mail_outbox WHERE target_address = ? COLLATE NOCASE AND (body LIKE ?2 OR subject LIKE ?2)',
      f.mailVictim,
      `%${MARKER}%`,
    )
    if ((relayed?.n ?? 0) > 0) problems.push(`${relayed?.n} mails to the inbox carry the sender's words`)
  }
  if (classes.includes('cachekey')) {
    const [keys] = await rows<{ n: number }>(
      db,
      'SELECT COUNT(DISTINCT cache_key) AS n FROM output_cache_tags WHERE cache_key LIKE ?',
      `%${JUNK_PARAM}%`,
    )
    if ((keys?.n ?? 0) > 0)
      problems.push(`${keys?.n} output-cache keys hold query parameters no page reads (${JUNK_PARAM}…)`)
  }
  return problems
}

/** For the report: how many requests the mail flood made each kind of mail send. */
export async function mailFloodSummary(db: SqlLike, f: FloodWorld): Promise<Record<string, number>> {
  const kinds = await rows<{ kind: string; n: number }>(
    db,
    'SELECT kind, COUNT(*) AS n FROM mail_outbox WHERE target_address = ? COLLATE NOCASE GROUP BY kind',
    f.mailVictim,
  )
  return Object.fromEntries(kinds.map((k) => [k.kind, k.n]))
}
