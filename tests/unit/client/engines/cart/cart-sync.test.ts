import '../../../../helpers/indexeddb'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createCartSync } from '../../../../../client/engines/cart/cart-sync'
import type { CartSnapshot } from '../../../../../client/engines/cart/channel'
import type { CartChannel, StockCheck } from '../../../../../client/engines/cart/context'
import { type ClientSettings, clientSettings } from '../../../../../client/engines/runtime/config'
import { createEventBus } from '../../../../../client/engines/runtime/events'
import { createTaskQueue } from '../../../../../client/engines/runtime/task-queue'
import { createTokenRefresher } from '../../../../../client/engines/session/token-refresh'
import {
  cartCount,
  cartCoupon,
  cartItems,
  cartLastSyncAt,
  cartLastTotalsSyncAt,
  cartLoaded,
  cartServerToken,
  cartSyncedHash,
  cartTotals,
} from '../../../../../client/state/cart'
import { StorageManager } from '../../../../../client/storage/storage-manager'
import { jsonResponse as json } from '../../../../helpers/browser-fakes'
import { FakeClock, flush } from '../../../../helpers/fake-clock'

vi.spyOn(console, 'warn').mockImplementation(() => {})

interface ServerLine {
  item_id: number
  sku: string
  qty: number
  quote_id: string
}

/** An in-memory Magento-like cart backend. An update WITHOUT item_id always creates a new line. */
function fakeServer() {
  const carts = new Map<string, { owner: string; lines: ServerLine[]; coupon: string | null }>()
  const customerCart = new Map<string, string>()
  let nextItem = 100
  let nextCart = 1
  const calls: string[] = []
  const state = {
    createFails: 0,
    /** Totals reads still to answer 503. */
    totalsFails: 0,
    authorizedTokens: new Set(['tok']),
    refuse: new Set<string>(),
    down: false,
  }
  const fetchFn = (async (input: string, init?: RequestInit) => {
    if (state.down) throw new TypeError('Failed to fetch')
    const url = new URL(String(input), 'https://shop.test')
    const p = url.pathname.replace('/api/', '')
    // Like the server: the customer's token comes in the Authorization header, never in the URL.
    if (url.searchParams.has('token')) return json({ code: 400, result: 'access token in the URL' }, 400)
    const token = /^Bearer (.+)$/.exec(new Headers(init?.headers).get('authorization') ?? '')?.[1] ?? ''
    calls.push(`${p}${p === 'cart/create' ? `:${token ? 'customer' : 'guest'}` : ''}`)
    // A little latency so concurrent calls really overlap.
    await flush(2)
    const body = init?.body ? JSON.parse(String(init.body)) : {}
    if (p === 'cart/create') {
      if (state.createFails > 0) {
        state.createFails--
        return json({ code: 500, result: 'boom' }, 500)
      }
      if (token) {
        if (!state.authorizedTokens.has(token)) return json({ code: 401, result: 'not authorized' }, 401)
        let id = customerCart.get(token)
        if (!id) {
          id = String(nextCart++)
          customerCart.set(token, id)
          carts.set(id, { owner: token, lines: [], coupon: null })
        }
        return json({ code: 200, result: id })
      }
      const id = `g${nextCart++}`
      carts.set(id, { owner: '', lines: [], coupon: null })
      return json({ code: 200, result: id })
    }
    if (p.startsWith('stock/check')) {
      const sku = url.searchParams.get('sku')
      return json({ code: 200, result: { sku, is_in_stock: sku !== 'OOS', qty: sku === 'OOS' ? 0 : 10 } })
    }
    const cart = carts.get(url.searchParams.get('cartId') ?? '')
    if (!cart || cart.owner !== token) return json({ code: 404, result: 'No such entity with cartId' }, 404)
    switch (p) {
      case 'cart/pull':
        return json({ code: 200, result: cart.lines.map((l) => ({ ...l })) })
      case 'cart/update': {
        const { sku, qty, item_id } = body.cartItem
        if (state.refuse.has(sku))
          return json({ code: 400, result: 'The requested qty is not available' }, 400)
        if (item_id != null) {
          const line = cart.lines.find((l) => l.item_id === item_id)
          if (!line) return json({ code: 404, result: 'No such item' }, 404)
          line.qty = qty
          return json({ code: 200, result: { ...line } })
        }
        const line = { item_id: nextItem++, sku, qty, quote_id: url.searchParams.get('cartId') as string }
        cart.lines.push(line)
        return json({ code: 200, result: { ...line } })
      }
      case 'cart/delete':
        cart.lines = cart.lines.filter((l) => l.item_id !== body.cartItem.item_id)
        return json({ code: 200, result: true })
      case 'cart/totals': {
        if (state.totalsFails > 0) {
          state.totalsFails--
          return json({ code: 503, result: 'Service Unavailable' }, 503)
        }
        const subtotal = cart.lines.reduce((s, l) => s + l.qty * 100, 0)
        const discount = cart.coupon ? -subtotal * 0.1 : 0
        return json({
          code: 200,
          result: {
            grand_total: subtotal + discount,
            subtotal,
            discount_amount: discount,
            coupon_code: cart.coupon,
            items: cart.lines.map((l) => ({ item_id: l.item_id, qty: l.qty, row_total: l.qty * 100 })),
            total_segments: [{ code: 'grand_total', title: 'Grand Total', value: subtotal + discount }],
          },
        })
      }
      case 'cart/apply-coupon':
        if (url.searchParams.get('coupon') !== 'WELCOME10') {
          return json(
            { code: 400, result: "The coupon code isn't valid. Verify the code and try again." },
            400,
          )
        }
        cart.coupon = 'WELCOME10'
        return json({ code: 200, result: true })
      case 'cart/delete-coupon':
        cart.coupon = null
        return json({ code: 200, result: true })
    }
    return json({ code: 404, result: 'unknown' }, 404)
  }) as typeof fetch
  return { fetchFn, carts, calls, state, customerCart }
}

