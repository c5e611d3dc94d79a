import { describe, expect, it } from 'vitest'
import {
  isSuppressedErrorMessage,
  MSG,
  msgCategoryQueryEmpty,
  msgCompareAdded,
  msgCompareRemoved,
  msgOrderValidation,
  msgProductRejected,
  msgProductSearchKeyMissing,
  PAGE_TEXT,
} from '../../../../shared/i18n/messages'

describe('user-visible messages are verbatim', () => {
  it.each([
    [MSG.productAddedToCart, 'Product has been added to the cart!'],
    [MSG.priceUnknown, 'Product price is unknown, product cannot be added to the cart!'],
    [MSG.fieldRequired, 'Field is required.'],
    [MSG.mustBeGreaterThanZero, 'Must be greater than 0'],
    [MSG.noAvailableVariants, 'No available product variants'],
    [MSG.outOfStockBadge, 'Out Of Stock'],
    [MSG.orderException, 'The order can not be transfered because of server error. Order has been queued'],
    [PAGE_TEXT.totalsCountryMissing, 'Please do set the tax.defaultCountry in order to calculate totals.'],
    [
      MSG.queuedOrderOutOfStock,
      "Some products you've ordered are out of stock. Your order has been canceled.",
    ],
    [MSG.noProductsFoundTitle, 'No products found!'],
  ])('%s', (actual, expected) => {
    expect(actual).toBe(expected)
  })

  it.each([
    [msgCategoryQueryEmpty('slug', 'women'), 'Category query returned empty result slug = women'],
    [msgProductRejected(2, 1), 'Product query returned empty result product status = 2 or visibility = 1'],
    [
      msgOrderValidation('care@shop.test'),
      'Internal validation error. Please check if all required fields are filled in. Please contact us on care@shop.test',
    ],
    [msgCompareAdded('Kurta'), 'Product Kurta has been added to the compare!'],
    [msgCompareRemoved('Kurta'), 'Product Kurta has been removed from compare!'],
    [msgProductSearchKeyMissing('sku'), 'Please provide the search key sku for product/single action!'],
  ])('template %s', (actual, expected) => {
    expect(actual).toBe(expected)
  })
})

describe('isSuppressedErrorMessage', () => {
  it.each([
    ['The Product that you are trying to add is not available.', true],
    ['Consumer is not AUTHORIZED to access self.', true],
    ['Cart not found', false],
  ])('%s → %s', (message, expected) => {
    expect(isSuppressedErrorMessage(message)).toBe(expected)
  })
})
