/**
 * API fuzzing shared by the worker test (tests/worker/platform/fuzz-api.test.ts, in workerd) and the soak
 * run (tests/soak/run.mjs, over HTTP): a catalogue of EVERY /api endpoint with a valid-ish request
 * template, fast-check arbitraries that mutate it (hostile scalars, wrong types, unicode incl. lone
 * surrogates / RTL / NUL, SQL/JSON/prototype-pollution injection, 1–2 MB bodies, deep nesting,
 * malformed JSON, random headers and path segments), the response property and the D1 invariants.
 * Pure TypeScript with no Node or workerd imports, so both sides can use it.
 */
import fc from 'fast-check'
import { deliverTo, newOrderId, shippingInformation, testAddress } from './orders'

/** A well-formed contact-form mail to the shop's care address, with a dummy token. */
export const CONTACT_MAIL = {
  sourceAddress: 'a@example.com',
  targetAddress: 'care@ode-atelier.example',
  subject: 'S',
  emailText: 'T',
  token: 'x',
}

/** Valid values the generators mix in so requests also reach the code behind validation. */
export interface FuzzPools {
  skus: string[]
  productIds: number[]
  /** Access tokens of fuzz customers. */
  tokens: string[]
  refreshTokens: string[]
  emails: string[]
  customerIds: number[]
  guestCarts: string[]
  customerCarts: string[]
  orderIds: string[]
  cmsIdentifiers: string[]
  urlPaths: string[]
}

/** What a fuzz run made before it starts: stocked skus, listed products, signed-in customers, carts. */
export interface FuzzWorld {
  skus: string[]
  products: { id: number; url_path: string }[]
  users: { token: string; refreshToken: string; email: string; id: number }[]
  guestCarts: string[]
  customerCarts: string[]
  /** An order id the generators may name (one nobody placed). */
  orderId: string
}

/** The pools of a fuzz world, the CMS pages every shop has among them. */
export function fuzzPools(w: FuzzWorld): FuzzPools {
  return {
    skus: w.skus,
    productIds: w.products.map((p) => p.id),
    tokens: w.users.map((u) => u.token),
    refreshTokens: w.users.map((u) => u.refreshToken),
    emails: w.users.map((u) => u.email),
    customerIds: w.users.map((u) => u.id),
    guestCarts: w.guestCarts,
    customerCarts: w.customerCarts,
    orderIds: [w.orderId],
    cmsIdentifiers: ['about-us', 'privacy-policy'],
    urlPaths: w.products.map((p) => p.url_path),
  }
}

export interface FuzzRequest {
  endpoint: string
  method: string
  /** Path with query string, starting with /api/. */
  path: string
  headers: Record<string, string>
  body?: string
  /** Sent this many times at once (replays of the same request). */
  repeat: number
}

type Shape = 'envelope' | 'catalog' | 'urlmap'

interface Endpoint {
  name: string
  method: string | string[]
  /** Path template: {seg} placeholders are path segments. */
  path: string
  query?: (p: FuzzPools) => Record<string, unknown>
  body?: (p: FuzzPools) => unknown
  shape?: Shape
  /** May answer the order endpoint's out-of-stock 500 (VSF contract). */
  addProducts500?: boolean
}

const pick = <T>(xs: T[], i: number): T | undefined => (xs.length ? xs[Math.abs(i) % xs.length] : undefined)

const ADDRESS = testAddress('fuzz@example.com')

