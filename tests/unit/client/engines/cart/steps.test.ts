/** The cart engine's steps, each driven on its own (the whole engine: cart-sync.test.ts). */
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { addRefusal } from '../../../../../client/engines/cart/add-rule'
import { lineFromServer } from '../../../../../client/engines/cart/apply-diff'
import { readSnapshot } from '../../../../../client/engines/cart/channel'
import { syncRequired } from '../../../../../client/engines/cart/connect'
import {
  type CartContext,
  cartTask,
  initialCartState,
  serial,
} from '../../../../../client/engines/cart/context'
import { NO_ITEM_ID, pushLine, updateBody } from '../../../../../client/engines/cart/push'
import { mergeRestored } from '../../../../../client/engines/cart/restore'
import { stockOutcome } from '../../../../../client/engines/cart/stock'
import { withLineTotals } from '../../../../../client/engines/cart/totals'
import { clientSettings } from '../../../../../client/engines/runtime/config'
import { EVENTS } from '../../../../../client/engines/runtime/events'
import type { TaskInput, TaskResult } from '../../../../../client/engines/runtime/task'
import { cartItems, cartServerToken } from '../../../../../client/state/cart'
import { MSG } from '../../../../../shared/i18n/messages'
import type { CartLine } from '../../../../../shared/schemas/cart'
import { FakeClock } from '../../../../helpers/fake-clock'

vi.spyOn(console, 'warn').mockImplementation(() => {})

const line = (sku: string, extra: Partial<CartLine> = {}): CartLine => ({ sku, name: sku, qty: 1, ...extra })

/** A context whose server answers with `answer` and records every call. */
function context(answer: (task: TaskInput) => Partial<TaskResult> | Error) {
  const calls: TaskInput[] = []
  const stored = new Map<string, unknown>()
  const events: [string, unknown][] = []
  const ctx: CartContext = {
    queue: {
      execute: async (task) => {
        calls.push(task)
        const a = answer(task)
        if (a instanceof Error) throw a
        return { code: 200, resultCode: 200, result: null, task: {} as TaskResult['task'], ...a }
      },
    },
    storage: {
      getItem: async (k) => stored.get(k) ?? null,
      setItem: async (k, v) => {
        stored.set(k, v)
        return v
      },
      removeItem: async (k) => {
        stored.delete(k)
      },
    } as CartContext['storage'],
    notify: () => {},
    bus: { emit: (e, p) => void events.push([e, p]) },
    settings: () => clientSettings(),
    isLoggedIn: () => false,
    isOnline: () => true,
    clock: new FakeClock(),
    checkStock: async () => ({ status: 'ok' }),
    announce: () => {},
    displayCurrency: () => null,
    state: initialCartState(),
  }
  return { ctx, calls, stored, events }
}

beforeEach(() => {
  cartItems.value = []
  cartServerToken.value = null
})

describe('add rule', () => {
  const settings = { allowZeroPrice: false }
  it('refuses a quantity below 1, an unknown price, and product errors', () => {
    expect(addRefusal({ sku: 'A', name: 'A', priceInclTax: 10 }, 0, settings)?.reason).toBe('qty')
    expect(addRefusal({ sku: 'A', name: 'A' }, 1, settings)).toEqual({
      reason: 'price',
      messages: [MSG.priceUnknown],
    })
    expect(addRefusal({ sku: 'A', name: 'A', priceInclTax: 0 }, 1, settings)?.reason).toBe('price')
    expect(addRefusal({ sku: 'A', name: 'A', priceInclTax: 0 }, 1, { allowZeroPrice: true })).toBeNull()
    expect(addRefusal({ sku: 'A', name: 'A', priceInclTax: -1 }, 1, { allowZeroPrice: true })?.reason).toBe(
      'price',
    )
  })
  it('shows product errors except the "not available" kind, and still refuses for those', () => {
    const hidden = `The ${MSG.productNotAvailableFragment}.`
    expect(
      addRefusal(
        { sku: 'A', name: 'A', priceInclTax: 5, errors: { size: 'Pick a size', stock: hidden, none: null } },
        1,
        settings,
      ),
    ).toEqual({ reason: 'errors', messages: ['Pick a size'] })
    expect(
      addRefusal({ sku: 'A', name: 'A', priceInclTax: 5, errors: { stock: hidden } }, 1, settings),
    ).toEqual({
      reason: 'errors',
      messages: [],
    })
  })
  it('takes the final price before the regular one', () => {
    expect(
      addRefusal({ sku: 'A', name: 'A', finalPriceInclTax: 0, priceInclTax: 10 }, 1, settings)?.reason,
    ).toBe('price')
  })
})

