/**
 * The demo products' custom options. A product's n-th option has the id `product id × 10 + n`;
 * its values have `product id × 100 + n × 10 + 1, 2, …` and sort in the order listed.
 */
import type { CustomOption } from '../../../shared/schemas/catalog'

/** A value of a choice: its title and its price, fixed (rupees) or a percent of the product's. */
type PricedValue = [title: string, price: number, priceType: 'fixed' | 'percent']

/** The n-th option, free text with a fixed price of its own (0: free). */
export function textOption(
  productId: number,
  n: number,
  title: string,
  price: number,
  required = false,
): CustomOption {
  return {
    option_id: productId * 10 + n,
    title,
    type: 'field',
    is_require: required,
    price,
    price_type: 'fixed',
    values: [],
  }
}

/** The n-th option, chosen from values that each carry their own price. */
export function choiceOption(
  productId: number,
  n: number,
  title: string,
  type: 'radio' | 'checkbox' | 'drop_down',
  required: boolean,
  values: readonly PricedValue[],
): CustomOption {
  return {
    option_id: productId * 10 + n,
    title,
    type,
    is_require: required,
    price: null,
    price_type: null,
    values: values.map(([valueTitle, price, priceType], i) => ({
      option_type_id: productId * 100 + n * 10 + i + 1,
      title: valueTitle,
      price,
      price_type: priceType,
      sort_order: i,
    })),
  }
}