let seq = 0
function setup(
  opts: {
    settings?: Partial<ClientSettings>
    online?: boolean
    stock?: (sku: string) => Promise<StockCheck>
    channel?: CartChannel
  } = {},
) {
  const server = fakeServer()
  const clock = new FakeClock()
  const session = { token: null as string | null, online: opts.online ?? true }
  const notices: { type: string; message: string; action2?: { label: string; href?: string } }[] = []
  const bus = createEventBus()
  const refresher = createTokenRefresher({
    getToken: () => session.token,
    getRefreshToken: () => null,
    setTokens: () => {},
    onExhausted: () => {},
    fetch: server.fetchFn,
  })
  const queue = createTaskQueue({
    refresher,
    getToken: () => session.token,
    getCartId: () => cartServerToken.value,
    notify: (n) => notices.push(n),
    fetch: server.fetchFn,
    clock,
    isOnline: () => session.online,
  })
  const manager = new StorageManager({ storeCode: `c${Date.now()}${seq++}`, clock })
  const cart = createCartSync({
    queue,
    storage: manager.get('cart'),
    notify: (n) => notices.push(n),
    bus,
    settings: () => ({ ...clientSettings(), ...opts.settings }),
    isLoggedIn: () => !!session.token,
    isOnline: () => session.online,
    clock,
    checkStock: opts.stock,
    channel: opts.channel,
  })
  return { server, clock, session, notices, cart, manager, bus }
}

const product = (sku: string, extra: Record<string, unknown> = {}) => ({
  sku,
  name: `Product ${sku}`,
  priceInclTax: 100,
  ...extra,
})

beforeEach(() => {
  cartItems.value = []
  cartServerToken.value = null
  cartLoaded.value = false
  cartSyncedHash.value = null
  cartLastSyncAt.value = null
  cartLastTotalsSyncAt.value = null
  cartTotals.value = null
})

