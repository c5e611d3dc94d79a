/**
 * Structured data (schema.org JSON-LD) shared by canonical and AMP pages: Product with its offer
 * (price, currency, availability) and BreadcrumbList.
 */
import { toChargeMinor } from '@shared/domain/currency'
import type { Breadcrumb } from '@shared/domain/menu'

/** BreadcrumbList JSON-LD; crumbs without a link point at the current page. */
export function breadcrumbJsonLd(crumbs: readonly Breadcrumb[], origin: string, currentUrl: string) {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: crumbs.map((c, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: c.label,
      item: c.href ? new URL(c.href, origin).href : currentUrl,
    })),
  }
}

interface ProductLdInput {
  name: string
  sku: string
  description?: string | null
  image?: string | null
  url: string
  brand?: string | null
  /** Final price in the base currency (INR), incl. tax as shown. */
  priceInBase: number
  currency: string
  inStock: boolean
}

/** Product JSON-LD with one Offer in the display currency. */
export function productJsonLd(p: ProductLdInput) {
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: p.name,
    sku: p.sku,
    ...(p.description ? { description: p.description } : {}),
    ...(p.image ? { image: [p.image] } : {}),
    ...(p.brand ? { brand: { '@type': 'Brand', name: p.brand } } : {}),
    offers: {
      '@type': 'Offer',
      url: p.url,
      priceCurrency: p.currency,
      price: (toChargeMinor(p.priceInBase, p.currency) / 100).toFixed(2),
      availability: p.inStock ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
      itemCondition: 'https://schema.org/NewCondition',
    },
  }
}

/** Plain text of an HTML fragment (for meta descriptions, JSON-LD and AMP, which allow no markup). */
export function htmlToText(html: string | null | undefined, max = 5000): string {
  if (!html) return ''
  return html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, max)
}
