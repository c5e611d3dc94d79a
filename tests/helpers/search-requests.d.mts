// Types of tests/helpers/search-requests.mjs for the TypeScript tests that import it.
export const SHOP_LISTED: Record<string, unknown>[]
export function shopListing(...more: unknown[]): { query: Record<string, unknown> }
export function catalogScope(attr: string, values: unknown[]): Record<string, unknown>
export const COLOUR_PRICE_AGGS: Record<string, Record<string, unknown>>