/** Every /api endpoint of the embedded backend with a valid-ish template. */
export const ENDPOINTS: Endpoint[] = [
  {
    name: 'user/create',
    method: 'POST',
    path: '/api/user/create',
    body: () => ({
      customer: {
        email: `f${Math.random().toString(36).slice(2, 9)}@example.com`,
        firstname: 'F',
        lastname: 'Z',
      },
      password: 'Secret123',
    }),
  },
  {
    name: 'user/login',
    method: 'POST',
    path: '/api/user/login',
    body: (p) => ({ username: pick(p.emails, 0) ?? 'x@example.com', password: 'Secret123' }),
  },
  {
    name: 'user/social-login',
    method: 'POST',
    path: '/api/user/social-login',
    body: () => ({ email: 'a@example.com', fname: 'A', lname: 'B', token: 'x.y.z', provider: 'google' }),
  },
  {
    name: 'user/refresh',
    method: 'POST',
    path: '/api/user/refresh',
    body: (p) => ({ refreshToken: pick(p.refreshTokens, 1) ?? 'x' }),
  },
  {
    name: 'user/reset-password',
    method: 'POST',
    path: '/api/user/reset-password',
    body: (p) => ({ email: pick(p.emails, 2) ?? 'x@example.com' }),
  },
  {
    name: 'user/create-password',
    method: 'POST',
    path: '/api/user/create-password',
    body: (p) => ({ email: pick(p.emails, 0), newPassword: 'Secret123', resetToken: 'abc' }),
  },
  {
    name: 'user/change-password',
    method: 'POST',
    path: '/api/user/change-password',
    query: (p) => ({ token: pick(p.tokens, 3) }),
    body: () => ({ currentPassword: 'wrong-one', newPassword: 'Secret999' }),
  },
  { name: 'user/me GET', method: 'GET', path: '/api/user/me', query: (p) => ({ token: pick(p.tokens, 0) }) },
  {
    name: 'user/me POST',
    method: 'POST',
    path: '/api/user/me',
    query: (p) => ({ token: pick(p.tokens, 0) }),
    body: (p) => ({
      customer: {
        email: pick(p.emails, 0),
        firstname: 'F',
        lastname: 'Z',
        addresses: [{ ...ADDRESS, street: ['1 Road', 'Area'] }],
      },
    }),
  },
  {
    name: 'user/order-history',
    method: 'GET',
    path: '/api/user/order-history',
    query: (p) => ({ token: pick(p.tokens, 0), pageSize: 20, currentPage: 1 }),
  },
  {
    name: 'cart/create',
    method: 'POST',
    path: '/api/cart/create',
    query: (p) => ({ token: pick(p.tokens, 1) ?? '' }),
  },
  {
    name: 'cart/pull',
    method: ['GET', 'POST'],
    path: '/api/cart/pull',
    query: (p) => ({ token: '', cartId: pick(p.guestCarts, 0) }),
  },
  {
    name: 'cart/update',
    method: 'POST',
    path: '/api/cart/update',
    query: (p) => ({ token: '', cartId: pick(p.guestCarts, 0) }),
    body: (p) => ({ cartItem: { sku: pick(p.skus, 0), qty: 1, quoteId: pick(p.guestCarts, 0) } }),
  },
  {
    name: 'cart/delete',
    method: 'POST',
    path: '/api/cart/delete',
    query: (p) => ({ token: '', cartId: pick(p.guestCarts, 0) }),
    body: (p) => ({ cartItem: { sku: pick(p.skus, 0), item_id: 1, quoteId: pick(p.guestCarts, 0) } }),
  },
  {
    name: 'cart/totals',
    method: 'GET',
    path: '/api/cart/totals',
    query: (p) => ({ token: '', cartId: pick(p.guestCarts, 1) }),
  },
  {
    name: 'cart/payment-methods',
    method: 'GET',
    path: '/api/cart/payment-methods',
    query: (p) => ({ cartId: pick(p.guestCarts, 1) }),
  },
  {
    name: 'cart/shipping-methods',
    method: ['GET', 'POST'],
    path: '/api/cart/shipping-methods',
    query: (p) => ({ cartId: pick(p.guestCarts, 1) }),
    body: () => ({ address: { country_id: 'IN' } }),
  },
  {
    name: 'cart/shipping-information',
    method: 'POST',
    path: '/api/cart/shipping-information',
    query: (p) => ({ cartId: pick(p.guestCarts, 1) }),
    body: () => shippingInformation(ADDRESS),
  },
  {
    name: 'cart/collect-totals',
    method: 'POST',
    path: '/api/cart/collect-totals',
    query: (p) => ({ cartId: pick(p.guestCarts, 1) }),
    body: () => ({ methods: { paymentMethod: { method: 'cashondelivery' } } }),
  },
  {
    name: 'cart/apply-coupon',
    method: 'POST',
    path: '/api/cart/apply-coupon',
    query: (p) => ({ cartId: pick(p.guestCarts, 0), coupon: 'WELCOME10' }),
  },
  {
    name: 'cart/delete-coupon',
    method: 'POST',
    path: '/api/cart/delete-coupon',
    query: (p) => ({ cartId: pick(p.guestCarts, 0) }),
  },
  {
    name: 'cart/coupon',
    method: 'GET',
    path: '/api/cart/coupon',
    query: (p) => ({ cartId: pick(p.guestCarts, 0) }),
  },
  {
    name: 'order',
    method: 'POST',
    path: '/api/order',
    addProducts500: true,
    body: (p) => ({
      order_id: newOrderId('fuzz'),
      user_id: '',
      cart_id: pick(p.guestCarts, 2) ?? '',
      products: [{ sku: pick(p.skus, 1), qty: 1, price: 1 }],
      addressInformation: deliverTo(ADDRESS),
    }),
  },
  {
    name: 'order/get',
    method: 'GET',
    path: '/api/order/get',
    query: (p) => ({ orderId: pick(p.orderIds, 0) ?? '1', accessKey: 'x' }),
  },
  {
    name: 'giftcard/store-credit-transaction',
    method: 'GET',
    path: '/api/giftcard/store-credit-transaction',
    query: (p) => ({ token: pick(p.tokens, 0) }),
  },
  {
    name: 'giftcard/store-credit-spending',
    method: 'POST',
    path: '/api/giftcard/store-credit-spending',
    query: (p) => ({ token: pick(p.tokens, 0) }),
    body: () => ({ amount: 1, order_id: 'x' }),
  },
  {
    name: 'review/create',
    method: 'POST',
    path: '/api/review/create',
    body: (p) => ({
      review: {
        product_id: pick(p.productIds, 0),
        title: 'T',
        detail: 'D',
        nickname: 'N',
        review_entity: 'product',
      },
    }),
  },
  // A review photograph: the body is the picture's bytes; what the fuzzer sends is refused in words.
  { name: 'review/photo', method: 'POST', path: '/api/review/photo', body: () => ({ image: 'x' }) },
  {
    name: 'newsletter',
    method: ['GET', 'POST', 'DELETE'],
    path: '/api/ext/mailchimp-subscribe/subscribe',
    query: () => ({ email: 'n@example.com' }),
    body: () => ({ email: 'n@example.com' }),
  },
  { name: 'mail/get-token', method: 'GET', path: '/api/ext/mail-service/get-token' },
  {
    name: 'mail/send-email',
    method: 'POST',
    path: '/api/ext/mail-service/send-email',
    body: () => ({ ...CONTACT_MAIL }),
  },
  {
    name: 'wishlist/add',
    method: 'POST',
    path: '/api/wishlist/add-wishlist',
    query: (p) => ({ token: pick(p.tokens, 0) }),
    body: (p) => ({ user_id: pick(p.customerIds, 0), item_id: pick(p.productIds, 1) }),
  },
  {
    name: 'wishlist/remove',
    method: 'POST',
    path: '/api/wishlist/remove-wishlist',
    query: (p) => ({ token: pick(p.tokens, 0) }),
    body: (p) => ({ item_id: pick(p.productIds, 1) }),
  },
  {
    name: 'wishlist/show',
    method: 'POST',
    path: '/api/wishlist/show-wishlist-history',
    query: (p) => ({ token: pick(p.tokens, 0) }),
    body: () => ({}),
  },
  {
    name: 'fbconversion',
    method: 'POST',
    path: '/api/fbconversion/callFbConversionApi',
    body: () => ({
      event_name: 'AddToCart',
      event_id: 'AddToCart-abc',
      event_time: 1700000000,
      user_data: { em: 'a@example.com' },
      event_source_url: 'https://shop.test/p/x',
      action_source: 'website',
      custom_data: { currency: 'INR', value: 1 },
    }),
  },
  {
    name: 'state/send-state',
    method: 'POST',
    path: '/api/state/send-state',
    body: () => ({ id: 'cart-1', state: { items: [] } }),
  },
  {
    name: 'catalog/search',
    method: ['GET', 'POST'],
    path: '/api/catalog/{index}/{type}/_search',
    shape: 'catalog',
    query: () => ({ size: 5, from: 0, sort: 'updated_at:desc' }),
    body: (p) => ({
      query: { bool: { filter: { bool: { must: [{ terms: { sku: [pick(p.skus, 0)] } }] } } } },
    }),
  },
  {
    name: 'stock/check',
    method: ['GET', 'POST'],
    path: '/api/stock/check',
    query: (p) => ({ sku: pick(p.skus, 0) }),
  },
  { name: 'stock/check/:sku', method: 'GET', path: '/api/stock/check/{sku}' },
  {
    name: 'stock/list',
    method: ['GET', 'POST'],
    path: '/api/stock/list',
    query: (p) => ({ skus: p.skus.slice(0, 3).join(',') }),
  },
  {
    name: 'product/render-list',
    method: 'GET',
    path: '/api/product/render-list',
    query: (p) => ({ skus: p.skus.slice(0, 2).join(','), currencyCode: 'INR', storeId: 1 }),
  },
  {
    name: 'product/size-guide-collection',
    method: 'POST',
    path: '/api/product/size-guide-collection',
    body: () => ({}),
  },
  { name: 'product/search-content', method: 'POST', path: '/api/product/search-content', body: () => ({}) },
  { name: 'stores/all', method: 'GET', path: '/api/stores/all' },
  { name: 'home/data', method: 'GET', path: '/api/home/data' },
  { name: 'home/common-config', method: 'GET', path: '/api/home/common-config' },
  { name: 'misc/otw-data', method: 'POST', path: '/api/misc/otw-data', body: () => ({}) },
  { name: 'cms/page', method: 'GET', path: '/api/ext/cms-data/cmsPage/{id}' },
  { name: 'cms/block', method: 'GET', path: '/api/ext/cms-data/cmsBlock/{id}' },
  {
    name: 'cms/page-identifier',
    method: 'GET',
    path: '/api/ext/cms-data/cmsPageIdentifier/{identifier}/storeId/{storeId}',
  },
  {
    name: 'cms/block-identifier',
    method: 'GET',
    path: '/api/ext/cms-data/cmsBlockIdentifier/{identifier}/storeId/{storeId}',
  },
  {
    name: 'url/map',
    method: 'POST',
    path: '/api/url/map',
    shape: 'urlmap',
    body: (p) => ({ url: pick(p.urlPaths, 0) ?? 'women', includeFields: null, excludeFields: [] }),
  },
  { name: 'unknown', method: ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'], path: '/api/{seg}/{seg}' },
]

// ---------------------------------------------------------------------------------------------
// Hostile values

export const INJECTIONS = [
  "' OR 1=1 --",
  "'; DROP TABLE orders; --",
  '" OR ""="',
  '1; SELECT * FROM customers',
  "') UNION SELECT password_hash FROM customers --",
  '%27%20OR%201%3D1',
  '$' + '{7*7}',
  '{{7*7}}',
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '..%2F..%2F',
  '\u0000',
  'a\u0000b',
  '\uD800',
  '\uDC00x\uD800',
  '\u202Eevil\u202C',
  'שלום عالم',
  '🧨💥'.repeat(20),
  'NaN',
  'Infinity',
  '-1',
  '1e309',
  '0x1F',
  'null',
  'true',
  '[]',
  '{}',
  '{"$where":"1"}',
  '__proto__',
  'constructor',
  'prototype',
  ' ',
  '',
  '\r\nX-Injected: 1',
  'x'.repeat(300),
]

const hostileScalar: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...INJECTIONS),
  fc.constantFrom(0, -1, -0, 1.5, 2 ** 31, 2 ** 53 + 1, -(2 ** 63), 1e308, -1e308, Number.MIN_VALUE),
  fc.constantFrom(null, true, false),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.integer(),
  fc.double({ noNaN: true }),
)

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: hostileScalar },
  { weight: 1, arbitrary: fc.array(hostileScalar, { maxLength: 5 }) },
  {
    weight: 1,
    arbitrary: fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'a', 'sku', 'qty'), hostileScalar, {
      maxKeys: 3,
    }),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
)

