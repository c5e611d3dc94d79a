import { describe, expect, it } from 'vitest'
import { AUTHORIZED_CART_BYPASS_MS, STOCK_LIST_CHUNK } from '../../../../client/engines/runtime/config'
import { storageKey } from '../../../../client/storage/limits'
import {
  AGGREGATION_SIZE,
  availablePaymentMethods,
  CAROUSEL,
  CATEGORY_FETCH_SIZE,
  CATEGORY_FETCH_SORT,
  CHECKOUT_ACTIVITY_WINDOW_MS,
  CURATED_HOME_QUERIES,
  colorSwatch,
  DEFAULT_FILTERS,
  DEFAULT_PRICE_FILTER,
  FLAGS,
  GALLERY,
  IMAGE_SIZES,
  LAZY_IMAGE,
  PAGE_SIZE,
  PRICE_RANGES,
  PRODUCT_LOAD_GUARD_MS,
  parsePaymentCurrencies,
  RECENTLY_VIEWED_MAX,
  SEARCH_MIN_SCORE,
  SHIPPING_METHODS,
  unavailablePaymentMethods,
} from '../../../../shared/config'

describe('shop constants', () => {
  it.each([
    ['page size', PAGE_SIZE, 24],
    ['category fetch size', CATEGORY_FETCH_SIZE, 4000],
    ['category fetch sort', CATEGORY_FETCH_SORT, 'position:asc'],
    ['aggregation size', AGGREGATION_SIZE, 100],
    ['search min score', SEARCH_MIN_SCORE, 0.02],
    ['recently viewed max', RECENTLY_VIEWED_MAX, 20],
    ['stock chunk', STOCK_LIST_CHUNK, 15],
    ['load guard', PRODUCT_LOAD_GUARD_MS, 20_000],
    ['checkout window', CHECKOUT_ACTIVITY_WINDOW_MS, 1_800_000],
    ['cart bypass', AUTHORIZED_CART_BYPASS_MS, 1_440_000],
  ])('%s', (_name, actual, expected) => {
    expect(actual).toBe(expected)
  })

  it("keeps the default filters and price ranges in the shop's order", () => {
    expect(DEFAULT_FILTERS).toEqual([
      'rts',
      'gender',
      'category_product',
      'color',
      'discount',
      'size',
      'category',
      'designer',
      'price',
    ])
    // INR bands that tile the whole price line: from 0, each starting where the last ended, the top one open.
    expect(PRICE_RANGES[0]?.from).toBe(0)
    for (let i = 1; i < PRICE_RANGES.length; i++) expect(PRICE_RANGES[i]?.from).toBe(PRICE_RANGES[i - 1]?.to)
    expect(PRICE_RANGES.at(-1)?.to).toBeUndefined()
    expect(PRICE_RANGES.length).toBeGreaterThanOrEqual(4)
    expect(DEFAULT_PRICE_FILTER).toEqual({ from: 0, to: 100 })
  })

  it.each([
    ['gallery', 600, 744],
    ['thumbnail', 310, 300],
    ['cart', 150, 150],
    ['listing', 280, 419],
    ['hoverZoom', 800, 1212],
    ['ampGallery', 450, 500],
  ] as const)('image size %s is %dx%d', (name, width, height) => {
    expect(IMAGE_SIZES[name]).toEqual({ width, height })
  })

  it('display behaviour', () => {
    expect(GALLERY).toEqual({ intervalMs: 5000, transitionMs: 300, preloadRange: 2, swipeThresholdPx: 20 })
    expect(LAZY_IMAGE).toEqual({ retries: 3, preLoadFactor: 1.3, throttleMs: 200 })
    expect(CAROUSEL).toEqual({ perPage: 2, speedMs: 500, autoplayMs: 2000 })
  })

  it('flags and checkout', () => {
    expect(FLAGS.listOutOfStockProducts).toBe(true)
    expect(FLAGS.offlineOrdersAutoTransmit).toBe(false)
    expect(SHIPPING_METHODS).toHaveLength(1)
    expect(SHIPPING_METHODS[0]?.method_code).toBe('flatrate')
    expect(CURATED_HOME_QUERIES.map((q) => q.categoryId)).toEqual([189, 190])
  })
})

describe('availablePaymentMethods: only methods that charge the currency shown', () => {
  it.each([
    ['INR', ['simple'], ['card', 'cashondelivery']],
    ['INR', ['virtual', 'simple'], ['card', 'cashondelivery']],
    ['INR', ['virtual', 'downloadable'], ['card']],
    ['INR', ['downloadable'], ['card']],
    ['INR', [], ['card', 'cashondelivery']],
    ['USD', ['simple'], ['paypal_standard']],
    ['GBP', ['virtual'], ['paypal_standard']],
  ])('%s, %j → %j', (currency, typeIds, codes) => {
    expect(availablePaymentMethods({ currency, typeIds }).map((m) => m.code)).toEqual(codes)
  })
  it('follows the configured currencies: cards in dollars, PayPal off', () => {
    const currencies = parsePaymentCurrencies('card=INR USD; paypal_standard=', ['INR', 'USD', 'GBP'])
    expect(
      availablePaymentMethods({ currency: 'USD', typeIds: ['simple'], currencies }).map((m) => m.code),
    ).toEqual(['card'])
    const none = unavailablePaymentMethods({ currency: 'GBP', typeIds: ['simple'], currencies })
    // A method the shop turned off is not offered, and says nothing.
    expect(none.map((m) => m.code)).toEqual(['card', 'cashondelivery'])
    expect(none[0]?.reason).toBe(
      'UPI, cards, netbanking or wallets: charged in INR or USD, not GBP. Choose INR or USD as your currency to pay this way.',
    )
  })
  it('says why cash on delivery is not offered for an address', () => {
    const abroad = unavailablePaymentMethods({ currency: 'INR', typeIds: ['simple'], country: 'GB' })
    expect(abroad).toEqual([
      expect.objectContaining({ code: 'paypal_standard' }),
      {
        code: 'cashondelivery',
        reason: 'Cash on delivery is available only for addresses in India.',
      },
    ])
    const pin = unavailablePaymentMethods({
      currency: 'INR',
      typeIds: ['simple'],
      country: 'IN',
      postcode: '110099',
      codServiceable: false,
    })
    expect(pin.find((m) => m.code === 'cashondelivery')?.reason).toBe(
      'Cash on delivery is not available for PIN 110099.',
    )
  })
  it('refuses a setting naming an unknown method or currency, saying which', () => {
    expect(() => parsePaymentCurrencies('bitcoin=USD', ['INR'])).toThrow(/'bitcoin=USD' is not METHOD=CODES/)
    expect(() => parsePaymentCurrencies('card=EUR', ['INR', 'USD'])).toThrow(
      'card names EUR, not one of INR, USD',
    )
  })
})

describe('colorSwatch and storageKey', () => {
  it.each([
    ['Black', '#000000'],
    [' Sky  Blue ', '#87ceeb'],
    ['unknown', null],
    [null, null],
  ])('%j → %j', (label, expected) => {
    expect(colorSwatch(label)).toBe(expected)
  })
  it('prefixes collections with the store code', () => {
    expect(storageKey('default', 'orders')).toBe('default-orders')
  })
})
