/**
 * Instant navigations: the speculation rules pages carry. A shopper hovering or pressing a link
 * (moderate eagerness) to another catalogue page — a product from a listing, a category from the
 * menu — has it prefetched. Only pages that are the same for every anonymous visitor qualify
 * (they come from the output cache and set no cookie); cart, checkout, account, wishlist, order,
 * admin, API, search and any URL with a query are never fetched ahead. A prefetch runs no script, so analytics
 * count a page only when it is shown.
 */
export const SPECULATION_RULES = {
  prefetch: [
    {
      source: 'document',
      where: {
        and: [
          { href_matches: '/*' },
          {
            not: {
              href_matches: [
                '/cart{/*}?',
                '/checkout{/*}?',
                '/confirmation{/*}?',
                '/my-account{/*}?',
                '/wishlist',
                '/compare',
                '/invalidate',
                '/amp/*',
                '/order/*',
                '/admin{/*}?',
                '/api/*',
                '/search*',
                '/*\\?*',
              ],
            },
          },
          { not: { selector_matches: '[rel~=nofollow], [download]' } },
        ],
      },
      eagerness: 'moderate',
    },
  ],
} as const

/** Page types whose links are worth fetching ahead (catalogue browsing). */
export const SPECULATING_PAGES: readonly string[] = ['home', 'category', 'product', 'content', 'default']