/** Replaces the value at a random path of a JSON tree (or adds a key). */
function mutate(tree: unknown, path: number[], value: unknown, addKey: string | null): unknown {
  if (path.length === 0 || tree === null || typeof tree !== 'object') return value
  const [head, ...rest] = path as [number, ...number[]]
  if (Array.isArray(tree)) {
    if (tree.length === 0) return [value]
    const i = head % tree.length
    const copy = [...tree]
    copy[i] = mutate(tree[i], rest, value, addKey)
    return copy
  }
  const keys = Object.keys(tree)
  if (addKey !== null && (rest.length === 0 || keys.length === 0)) {
    // JSON.parse('{"__proto__":…}') creates an own property, as an attacker's body would.
    return JSON.parse(
      `{${JSON.stringify(addKey)}:${JSON.stringify(value) ?? 'null'},${JSON.stringify(tree).slice(1)}`.replace(
        /,}$/,
        '}',
      ),
    )
  }
  if (keys.length === 0) return { x: value }
  const k = keys[head % keys.length] as string
  return {
    ...(tree as Record<string, unknown>),
    [k]: mutate((tree as Record<string, unknown>)[k], rest, value, addKey),
  }
}

function deepNest(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array'
    ? `${'['.repeat(depth)}1${']'.repeat(depth)}`
    : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
}

