/** Small helpers for asserting on HTML responses in worker tests. */

export function titleOf(html: string): string | null {
  const m = html.match(/<title>([^<]*)<\/title>/)
  return m ? decodeEntities(m[1] ?? '') : null
}

export function layoutOf(html: string): string | null {
  return html.match(/<body[^>]*data-layout="([^"]+)"/)?.[1] ?? null
}

export function decodeEntities(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, '&')
}

/** The price text of the tile of `sku` in a listing's HTML (null when the page does not list it). */
export function tilePrice(html: string, sku: string): string | null {
  const at = html.indexOf(`data-sku="${sku}"`)
  if (at < 0) return null
  return /class="price(?: price--special)?">([^<]+)</.exec(html.slice(at))?.[1] ?? null
}