describe('add to cart rules', () => {
  it('accumulates quantity by sku, counts quantities, and says added with "Proceed to checkout"', async () => {
    const t = setup({ online: false })
    expect(await t.cart.addItem(product('A'), 1)).toEqual({ ok: true, stock: 'volatile' })
    await t.cart.addItem(product('A'), '2')
    await t.cart.addItem(product('B'), 1)
    expect(cartItems.value.map((l) => [l.sku, l.qty])).toEqual([
      ['A', 3],
      ['B', 1],
    ])
    expect(cartCount.value).toBe(4)
    expect(t.notices).toContainEqual(
      expect.objectContaining({
        type: 'success',
        message: 'Product has been added to the cart!',
        action2: { label: 'Proceed to checkout', href: '/checkout' },
      }),
    )
    // Offline the stock is unknown: volatile warning.
    expect(t.notices).toContainEqual({
      type: 'warning',
      message:
        'The system is not sure about the stock quantity (volatile). Product has been added to the cart for pre-reservation.',
    })
    // Persisted in IndexedDB.
    expect(await t.manager.get('cart').getItem('current-cart')).toHaveLength(2)
  })

  it('refuses a price at or below 0', async () => {
    const t = setup({ online: false })
    expect(await t.cart.addItem(product('A', { priceInclTax: 0 }))).toEqual({ ok: false, reason: 'price' })
    expect(cartItems.value).toEqual([])
    expect(t.notices[0]?.message).toBe('Product price is unknown, product cannot be added to the cart!')
  })

  it('shows product errors except "not available" ones, and does not add', async () => {
    const t = setup({ online: false })
    const res = await t.cart.addItem(
      product('A', {
        errors: { a: 'Please select a size', b: 'The product that you are trying to add is not available.' },
      }),
    )
    expect(res).toEqual({ ok: false, reason: 'errors' })
    expect(t.notices.map((n) => n.message)).toEqual(['Please select a size'])
    expect(cartItems.value).toEqual([])
  })

  it("refuses an out-of-stock result with the shop's message", async () => {
    const t = setup()
    expect(await t.cart.addItem(product('OOS'))).toEqual({ ok: false, reason: 'out_of_stock' })
    expect(t.notices[0]?.message).toBe('The product is out of stock and cannot be added to the cart!')
  })

  it('sets "In stock!" only after the 500 ms stock delay', async () => {
    const t = setup({ stock: async () => ({ status: 'ok', qty: 4, is_in_stock: true }) })
    await t.cart.addItem(product('A'))
    await t.cart.idle()
    await t.clock.advance(499)
    expect(cartItems.value[0]?.info?.stock).toBeUndefined()
    await t.clock.advance(1)
    expect(cartItems.value[0]?.info?.stock).toBe('In stock!')
  })

  it('marks a line out of stock after a late out-of-stock answer (out-of-stock allowed in the cart)', async () => {
    let answer: StockCheck = { status: 'ok' }
    const t = setup({ stock: async () => answer })
    await t.cart.addItem(product('A'))
    answer = { status: 'out_of_stock', qty: 0, is_in_stock: false }
    await t.cart.recheckVolatileStock()
    await t.clock.advance(600)
    expect(cartItems.value[0]).toMatchObject({
      errors: { stock: 'Out Of Stock' },
      stock: { is_in_stock: false },
    })
  })

  it('removes it instead when neither out-of-stock items nor cart sync are allowed', async () => {
    const t = setup({
      settings: { allowOutOfStockInCart: false, cartServerSync: false },
      stock: async () => ({ status: 'out_of_stock' }),
    })
    cartItems.value = [{ sku: 'A', name: 'A', qty: 1 }]
    await t.cart.recheckVolatileStock()
    await t.clock.advance(499)
    expect(cartItems.value).toHaveLength(1)
    await t.clock.advance(1)
    expect(cartItems.value).toEqual([])
  })
})

/** A BroadcastChannel stand-in: records what this tab posts; `deliver` plays another tab's post. */
function fakeChannel() {
  const posted: CartSnapshot[] = []
  let listener: ((e: { data: unknown }) => void) | null = null
  const channel: CartChannel = {
    postMessage: (m) => posted.push(structuredClone(m) as CartSnapshot),
    addEventListener: (_type, fn) => {
      listener = fn
    },
  }
  return { channel, posted, deliver: (data: unknown) => listener?.({ data }) }
}