export interface BodyPlan {
  kind:
    | 'template'
    | 'mutated'
    | 'random-json'
    | 'malformed'
    | 'huge-string'
    | 'huge-array'
    | 'deep-array'
    | 'deep-object'
    | 'pollution'
    | 'empty'
  path: number[]
  value: unknown
  addKey: string | null
  size: number
}

const bodyPlan: fc.Arbitrary<BodyPlan> = fc.record({
  kind: fc.oneof(
    { weight: 3, arbitrary: fc.constant('template' as const) },
    { weight: 10, arbitrary: fc.constant('mutated' as const) },
    { weight: 2, arbitrary: fc.constant('random-json' as const) },
    { weight: 2, arbitrary: fc.constant('malformed' as const) },
    { weight: 1, arbitrary: fc.constantFrom('huge-string' as const, 'huge-array' as const) },
    { weight: 1, arbitrary: fc.constantFrom('deep-array' as const, 'deep-object' as const) },
    { weight: 2, arbitrary: fc.constant('pollution' as const) },
    { weight: 1, arbitrary: fc.constant('empty' as const) },
  ),
  path: fc.array(fc.nat(20), { minLength: 1, maxLength: 5 }),
  value: hostileValue,
  addKey: fc.option(
    fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'extra'),
    { nil: null },
  ),
  size: fc.integer({ min: 1_000_000, max: 2_000_000 }),
})

