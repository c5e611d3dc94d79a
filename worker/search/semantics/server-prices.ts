/**
 * The price fields vue-storefront-api's tax processor adds to every product it answers (the ones a
 * storefront with server-side tax calculation reads), computed here by the shop's one price
 * function (`priceView`) for the visitor's country, on the product and on every variant:
 *
 *   original_price, original_price_incl_tax, original_price_tax   the regular price (no special)
 *   price_incl_tax, price_tax                                     what is charged now (the special
 *                                                                 price while it runs)
 *   special_price_incl_tax, special_price_tax                     the running special price, else 0
 *   final_price_incl_tax, final_price_tax                         the charged price
 *   final_price                                                   derived when the document has
 *                                                                 none (see derivedFinalPrice)
 *
 * `*_incl_tax` is what the visitor's country pays, the bare and `original_price` amounts are the
 * same without its tax, `*_tax` the difference; amounts in the catalogue's currency, to the
 * hundredth. The stored `price` and `special_price` are left as they are (our own pages and islands
 * price documents with priceView from them). A configurable's own fields are its cheapest variant's,
 * as in vue-storefront-api.
 */
import { listingPriceView } from '@shared/components/catalog/tile-price'
import { baseCurrency, HOME_COUNTRY } from '@shared/config/store'
import { priceView } from '@shared/domain/price'
import { cheapestVariant } from '@shared/domain/price-parts'
import { finalPrice, type PriceFields } from '@shared/domain/price-window'
import type { TaxRuleFields } from '@shared/domain/tax-rules'

type Doc = Record<string, unknown>

const cents = (x: number) => Math.round(x * 100) / 100

function isDoc(v: unknown): v is Doc {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function childrenOf(doc: Doc): Doc[] {
  return Array.isArray(doc.configurable_children) ? doc.configurable_children.filter(isDoc) : []
}

/**
 * The final price a document without one is filtered and sorted by: the running special price or
 * the price; for a configurable, its cheapest variant's. Null when the document has no price.
 */
function derivedFinalPrice(doc: Doc, now: number): number | null {
  if (typeof doc.final_price === 'number') return doc.final_price
  const children = childrenOf(doc)
  if (doc.type_id === 'configurable' && children.length) {
    const cheapest = cheapestVariant(children as unknown as Parameters<typeof cheapestVariant>[0], now)
    if (cheapest) return finalPrice(cheapest, now)
  }
  return typeof doc.price === 'number' ? finalPrice(doc as PriceFields, now) : null
}

/** The document with `final_price` derived where it (or a variant's) is missing (a copy; null = as is). */
function withDerivedFinalPrice(doc: Doc, now: number): Doc {
  const children = childrenOf(doc)
  const childMissing = children.some(
    (ch) => typeof ch.final_price !== 'number' && typeof ch.price === 'number',
  )
  if (typeof doc.final_price === 'number' && !childMissing) return doc
  const out: Doc = { ...doc }
  const own = derivedFinalPrice(doc, now)
  if (own !== null) out.final_price = own
  if (childMissing) {
    out.configurable_children = (doc.configurable_children as unknown[]).map((ch) => {
      if (!isDoc(ch) || typeof ch.final_price === 'number' || typeof ch.price !== 'number') return ch
      return { ...ch, final_price: finalPrice(ch as PriceFields, now) }
    })
  }
  return out
}

/**
 * The document as the search index prices it: `final_price` derived where missing, and for a
 * grouped set its listing price (listingPriceView: its cheapest piece, the price its tile shows
 * "from") instead of the whole set's, so the price filter, the price facet and the price sort of a
 * shopper at home read the number the tile shows (the shown prices of other shoppers follow the
 * same rule: shown-prices.ts). A copy when anything changes.
 */
export function withIndexedFinalPrice(doc: Doc, now: number): Doc {
  const out = withDerivedFinalPrice(doc, now)
  if (out.type_id !== 'grouped') return out
  const { view, from } = listingPriceView(out as Parameters<typeof listingPriceView>[0], {
    now,
    currency: baseCurrency(),
    country: HOME_COUNTRY,
    taxRules: [],
  })
  const listed = view.unitMinor / 100
  return from && out.final_price !== listed ? { ...out, final_price: listed } : out
}

/** What the price fields are computed for: the moment, the catalogue's tax rules, the visitor's country. */
export interface PriceContext {
  now: number
  taxRules: readonly TaxRuleFields[]
  country: string
}

/** The tax processor's fields of one priced document (a product, or a variant priced alone). */
function fieldsOf(doc: Doc, ctx: PriceContext): Doc {
  const view = priceView(doc as Parameters<typeof priceView>[0], {
    now: ctx.now,
    currency: baseCurrency(),
    taxRules: ctx.taxRules,
    country: ctx.country,
  })
  const special = view.specialInclTax != null && view.special != null
  return {
    original_price: cents(view.regular),
    original_price_incl_tax: cents(view.regularInclTax),
    original_price_tax: cents(view.regularInclTax - view.regular),
    price_incl_tax: cents(view.finalInclTax),
    price_tax: cents(view.finalInclTax - view.final),
    special_price_incl_tax: special ? cents(view.specialInclTax as number) : 0,
    special_price_tax: special ? cents((view.specialInclTax as number) - (view.special as number)) : 0,
    final_price_incl_tax: cents(view.finalInclTax),
    final_price_tax: cents(view.finalInclTax - view.final),
  }
}

/**
 * A product document (as answered by the search engine) with the tax processor's fields on it and
 * on each variant, for the visitor's country. A document without a price (a source filter left it
 * out) is returned as it is.
 */
export function withServerPrices(doc: Doc, ctx: PriceContext): Doc {
  if (typeof doc.price !== 'number' && !childrenOf(doc).length) return doc
  const out = withDerivedFinalPrice(doc, ctx.now)
  const priced: Doc = { ...out, ...fieldsOf(out, ctx) }
  if (Array.isArray(out.configurable_children)) {
    priced.configurable_children = out.configurable_children.map((ch) => {
      if (!isDoc(ch) || typeof ch.price !== 'number') return ch
      const variant = { ...ch, type_id: 'simple', tax_class_id: ch.tax_class_id ?? doc.tax_class_id }
      return { ...ch, ...fieldsOf(variant, ctx) }
    })
  }
  return priced
}