describe('other tabs', () => {
  it("announces each change once it is stored, and adopts another tab's cart without echoing it", async () => {
    const tab = fakeChannel()
    const t = setup({ online: false, channel: tab.channel })
    await t.cart.restore()
    await t.cart.addItem(product('A'), 2)
    await flush(5)
    const last = tab.posted.at(-1)
    expect(last).toMatchObject({ type: 'cart', items: [expect.objectContaining({ sku: 'A', qty: 2 })] })
    // Another tab added B and is connected to a server cart: this tab shows it at once.
    const before = tab.posted.length
    tab.deliver({
      type: 'cart',
      items: [
        { sku: 'A', name: 'A', qty: 2 },
        { sku: 'B', name: 'B', qty: 1, server_item_id: 7 },
      ],
      token: 'cart-9',
      totals: { grand_total: 300, total_segments: [] },
      hash: 'h',
      guest: true,
    })
    expect(cartCount.value).toBe(3)
    expect(cartServerToken.value).toBe('cart-9')
    expect(cartTotals.value?.grand_total).toBe(300)
    await flush(5)
    expect(tab.posted.length).toBe(before)
    // Anything else on the channel is ignored.
    tab.deliver({ type: 'other' })
    tab.deliver(null)
    expect(cartCount.value).toBe(3)
  })

  it('reads the stored cart again after a back/forward restore, the stored state winning', async () => {
    const t = setup({ online: false })
    await t.cart.restore()
    await t.cart.addItem(product('A'), 1)
    // Meanwhile another tab replaced the cart in the shared storage.
    await t.manager.get('cart').setItem('current-cart', [{ sku: 'B', name: 'B', qty: 4 }])
    await t.cart.reloadStored()
    expect(cartItems.value.map((l) => [l.sku, l.qty])).toEqual([['B', 4]])
    expect(cartCount.value).toBe(4)
  })

  it('ignores announcements before its own cart is restored', async () => {
    const tab = fakeChannel()
    setup({ online: false, channel: tab.channel })
    tab.deliver({
      type: 'cart',
      items: [{ sku: 'X', name: 'X', qty: 5 }],
      token: null,
      totals: null,
      hash: null,
      guest: false,
    })
    expect(cartCount.value).toBe(0)
  })
})