const MALFORMED = [
  '{',
  '{"a":',
  '[1,2',
  '{"a":1}}',
  "{'a':1}",
  'undefined',
  '\u0000',
  '{"a":NaN}',
  '{"a":1,}',
  '\uFEFF{"a":1}',
  'null',
  '"just a string"',
  '12',
  'true',
  '[]',
]

/** The body text for a plan (exported for the soak run's reports). */
export function renderBody(
  template: unknown,
  plan: BodyPlan,
  randomJson: unknown,
  malformedIndex: number,
): string | undefined {
  switch (plan.kind) {
    case 'template':
      return template === undefined ? undefined : JSON.stringify(template)
    case 'mutated':
      return JSON.stringify(mutate(template ?? {}, plan.path, plan.value, plan.addKey)) ?? 'null'
    case 'random-json':
      return JSON.stringify(randomJson) ?? 'null'
    case 'malformed':
      return MALFORMED[malformedIndex % MALFORMED.length]
    case 'huge-string':
      return JSON.stringify(mutate(template ?? {}, plan.path, 'x'.repeat(plan.size), null))
    case 'huge-array':
      return `[${'1,'.repeat(Math.floor(plan.size / 2) - 1)}1]`
    case 'deep-array':
      return deepNest(Math.floor(plan.size / 200), 'array')
    case 'deep-object':
      return deepNest(Math.floor(plan.size / 1000), 'object')
    case 'pollution':
      return `{"__proto__":{"isAdmin":true,"code":200},"constructor":{"prototype":{"polluted":1}},${(JSON.stringify(template ?? {}) ?? '{}').slice(1)}`.replace(
        /,}$/,
        '}',
      )
    case 'empty':
      return ''
  }
}

const segment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...INJECTIONS.filter((s) => s !== '')),
  fc.string({ minLength: 1, maxLength: 30 }),
  fc.constantFrom('%E0%A4%A', '%ZZ', '%C0%AF', '%FF%FE', '%u0041'),
  fc.constantFrom(
    'vue_storefront_catalog',
    'product',
    'category',
    'attribute',
    'taxrule',
    'review',
    'cms_page',
    'cms_block',
    '_search',
    '0',
    '1',
    '-1',
    '999999999999',
    '%00',
    '%2e%2e',
    '..',
  ),
)

