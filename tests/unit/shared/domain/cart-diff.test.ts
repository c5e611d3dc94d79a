import { describe, expect, it } from 'vitest'
import {
  diffCart,
  resolveFailedUpdate,
  shouldConnectAuthorizedCart,
  toQty,
} from '../../../../shared/domain/cart-diff'

const s = (item_id: number, sku: string, qty: number) => ({ item_id, sku, qty })

describe('diffCart (client cart against server cart)', () => {
  it('pushes an item missing on the server (the shopper wins by default, #4305)', () => {
    expect(diffCart([{ sku: 'A', qty: 2 }], [])).toEqual([
      { type: 'push', sku: 'A', qty: 2, reason: 'missing-on-server' },
    ])
  })

  it('removes it locally only when the server may remove local items and state is not forced', () => {
    expect(diffCart([{ sku: 'A', qty: 2 }], [], { serverCanRemoveLocalItems: true })).toEqual([
      { type: 'remove-local', sku: 'A', reason: 'missing-on-server' },
    ])
    expect(
      diffCart([{ sku: 'A', qty: 2 }], [], { serverCanRemoveLocalItems: true, forceClientState: true })[0]
        ?.type,
    ).toBe('push')
  })

  it('pushes the client quantity when it differs, with the server item id', () => {
    expect(diffCart([{ sku: 'A', qty: 3 }], [s(11, 'A', 1)])).toEqual([
      { type: 'push', sku: 'A', qty: 3, item_id: 11, reason: 'wrong-qty' },
    ])
  })

  it("accepts the server's quantity only when allowed and not forced", () => {
    expect(diffCart([{ sku: 'A', qty: 3 }], [s(11, 'A', 1)], { serverCanModifyLocalItems: true })).toEqual([
      { type: 'accept-server-qty', sku: 'A', qty: 1, item_id: 11 },
    ])
  })

  it('links equal lines (server ids copied onto the client)', () => {
    expect(diffCart([{ sku: 'A', qty: 1 }], [{ ...s(11, 'A', 1), product_option: { x: 1 } }])).toEqual([
      { type: 'link', sku: 'A', item_id: 11, product_option: { x: 1 } },
    ])
  })

  it('server-only lines: deleted on the server when client state is forced, else added locally', () => {
    expect(diffCart([], [s(5, 'B', 1)], { forceClientState: true })).toEqual([
      { type: 'delete-server', sku: 'B', item_id: 5 },
    ])
    expect(diffCart([], [s(5, 'B', 1)])).toEqual([{ type: 'add-local', item: s(5, 'B', 1) }])
  })

  it('matches by server item id before sku', () => {
    const actions = diffCart([{ sku: 'A', qty: 1, server_item_id: 2 }], [s(1, 'A', 4), s(2, 'A', 1)])
    expect(actions).toEqual([
      { type: 'link', sku: 'A', item_id: 2, product_option: undefined },
      { type: 'add-local', item: s(1, 'A', 4) },
    ])
  })

  it.each([
    [2, 5, [{ type: 'accept-server-qty', sku: 'A', qty: 5, item_id: 1 }]],
    [5, 2, [{ type: 'push', sku: 'A', qty: 5, item_id: 1, reason: 'wrong-qty' }]],
    [3, 3, [{ type: 'link', sku: 'A', item_id: 1, product_option: undefined }]],
  ])('login merge takes max(client %i, server %i) and never sums', (client, server, expected) => {
    expect(diffCart([{ sku: 'A', qty: client }], [s(1, 'A', server)], { mergeStrategy: 'max' })).toEqual(
      expected,
    )
  })
})

describe('resolveFailedUpdate', () => {
  it.each([
    [
      { sku: 'A', qty: 9, prev_qty: 2, server_item_id: 1 },
      { type: 'restore', qty: 2 },
    ],
    [{ sku: 'A', qty: 9, prev_qty: 0, server_item_id: 1 }, { type: 'remove' }],
    [{ sku: 'A', qty: 1, prev_qty: 0 }, { type: 'remove' }],
    [{ sku: 'A', qty: 3, prev_qty: 2 }, { type: 'remove' }],
  ])('%o → %o', (item, expected) => {
    expect(resolveFailedUpdate(item)).toEqual(expected)
  })
})

describe('shouldConnectAuthorizedCart', () => {
  const base = { bypassEnabled: true, directBackendSync: false, now: 10_000_000, windowMs: 144e4 }
  it.each([
    [{ ...base, lastBypassAt: null }, true],
    [{ ...base, lastBypassAt: 10_000_000 - 144e4 + 1 }, false],
    [{ ...base, lastBypassAt: 10_000_000 - 144e4 }, true],
    [{ ...base, bypassEnabled: false, lastBypassAt: 10_000_000 }, true],
    [{ ...base, directBackendSync: true, lastBypassAt: 10_000_000 }, true],
  ])('%o → %s', (input, expected) => {
    expect(shouldConnectAuthorizedCart(input)).toBe(expected)
  })
})

describe('toQty', () => {
  it.each([
    ['3', 3],
    [2.7, 2],
    ['abc', 0],
    [null, 0],
  ])('%j → %i', (v, n) => expect(toQty(v)).toBe(n))
})