describe('server sync', () => {
  it('connects a guest cart on the first add and pushes the line', async () => {
    const t = setup()
    await t.cart.addItem(product('A'), 2)
    await t.cart.idle()
    expect(cartServerToken.value).toMatch(/^g/)
    const lines = t.server.carts.get(cartServerToken.value as string)?.lines
    expect(lines?.map((l) => [l.sku, l.qty])).toEqual([['A', 2]])
    expect(cartItems.value[0]?.server_item_id).toBe(lines?.[0]?.item_id)
    expect(cartTotals.value?.grand_total).toBe(200)
  })

  it('rapid clicks never create duplicate server lines (#2639): one line with the final quantity', async () => {
    const t = setup({ stock: async () => ({ status: 'ok' }) })
    await Promise.all([1, 2, 3, 4, 5].map(() => t.cart.addItem(product('A'), 1)))
    await t.cart.idle()
    await flush(10)
    await t.cart.idle()
    let lines = t.server.carts.get(cartServerToken.value as string)?.lines ?? []
    expect(lines.map((l) => [l.sku, l.qty])).toEqual([['A', 5]])
    // Once connected: more rapid clicks and quantity changes.
    await Promise.all([
      t.cart.addItem(product('A'), 1),
      t.cart.addItem(product('A'), 1),
      t.cart.updateQuantity('A', 9),
    ])
    await t.cart.idle()
    await t.cart.idle()
    lines = t.server.carts.get(cartServerToken.value as string)?.lines ?? []
    // The quantity change ran before the two adds finished their stock checks: 9 + 1 + 1.
    expect(cartItems.value.map((l) => [l.sku, l.qty])).toEqual([['A', 11]])
    expect(lines.map((l) => [l.sku, l.qty])).toEqual([['A', 11]])
    expect(t.server.calls.filter((c) => c === 'cart/update').length).toBeLessThanOrEqual(4)
  })

  it('a refused quantity update restores the previous quantity', async () => {
    const t = setup({ stock: async () => ({ status: 'ok' }) })
    await t.cart.addItem(product('A'), 2)
    await t.cart.idle()
    t.server.state.refuse.add('A')
    await t.cart.updateQuantity('A', 50)
    await t.cart.idle()
    expect(cartItems.value.map((l) => [l.sku, l.qty])).toEqual([['A', 2]])
    expect(t.notices.map((n) => n.message)).toContain('The requested qty is not available')
  })

  it('a refused new line is removed locally', async () => {
    const t = setup({ stock: async () => ({ status: 'ok' }) })
    await t.cart.connect()
    t.server.state.refuse.add('B')
    await t.cart.addItem(product('B'), 1)
    await t.cart.idle()
    expect(cartItems.value).toEqual([])
  })

  it('a line deleted on the server elsewhere is added again on the next quantity change', async () => {
    const t = setup({ stock: async () => ({ status: 'ok' }) })
    await t.cart.addItem(product('A'), 1)
    await t.cart.idle()
    const cart = t.server.carts.get(cartServerToken.value as string)
    if (cart) cart.lines = []
    await t.cart.updateQuantity('A', 4)
    await t.cart.idle()
    expect(cart?.lines.map((l) => [l.sku, l.qty])).toEqual([['A', 4]])
    expect(cartItems.value[0]?.server_item_id).toBe(cart?.lines[0]?.item_id)
  })

  it('remove deletes the server line', async () => {
    const t = setup({ stock: async () => ({ status: 'ok' }) })
    await t.cart.addItem(product('A'), 1)
    await t.cart.addItem(product('B'), 1)
    await t.cart.idle()
    await t.cart.removeItem('A')
    await t.cart.idle()
    expect(t.server.carts.get(cartServerToken.value as string)?.lines.map((l) => l.sku)).toEqual(['B'])
    expect(cartItems.value.map((l) => l.sku)).toEqual(['B'])
  })

  it('server-only lines are added locally, or deleted on the server when client state is forced', async () => {
    const t = setup({ stock: async () => ({ status: 'ok' }) })
    await t.cart.addItem(product('A'), 1)
    await t.cart.idle()
    const cart = t.server.carts.get(cartServerToken.value as string)
    cart?.lines.push({ item_id: 999, sku: 'X', qty: 2, quote_id: cartServerToken.value as string })
    await t.cart.sync({ force: true })
    expect(cartItems.value.map((l) => [l.sku, l.qty])).toEqual([
      ['A', 1],
      ['X', 2],
    ])
    cart?.lines.push({ item_id: 1000, sku: 'Y', qty: 1, quote_id: cartServerToken.value as string })
    cartItems.value = cartItems.value.filter((l) => l.sku !== 'X')
    await t.cart.sync({ forceClientState: true })
    expect(cart?.lines.map((l) => l.sku)).toEqual(['A'])
  })

  it('skips the pull when the hash is unchanged and a sync date exists', async () => {
    const t = setup({ stock: async () => ({ status: 'ok' }) })
    await t.cart.addItem(product('A'), 1)
    await t.cart.idle()
    const pulls = t.server.calls.filter((c) => c === 'cart/pull').length
    expect(await t.cart.sync()).toEqual([])
    expect(t.server.calls.filter((c) => c === 'cart/pull').length).toBe(pulls)
    await t.cart.updateQuantity('A', 3)
    await t.cart.idle()
    cartSyncedHash.value = 'stale'
    await t.cart.sync()
    expect(t.server.calls.filter((c) => c === 'cart/pull').length).toBe(pulls + 1)
  })

  it('falls back to a guest cart when the customer cart is not authorized', async () => {
    const t = setup()
    t.session.token = 'expired-no-refresh'
    await t.cart.connect()
    expect(t.server.calls).toEqual(['cart/create:customer', 'cart/create:guest', 'cart/pull', 'cart/totals'])
    expect(cartServerToken.value).toMatch(/^g/)
  })

  it('falls back to a guest cart at most 10 times', async () => {
    const t = setup()
    t.server.state.createFails = 100
    await t.cart.connect()
    expect(t.server.calls.filter((c) => c.startsWith('cart/create'))).toHaveLength(11)
    expect(cartServerToken.value).toBeNull()
  })

  it('coupons only when connected; applied coupons come back through totals', async () => {
    const t = setup({ stock: async () => ({ status: 'ok' }) })
    expect(await t.cart.applyCoupon('WELCOME10')).toBe(false)
    expect(t.server.calls).toEqual([])
    await t.cart.addItem(product('A'), 2)
    await t.cart.idle()
    expect(await t.cart.applyCoupon('NOPE')).toBe(false)
    expect(t.notices.map((n) => n.message)).toContain(
      "The coupon code isn't valid. Verify the code and try again.",
    )
    expect(await t.cart.applyCoupon('WELCOME10')).toBe(true)
    expect(cartCoupon.value).toEqual({ code: 'WELCOME10', discount_amount: -20 })
    expect(await t.cart.removeCoupon()).toBe(true)
    expect(cartCoupon.value).toBeNull()
  })

  it('a totals read that failed is tried again after 1, 3 and 9 s, then no more', async () => {
    const t = setup({ stock: async () => ({ status: 'ok' }) })
    await t.cart.addItem(product('A'), 2)
    await t.cart.idle()
    const reads = () => t.server.calls.filter((c) => c === 'cart/totals').length
    const before = reads()
    t.server.state.totalsFails = 10
    cartTotals.value = null
    await t.cart.syncTotals()
    expect(reads()).toBe(before + 1)
    for (const [wait, total] of [
      [1_000, 2],
      [3_000, 3],
      [9_000, 4],
      [60_000, 4],
    ] as const) {
      await t.clock.advance(wait)
      await t.cart.idle()
      expect(reads()).toBe(before + total)
    }
    expect(cartTotals.value).toBeNull()
    // One failure: the second try brings the totals.
    t.server.state.totalsFails = 1
    await t.cart.syncTotals()
    await t.clock.advance(1_000)
    await t.cart.idle()
    expect(cartTotals.peek()?.grand_total).toBe(200)
  })

  it('totals that do not hold a row for every server line are read again by the next sync', async () => {
    const t = setup({ stock: async () => ({ status: 'ok' }) })
    await t.cart.addItem(product('A'), 2)
    await t.cart.idle()
    const reads = () => t.server.calls.filter((c) => c === 'cart/totals').length
    const before = reads()
    // Totals read before the line was linked to its server item (a reload's first read racing the
    // sync that links the lines): they hold no row for it.
    cartTotals.value = { ...(cartTotals.value ?? { total_segments: [] }), items: [] }
    cartSyncedHash.value = null
    await t.cart.sync()
    expect(reads()).toBe(before + 1)
    expect(cartTotals.value?.items?.map((i) => i.item_id)).toEqual([cartItems.value[0]?.server_item_id])
  })

  // The page was left while the totals of the line's last change were read: the line is stored as
  // synced (the hash is unchanged), the totals are those of before the change.
  it.each([
    ['before the line was added: no row for it', (_rows: Record<string, unknown>[]) => []],
    [
      'before its quantity went from 1 to 2: its row at 1',
      (rows: Record<string, unknown>[]) => rows.map((r) => ({ ...r, qty: 1 })),
    ],
  ] as const)('totals of %s are read again by the next sync, without a pull', async (_, before) => {
    const t = setup({ stock: async () => ({ status: 'ok' }) })
    await t.cart.addItem(product('A'), 2)
    await t.cart.idle()
    const count = (call: string) => t.server.calls.filter((c) => c === call).length
    const [totalsBefore, pullsBefore] = [count('cart/totals'), count('cart/pull')]
    const held = cartTotals.peek()
    cartTotals.value = { ...(held ?? { total_segments: [] }), items: before(held?.items ?? []) }
    expect(await t.cart.sync()).toEqual([])
    expect(count('cart/pull')).toBe(pullsBefore)
    expect(count('cart/totals')).toBe(totalsBefore + 1)
    expect(cartTotals.peek()?.items?.map((i) => [i.item_id, i.qty])).toEqual([
      [cartItems.value[0]?.server_item_id, 2],
    ])
  })

  it('a cart task waits for the cart id', async () => {
    const t = setup()
    const waiting = t.cart.waitForCartId(5000)
    await t.cart.connect()
    expect(await waiting).toBe(cartServerToken.value)
    const t2 = setup()
    cartServerToken.value = null
    const none = t2.cart.waitForCartId(5000)
    await t2.clock.advance(5000)
    expect(await none).toBeNull()
  })

  it('after an order the cart is cleared, recreated and resynced', async () => {
    const t = setup({ stock: async () => ({ status: 'ok' }) })
    await t.cart.addItem(product('A'), 1)
    await t.cart.idle()
    const before = cartServerToken.value
    await t.cart.clearAfterOrder()
    expect(cartItems.value).toEqual([])
    expect(cartServerToken.value).not.toBeNull()
    expect(cartServerToken.value).not.toBe(before)
    expect(await t.manager.get('cart').getItem('current-cart')).toEqual([])
  })

  it('load() restores the stored cart and syncs with the stored token', async () => {
    const t = setup({ stock: async () => ({ status: 'ok' }) })
    await t.cart.addItem(product('A'), 2)
    await t.cart.idle()
    const token = cartServerToken.value
    cartItems.value = []
    cartServerToken.value = null
    cartLoaded.value = false
    await t.cart.load()
    expect(cartServerToken.value).toBe(token)
    expect(cartItems.value.map((l) => [l.sku, l.qty])).toEqual([['A', 2]])
  })
})