const queryPlan = fc.record({
  drop: fc.array(fc.nat(10), { maxLength: 2 }),
  override: fc.array(fc.tuple(fc.nat(10), hostileScalar), { maxLength: 2 }),
  extra: fc.array(
    fc.tuple(
      fc.constantFrom(
        'token',
        'cartId',
        'storeCode',
        '__proto__',
        'size',
        'from',
        'sort',
        'request',
        'request_format',
        'response_format',
        '_source_include',
        'q',
        'sku',
        'skus',
        'pageSize',
        'currentPage',
        'coupon',
        'orderId',
        'email',
      ),
      hostileScalar,
    ),
    { maxLength: 3 },
  ),
  duplicate: fc.boolean(),
})

const headerPlan = fc.record({
  contentType: fc.constantFrom(
    'application/json',
    'application/json',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    '',
    'application/json; charset=utf-16',
  ),
  auth: fc.oneof(
    fc.constant<'none' | 'valid' | 'garbage' | 'basic'>('none'),
    fc.constant<'none' | 'valid' | 'garbage' | 'basic'>('valid'),
    fc.constantFrom<'garbage' | 'basic'>('garbage', 'basic'),
  ),
  store: fc.option(fc.constantFrom(...INJECTIONS.filter((s) => s === headerSafe(s))), { nil: undefined }),
  cookie: fc.option(
    fc.constantFrom('currency=GBP', 'currency=%E0%A4%A', 'country=<x>', 'token=abc; cartId=1'),
    { nil: undefined },
  ),
  requestId: fc.option(fc.constantFrom('abcdefgh12', '"><script>', 'x'.repeat(400)), { nil: undefined }),
})

function asQueryValue(v: unknown): string {
  return typeof v === 'string' ? v : (JSON.stringify(v) ?? '')
}

/** Replaces lone surrogates with U+FFFD (what String.prototype.toWellFormed does). */
function wellFormed(s: string): string {
  return s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
}

/** Header values must be ByteStrings without CR/LF. */
function headerSafe(s: string): string {
  return [...s].filter((ch) => (ch.codePointAt(0) ?? 0) >= 0x20 && (ch.codePointAt(0) ?? 0) < 0x7f).join('')
}

/** An arbitrary over fuzz requests for the given pools (and optionally a subset of endpoints). */
export function fuzzRequest(pools: FuzzPools, endpoints: Endpoint[] = ENDPOINTS): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      ep: fc.constantFrom(...endpoints),
      methodIndex: fc.nat(4),
      segments: fc.array(segment, { minLength: 4, maxLength: 4 }),
      validSegments: fc.boolean(),
      query: queryPlan,
      body: bodyPlan,
      randomJson: fc.jsonValue({ maxDepth: 4 }),
      malformedIndex: fc.nat(100),
      headers: headerPlan,
      poolIndex: fc.nat(50),
      repeat: fc.oneof({ weight: 9, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.constant(2) }),
    })
    .map((g): FuzzRequest => {
      const ep = g.ep
      const methods = Array.isArray(ep.method) ? ep.method : [ep.method]
      const method = methods[g.methodIndex % methods.length] as string
      let segIndex = 0
      const valid: Record<string, string> = {
        index: 'vue_storefront_catalog',
        type: 'product',
        sku: pick(pools.skus, g.poolIndex) ?? 'x',
        id: String(g.poolIndex),
        identifier: pick(pools.cmsIdentifiers, g.poolIndex) ?? 'about-us',
        storeId: '0',
        seg: 'x',
      }
      const path = ep.path.replace(/\{(\w+)\}/g, (_, name: string) => {
        const v =
          g.validSegments && name !== 'seg' ? (valid[name] as string) : (g.segments[segIndex++ % 4] as string)
        // Raw percent sequences (possibly invalid, e.g. %E0%A4%A) go through as they are.
        return /^%/.test(v) ? v : encodeURIComponent(wellFormed(v))
      })
      const base = ep.query?.(pools) ?? {}
      const entries: [string, string][] = Object.entries(base)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, asQueryValue(v)])
      for (const d of g.query.drop) if (entries.length) entries.splice(d % entries.length, 1)
      for (const [i, v] of g.query.override) {
        const e = entries[i % Math.max(1, entries.length)]
        if (e) e[1] = asQueryValue(v)
      }
      for (const [k, v] of g.query.extra) entries.push([k, asQueryValue(v)])
      if (g.query.duplicate && entries.length) entries.push([...(entries[0] as [string, string])])
      const params = new URLSearchParams()
      for (const [k, v] of entries) params.append(k, v)
      const qs = params.toString()
      const headers: Record<string, string> = { 'cf-connecting-ip': `198.51.100.${g.poolIndex % 250}` }
      if (g.headers.contentType) headers['content-type'] = g.headers.contentType
      if (g.headers.auth === 'valid' && pools.tokens.length)
        headers.authorization = `Bearer ${pick(pools.tokens, g.poolIndex)}`
      if (g.headers.auth === 'garbage') headers.authorization = 'Bearer eyJhbGciOiJIUzI1NiJ9.e30.xxxx'
      if (g.headers.auth === 'basic') headers.authorization = 'Basic YWRtaW46YWRtaW4='
      if (g.headers.store !== undefined) headers['x-vs-store-code'] = headerSafe(g.headers.store)
      if (g.headers.cookie) headers.cookie = g.headers.cookie
      if (g.headers.requestId) headers['x-request-id'] = headerSafe(g.headers.requestId)
      const hasBody = method !== 'GET' && method !== 'HEAD'
      const body = hasBody ? renderBody(ep.body?.(pools), g.body, g.randomJson, g.malformedIndex) : undefined
      return { endpoint: ep.name, method, path: qs ? `${path}?${qs}` : path, headers, body, repeat: g.repeat }
    })
}

