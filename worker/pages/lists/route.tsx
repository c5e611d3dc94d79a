/**
 * Wishlist and compare pages:
 *   GET /wishlist   the wishlist (kept in the browser; the server history when signed in)
 *   GET /compare    compared products side by side on the comparable attributes (is_comparable)
 * The lists live in the browser, so the server renders the shells; the compare page gets the
 * comparable attributes' labels and option labels from the Commerce port.
 */

import { attributeLabel } from '@shared/components/product/view'
import { type CompareAttribute, ComparePageIsland } from '../../../client/islands/lists/compare-page'
import { WishlistPageIsland } from '../../../client/islands/lists/wishlist-page'
import { getCommerce } from '../../commerce'
import { renderPage } from '../../platform/render/render-page'
import type { RouteHandler, RouteHandlers } from '../../platform/router'

const wishlistPage: RouteHandler = (c) =>
  renderPage(c, <WishlistPageIsland currency={c.var.store.currency} />, {
    title: 'Wishlist',
    layout: 'default',
    entry: 'lists',
    meta: { robots: 'noindex' },
  })

const comparePage: RouteHandler = async (c) => {
  let attributes: CompareAttribute[] = []
  try {
    attributes = (await getCommerce(c).getAttributes())
      .filter((a) => a.is_comparable && a.frontend_input !== 'textarea')
      .map((a) => ({
        code: a.attribute_code,
        label: attributeLabel(a),
        input: a.frontend_input,
        options: a.options.map((o) => ({ value: String(o.value), label: o.label })),
      }))
  } catch (err) {
    // Without metadata the page still lists the products (names, prices).
    console.error(
      JSON.stringify({ requestId: c.var.requestId, msg: 'compare attributes failed', err: String(err) }),
    )
  }
  return renderPage(c, <ComparePageIsland currency={c.var.store.currency} attributes={attributes} />, {
    title: 'Compare products',
    layout: 'default',
    entry: 'lists',
    meta: { robots: 'noindex' },
  })
}

export const listPages = { wishlist: wishlistPage, compare: comparePage } satisfies RouteHandlers