describe('the stored cart', () => {
  it("restores the lines with their rows of the stored totals (the server's options), as a totals read gives them", async () => {
    const t = setup({ stock: async () => ({ status: 'ok' }) })
    await t.cart.addItem(product('A'), 2)
    await t.cart.idle()
    const id = cartItems.value[0]?.server_item_id
    expect(id).not.toBeUndefined()
    // A new page: nothing in memory, and no totals read after the restore.
    cartItems.value = []
    cartServerToken.value = null
    cartTotals.value = null
    cartLoaded.value = false
    await t.cart.restore()
    expect(cartTotals.peek()?.items?.map((i) => i.item_id)).toEqual([id])
    expect((cartItems.value[0]?.totals as { item_id?: unknown } | undefined)?.item_id).toBe(id)
  })
})

describe('offline and startup', () => {
  it('an update that could not be sent keeps the cart dirty, so the next plain sync pushes it', async () => {
    const t = setup({ stock: async () => ({ status: 'ok' }) })
    await t.cart.addItem(product('A'), 1)
    await t.cart.idle()
    t.server.state.down = true
    await t.cart.updateQuantity('A', 3)
    await t.cart.idle()
    const lines = () => t.server.carts.get(cartServerToken.value as string)?.lines.map((l) => [l.sku, l.qty])
    expect(lines()).toEqual([['A', 1]])
    t.server.state.down = false
    await t.cart.sync()
    expect(lines()).toEqual([['A', 3]])
  })

  it('a click during the IndexedDB restore does not overwrite the stored cart', async () => {
    const t = setup({ online: false })
    await t.manager.get('cart').setItem('current-cart', [{ sku: 'OLD', name: 'Old', qty: 2 }])
    const restoring = t.cart.restore()
    const added = t.cart.addItem(product('NEW'), 1)
    await Promise.all([restoring, added])
    expect(cartItems.value.map((l) => [l.sku, l.qty])).toEqual([
      ['OLD', 2],
      ['NEW', 1],
    ])
    expect(((await t.manager.get('cart').getItem('current-cart')) as unknown[]).length).toBe(2)
  })
})