/** Short description of a request for failure messages (bodies truncated). */
export function describeRequest(r: FuzzRequest): string {
  const body = r.body === undefined ? '' : ` body(${r.body.length}): ${JSON.stringify(r.body.slice(0, 300))}`
  return `${r.method} ${r.path.slice(0, 400)} [${r.endpoint}] headers=${JSON.stringify(r.headers)}${body}`
}

// ---------------------------------------------------------------------------------------------
// The property

const ADD_PRODUCTS_ERROR = 'Error: Error while adding products'

/** Checks one answer; returns a problem description, or null when it is fine. */
export function checkAnswer(
  r: FuzzRequest,
  status: number,
  contentType: string | null,
  text: string,
): string | null {
  const ep = ENDPOINTS.find((e) => e.name === r.endpoint)
  // '..' / '%2e%2e' segments are normalised by the URL parser: such a request may leave /api.
  if (!new URL(r.path, 'http://fuzz.invalid').pathname.startsWith('/api/'))
    return status >= 500 ? `5xx ${status} for a page URL` : null
  if (!contentType?.includes('application/json'))
    return `not JSON (${status}, ${contentType}): ${text.slice(0, 200)}`
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return `unparseable JSON (${status}): ${text.slice(0, 200)}`
  }
  const env = json as { code?: unknown; result?: unknown } | null
  if (status >= 500) {
    const allowed =
      ep?.addProducts500 && status === 500 && env?.code === 500 && env.result === ADD_PRODUCTS_ERROR
    if (!allowed) return `5xx ${status}: ${text.slice(0, 300)}`
  }
  if (status >= 200 && status < 300) {
    if (ep?.shape === 'catalog') {
      const hits = (json as { hits?: unknown } | null)?.hits
      if (!hits || typeof hits !== 'object') return `catalogue 200 without hits: ${text.slice(0, 200)}`
      return null
    }
    if (ep?.shape === 'urlmap') {
      if (json === null) return null
      const hit = json as { _type?: unknown; _source?: unknown }
      if (typeof hit._type !== 'string' || !hit._source || typeof hit._source !== 'object')
        return `url/map 200 neither a hit nor null: ${text.slice(0, 200)}`
      return null
    }
  }
  if (!env || typeof env !== 'object' || Array.isArray(env))
    return `no envelope (${status}): ${text.slice(0, 200)}`
  if (env.code !== status) return `envelope code ${String(env.code)} ≠ HTTP ${status}`
  if (!('result' in env)) return `envelope without result (${status})`
  if (status >= 400) {
    const msg =
      typeof env.result === 'string'
        ? env.result
        : ((env.result as { errorMessage?: unknown; message?: unknown } | null)?.errorMessage ??
          (env.result as { message?: unknown } | null)?.message)
    if (typeof msg !== 'string' || msg.trim().length < 3)
      return `error without a clear message (${status}): ${text.slice(0, 200)}`
    if (/\bat .+\.(ts|js):\d+|SQLITE_|D1_ERROR|TypeError|ReferenceError|RangeError/.test(msg))
      return `error message leaks internals (${status}): ${msg.slice(0, 200)}`
  }
  return null
}