describe('stock outcome', () => {
  const both = { allowOutOfStockInCart: false, cartServerSync: false }
  it('in stock: an "In stock!" note and the quantity', () => {
    expect(stockOutcome(line('A', { info: { x: 'y' } }), { status: 'ok', qty: 4 }, both)).toEqual({
      type: 'patch',
      patch: { info: { x: 'y', stock: MSG.inStock }, stock: { is_in_stock: true, qty: 4 } },
    })
  })
  it('out of stock: marked when allowed or synced, removed otherwise; volatile changes nothing', () => {
    const marked = stockOutcome(line('A'), { status: 'out_of_stock' }, { ...both, cartServerSync: true })
    expect(marked).toEqual({
      type: 'patch',
      patch: { errors: { stock: MSG.outOfStockBadge }, stock: { is_in_stock: false, qty: 0 } },
    })
    expect(stockOutcome(line('A'), { status: 'out_of_stock' }, both)).toEqual({ type: 'remove' })
    expect(stockOutcome(line('A'), { status: 'volatile' }, both)).toEqual({ type: 'none' })
  })
})

describe('lines from and to the server', () => {
  it('a server-only line becomes a confirmed cart line of that cart', () => {
    expect(
      lineFromServer(
        { item_id: 7, sku: 'S', qty: '3' as unknown as number, product_type: 'simple', price: 9 },
        'c1',
      ),
    ).toEqual({
      sku: 'S',
      name: 'S',
      qty: 3,
      prev_qty: 3,
      price: 9,
      type_id: 'simple',
      product_option: undefined,
      server_item_id: 7,
      server_cart_id: 'c1',
    })
  })
  it('a server-only line keeps the picture and product page the server names for it', () => {
    const line = lineFromServer(
      {
        item_id: 8,
        sku: 'K-RED-M',
        qty: 1,
        extension_attributes: { options: [], image: '/k/red.jpg', url_path: '/p/K/kurta/K-RED-M' },
      },
      'c1',
    )
    expect(line).toMatchObject({ image: '/k/red.jpg', url_path: '/p/K/kurta/K-RED-M' })
    // Anything but text is not a picture or a page.
    const odd = lineFromServer(
      { item_id: 9, sku: 'S', qty: 1, extension_attributes: { image: 5, url_path: '' } },
      'c1',
    )
    expect(odd).not.toHaveProperty('image')
    expect(odd).not.toHaveProperty('url_path')
  })
  it('an update carries the item id and options only when there are some', () => {
    expect(updateBody(line('A', { qty: 2 }), undefined, 'c1')).toEqual({
      cartItem: { sku: 'A', qty: 2, quoteId: 'c1' },
    })
    const option = { extension_attributes: {} }
    expect(updateBody(line('A', { product_option: option }), 5, 'c1').cartItem).toMatchObject({
      item_id: 5,
      product_option: option,
    })
    // A grouped set's piece names the set it was chosen on; a product its own page does not.
    expect(updateBody(line('P', { parentSku: 'SET' }), undefined, 'c1').cartItem).toMatchObject({
      parentSku: 'SET',
    })
    expect(updateBody(line('A', { parentSku: 'A' }), undefined, 'c1').cartItem).not.toHaveProperty(
      'parentSku',
    )
  })
  it('line totals attach by server item id; lines without a match keep theirs', () => {
    const lines = [line('A', { server_item_id: 1 }), line('B', { server_item_id: '2' }), line('C')]
    const out = withLineTotals(lines, [
      { item_id: '1', row_total: 10 },
      { item_id: 2, row_total: 20 },
    ])
    expect(out.map((l) => l.totals)).toEqual([
      { item_id: '1', row_total: 10 },
      { item_id: 2, row_total: 20 },
      undefined,
    ])
    expect(withLineTotals(lines, [])).toBe(lines)
  })
})