describe('login merge (#5743)', () => {
  it('merges the guest cart into the customer cart once, by sku, taking the larger quantity', async () => {
    const t = setup({ stock: async () => ({ status: 'ok' }) })
    // The customer's existing server cart: A×3, C×1.
    t.server.customerCart.set('tok', '77')
    t.server.carts.set('77', {
      owner: 'tok',
      coupon: null,
      lines: [
        { item_id: 1, sku: 'A', qty: 3, quote_id: '77' },
        { item_id: 2, sku: 'C', qty: 1, quote_id: '77' },
      ],
    })
    // As a guest: A×2, B×1.
    await t.cart.addItem(product('A'), 2)
    await t.cart.addItem(product('B'), 1)
    await t.cart.idle()
    t.session.token = 'tok'
    // Login while a load-sync is also running (the race of #5743).
    await Promise.all([t.cart.authorize(), t.cart.load(), t.cart.authorize()])
    await t.cart.idle()
    const expected = [
      ['A', 3],
      ['B', 1],
      ['C', 1],
    ]
    const server = () =>
      (t.server.carts.get('77')?.lines ?? [])
        .map((l) => [l.sku, l.qty])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0])))
    expect(cartServerToken.value).toBe('77')
    expect(server()).toEqual(expected)
    expect(cartItems.value.map((l) => [l.sku, l.qty]).sort()).toEqual(expected)
    // A reload-and-login again never doubles.
    await t.cart.authorize()
    expect(server()).toEqual(expected)
    expect(cartItems.value.map((l) => [l.sku, l.qty]).sort()).toEqual(expected)
  })

  it('logout forgets the customer cart and starts an empty guest cart', async () => {
    const t = setup({ stock: async () => ({ status: 'ok' }) })
    t.session.token = 'tok'
    await t.cart.addItem(product('A'), 1)
    await t.cart.idle()
    expect(cartServerToken.value).toBe('1')
    t.session.token = null
    await t.cart.disconnectAndRecreate()
    expect(cartItems.value).toEqual([])
    expect(cartServerToken.value).toMatch(/^g/)
  })
})