// ---------------------------------------------------------------------------------------------
// D1 invariants

/** The part of D1 the invariant checks use (workerd's env.DB and Miniflare's getD1Database both fit). */
export interface D1Like {
  prepare(sql: string): { all<T = Record<string, unknown>>(): Promise<{ results: T[] }> }
}

/** Stock per sku and the quantities already ordered per sku, at one moment. */
export interface InventorySnapshot {
  qty: Map<string, number>
  ordered: Map<string, number>
}

export async function snapshotInventory(db: D1Like): Promise<InventorySnapshot> {
  const [{ results: stock }, { results: lines }] = await Promise.all([
    db.prepare('SELECT sku, qty FROM inventory').all<{ sku: string; qty: number }>(),
    db.prepare('SELECT sku, SUM(qty) AS n FROM order_items GROUP BY sku').all<{ sku: string; n: number }>(),
  ])
  return { qty: new Map(stock.map((r) => [r.sku, r.qty])), ordered: new Map(lines.map((r) => [r.sku, r.n])) }
}

/**
 * The database invariants: no orphan cart items or order lines, inventory and store credit never
 * below 0, store credit equal to its ledger, one order per client order id, every order with its
 * lines, and (given a snapshot from before) stock decremented exactly by the ordered quantities.
 * Returns the violations (empty = all hold).
 */
export async function checkInvariants(db: D1Like, before?: InventorySnapshot): Promise<string[]> {
  const problems: string[] = []
  const count = async (label: string, sql: string) => {
    const { results } = await db.prepare(sql).all<{ n: number }>()
    const n = results[0]?.n ?? 0
    if (n > 0) problems.push(`${label}: ${n}`)
  }
  await count(
    'orphan cart items',
    'SELECT COUNT(*) AS n FROM cart_items WHERE cart_id NOT IN (SELECT id FROM carts)',
  )
  await count('cart items with qty <= 0', 'SELECT COUNT(*) AS n FROM cart_items WHERE qty <= 0')
  await count('inventory below 0', 'SELECT COUNT(*) AS n FROM inventory WHERE qty < 0')
  await count('store credit below 0', 'SELECT COUNT(*) AS n FROM store_credit WHERE balance_minor < 0')
  await count(
    'store credit ≠ ledger',
    `SELECT COUNT(*) AS n FROM store_credit s WHERE s.balance_minor <>
       (SELECT COALESCE(SUM(amount_minor), 0) FROM store_credit_ledger l WHERE l.customer_id = s.customer_id)`,
  )
  await count(
    'duplicate client order ids',
    'SELECT COUNT(*) AS n FROM (SELECT client_order_id FROM orders GROUP BY client_order_id HAVING COUNT(*) > 1)',
  )
  await count(
    'orders without lines (half-written)',
    'SELECT COUNT(*) AS n FROM orders o WHERE NOT EXISTS (SELECT 1 FROM order_items i WHERE i.client_order_id = o.client_order_id)',
  )
  await count(
    'orphan order lines',
    'SELECT COUNT(*) AS n FROM order_items WHERE client_order_id NOT IN (SELECT client_order_id FROM orders)',
  )
  await count(
    'more than one active cart per customer',
    'SELECT COUNT(*) AS n FROM (SELECT customer_id FROM carts WHERE is_active = 1 AND customer_id IS NOT NULL GROUP BY customer_id HAVING COUNT(*) > 1)',
  )
  if (before) {
    const after = await snapshotInventory(db)
    for (const [sku, qty] of before.qty) {
      const ordered = (after.ordered.get(sku) ?? 0) - (before.ordered.get(sku) ?? 0)
      const actual = after.qty.get(sku)
      if (actual !== qty - ordered) problems.push(`stock of ${sku}: ${actual} ≠ ${qty} − ordered ${ordered}`)
    }
  }
  return problems
}
