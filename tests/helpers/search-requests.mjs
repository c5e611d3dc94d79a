// The storefront's catalogue requests as its search client sends them, shared by the benches and
// the search tests: the listing's filter and its colour and price facets.

/** A listed product: visible in the catalogue (2, 3, 4) and enabled (0, 1). */
export const SHOP_LISTED = [{ terms: { visibility: [2, 3, 4] } }, { terms: { status: [0, 1] } }]

/** A listing body: the listed products that meet every one of `more` (a filter: no score). */
export function shopListing(...more) {
  return { query: { bool: { filter: { bool: { must: [...SHOP_LISTED, ...more] } } } } }
}

/**
 * The catalogue-scope filter on an attribute: a product of one of `values` itself, or a
 * configurable offering one of them among its options.
 */
export function catalogScope(attr, values) {
  return {
    bool: {
      should: [
        { terms: { [attr]: values } },
        {
          bool: {
            must: [{ terms: { [`${attr}_options`]: values } }, { match: { type_id: 'configurable' } }],
          },
        },
      ],
    },
  }
}

/** The listing's colour facets and its four price bands. */
export const COLOUR_PRICE_AGGS = {
  agg_terms_color: { terms: { field: 'color', size: 100 } },
  agg_terms_color_options: { terms: { field: 'color_options', size: 100 } },
  agg_range_price: {
    range: {
      field: 'price',
      ranges: [{ from: 0, to: 50 }, { from: 50, to: 100 }, { from: 100, to: 150 }, { from: 150 }],
    },
  },
}