describe('restore, other tabs, sync need', () => {
  it('keeps lines a fast click added before the stored cart arrived, the stored line winning', () => {
    expect(mergeRestored([line('A', { qty: 2 })], [line('A', { qty: 9 }), line('B')])).toEqual([
      line('A', { qty: 2 }),
      line('B'),
    ])
  })
  it('reads only cart snapshots', () => {
    expect(readSnapshot(null)).toBeNull()
    expect(readSnapshot({ type: 'other', items: [] })).toBeNull()
    expect(readSnapshot({ type: 'cart', items: 'x' })).toBeNull()
    expect(readSnapshot({ type: 'cart', items: [line('A')], token: 't' })).toMatchObject({
      items: [line('A')],
    })
  })
  it('pulls when forced, merging, or changed since the last sync', () => {
    expect(syncRequired({}, 'h', 'h', 1)).toBe(false)
    expect(syncRequired({}, 'h', 'other', 1)).toBe(true)
    expect(syncRequired({}, 'h', 'h', null)).toBe(true)
    expect(syncRequired({ force: true }, 'h', 'h', 1)).toBe(true)
    expect(syncRequired({ forceClientState: true }, 'h', 'h', 1)).toBe(true)
    expect(syncRequired({ mergeStrategy: 'max' }, 'h', 'h', 1)).toBe(true)
  })
})

describe('engine steps on an explicit context', () => {
  it('runs server calls one at a time, in order, even after a failure', async () => {
    const { ctx } = context(() => ({}))
    const order: string[] = []
    const first = serial(ctx, async () => {
      await new Promise((r) => setTimeout(r, 5))
      order.push('first')
      throw new Error('boom')
    })
    const second = serial(ctx, async () => void order.push('second'))
    await expect(first).rejects.toThrow('boom')
    await second
    expect(order).toEqual(['first', 'second'])
  })

  it('a guest cart is addressed without the user token', () => {
    const { ctx } = context(() => ({}))
    expect(cartTask(ctx, 'pull')).toEqual({ url: '/api/cart/pull?cartId={{cartId}}', auth: true })
    ctx.state.guest = true
    expect(cartTask(ctx, 'totals', '&x=1')).toEqual({
      url: '/api/cart/totals?cartId={{cartId}}&x=1',
      auth: false,
    })
  })

  it('pushLine: a confirmed line records its server id; a refusal restores the confirmed quantity', async () => {
    cartServerToken.value = 'c1'
    cartItems.value = [line('A', { qty: 3 })]
    const ok = context(() => ({ result: { item_id: 11, quote_id: 'c1' } }))
    expect(await pushLine(ok.ctx, 'A')).toBe(true)
    expect(cartItems.value[0]).toMatchObject({ server_item_id: 11, server_cart_id: 'c1', prev_qty: 3 })
    expect(ok.ctx.state.totalsDirty).toBe(true)

    cartItems.value = [line('A', { qty: 5, prev_qty: 3, server_item_id: 11 })]
    const refused = context(() => ({ code: 400, result: 'not available' }))
    expect(await pushLine(refused.ctx, 'A')).toBe(false)
    expect(cartItems.value[0]?.qty).toBe(3)
    expect(refused.events.map(([e]) => e)).toContain(EVENTS.cartUpdateQtyFailed)
  })

  it('pushLine: a vanished server line is sent again once without its id; offline marks the cart unsent', async () => {
    cartServerToken.value = 'c1'
    cartItems.value = [line('A', { qty: 2, server_item_id: 4 })]
    const gone = context((t) =>
      (t.payload?.body as { cartItem: { item_id?: number } } | undefined)?.cartItem.item_id === 4
        ? { code: 404, result: 'gone' }
        : { result: { item_id: 9 } },
    )
    expect(await pushLine(gone.ctx, 'A')).toBe(true)
    expect(gone.calls).toHaveLength(2)
    expect(cartItems.value[0]?.server_item_id).toBe(9)

    const offline = context(() => new TypeError('Failed to fetch'))
    expect(await pushLine(offline.ctx, 'A', NO_ITEM_ID)).toBe(false)
    expect(offline.ctx.state.unsentChanges).toBe(true)
  })
})
