import { describe, expect, it } from 'vitest'
import { diffCart, shouldConnectAuthorizedCart, toQty } from '../../../../shared/domain/cart-diff'

const red = { color: 'red' }
const blue = { color: 'blue' }

describe('diffCart: which server line belongs to a client line', () => {
  it.each([
    [
      'same sku, same options: linked',
      [{ sku: 'K', qty: 1, product_option: red }],
      [{ item_id: 7, sku: 'K', qty: 1, product_option: red }],
      [{ type: 'link', sku: 'K', item_id: 7, product_option: red }],
    ],
    [
      'same sku, other options: a different line (pushed), the server line is added locally',
      [{ sku: 'K', qty: 1, product_option: red }],
      [{ item_id: 7, sku: 'K', qty: 1, product_option: blue }],
      [
        { type: 'push', sku: 'K', qty: 1, reason: 'missing-on-server' },
        { type: 'add-local', item: { item_id: 7, sku: 'K', qty: 1, product_option: blue } },
      ],
    ],
    [
      'two option variants of one sku pair up with their own server lines',
      [
        { sku: 'K', qty: 1, product_option: blue },
        { sku: 'K', qty: 2, product_option: red },
      ],
      [
        { item_id: 7, sku: 'K', qty: 2, product_option: red },
        { item_id: 8, sku: 'K', qty: 1, product_option: blue },
      ],
      [
        { type: 'link', sku: 'K', item_id: 8, product_option: blue },
        { type: 'link', sku: 'K', item_id: 7, product_option: red },
      ],
    ],
    [
      'options missing on the client do not prevent a match',
      [{ sku: 'K', qty: 1 }],
      [{ item_id: 7, sku: 'K', qty: 1, product_option: red }],
      [{ type: 'link', sku: 'K', item_id: 7, product_option: red }],
    ],
    [
      'options missing on the server do not prevent a match',
      [{ sku: 'K', qty: 1, product_option: red }],
      [{ item_id: 7, sku: 'K', qty: 1 }],
      [{ type: 'link', sku: 'K', item_id: 7, product_option: undefined }],
    ],
    [
      'a stale server id (cart recreated) falls back to the sku',
      [{ sku: 'K', qty: 1, server_item_id: 99 }],
      [{ item_id: 7, sku: 'K', qty: 1 }],
      [{ type: 'link', sku: 'K', item_id: 7, product_option: undefined }],
    ],
    [
      'a confirmed line keeps its server line even when the server reports other options',
      [{ sku: 'K', qty: 1, server_item_id: 7, product_option: red }],
      [{ item_id: 7, sku: 'K', qty: 1, product_option: blue }],
      [{ type: 'link', sku: 'K', item_id: 7, product_option: blue }],
    ],
    [
      'an unconfirmed line (null id) is matched by sku, never by a server line that lacks an id',
      [{ sku: 'K', qty: 1, server_item_id: null }],
      [
        { item_id: null as unknown as number, sku: 'OTHER', qty: 1 },
        { item_id: 7, sku: 'K', qty: 1 },
      ],
      [
        { type: 'link', sku: 'K', item_id: 7, product_option: undefined },
        { type: 'add-local', item: { item_id: null, sku: 'OTHER', qty: 1 } },
      ],
    ],
    [
      'server quantities arriving as strings are compared as numbers',
      [{ sku: 'K', qty: 2 }],
      [{ item_id: 7, sku: 'K', qty: '2' as unknown as number }],
      [{ type: 'link', sku: 'K', item_id: 7, product_option: undefined }],
    ],
  ])('%s', (_name, client, server, expected) => {
    expect(diffCart(client, server)).toEqual(expected)
  })
})

describe('diffCart: forced client state overrides every server-wins setting', () => {
  const client = [{ sku: 'A', qty: 3 }]
  const server = [{ item_id: 1, sku: 'A', qty: 5 }]
  it.each([
    ['max merge', { mergeStrategy: 'max' as const }],
    ['server may modify', { serverCanModifyLocalItems: true }],
    ['both', { mergeStrategy: 'max' as const, serverCanModifyLocalItems: true }],
  ])('%s + forceClientState pushes the client quantity', (_name, opts) => {
    expect(diffCart(client, server, { ...opts, forceClientState: true })).toEqual([
      { type: 'push', sku: 'A', qty: 3, item_id: 1, reason: 'wrong-qty' },
    ])
  })
  it('without forcing, max merge keeps the larger server quantity', () => {
    expect(diffCart(client, server, { mergeStrategy: 'max' })).toEqual([
      { type: 'accept-server-qty', sku: 'A', qty: 5, item_id: 1 },
    ])
  })
})

describe('shouldConnectAuthorizedCart', () => {
  it.each([
    ['no bypass recorded, clock near 0', { lastBypassAt: null, now: 1_000 }, true],
    ['bypass 1 ms ago, clock near 0', { lastBypassAt: 999, now: 1_000 }, false],
  ])('%s → %s', (_name, input, expected) => {
    expect(
      shouldConnectAuthorizedCart({
        bypassEnabled: true,
        directBackendSync: false,
        windowMs: 144e4,
        ...input,
      }),
    ).toBe(expected)
  })
})

describe('toQty: a quantity from input or storage as a whole number', () => {
  it.each([
    [3, 3],
    [2.9, 2],
    [-2.5, -2],
    [1e-7, 0],
    ['4', 4],
    [' 5 ', 5],
    ['5 pcs', 5],
    ['2.9', 2],
    ['', 0],
    ['pcs 5', 0],
    [undefined, 0],
    [Number.NaN, 0],
    [Number.POSITIVE_INFINITY, 0],
    [{}, 0],
  ])('%j → %j', (value, expected) => {
    expect(toQty(value)).toBe(expected)
  })
})
