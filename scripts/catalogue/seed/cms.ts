/** The CMS pages of every content route, and the CMS blocks pages embed. */
import { SUPPORT_EMAIL, SUPPORT_HOURS, SUPPORT_PHONE } from '../../../shared/config/content'
import type { CmsBlock, CmsPage } from '../../../shared/schemas/catalog'
import { CMS_PAGE_IDENTIFIERS, CMS_PAGES } from './cms-pages'

/** A page title from its identifier ('about-us' → 'About us', 'no-route' → '404 Not Found'). */
function titleOf(identifier: string): string {
  if (identifier === 'no-route') return '404 Not Found'
  if (identifier === 'faq') return 'FAQ'
  return identifier
    .split('-')
    .map((w) => (w === 'to' || w === 'and' || w === 'us' ? w : (w[0]?.toUpperCase() ?? '') + w.slice(1)))
    .join(' ')
    .replace(/^./, (c) => c.toUpperCase())
}

/** One active CMS page per identifier, each with its own text (PAGES in cms-pages.ts). */
export function buildCmsPages(): CmsPage[] {
  return CMS_PAGE_IDENTIFIERS.map((identifier, k) => {
    const title = titleOf(identifier)
    const page = CMS_PAGES[identifier]
    return {
      id: k + 1,
      identifier,
      title,
      content: page.html,
      content_heading: title,
      meta_title: title,
      meta_description: page.summary,
      meta_keywords: null,
      is_active: true,
      page_layout: '1column',
      store_id: 0,
      creation_time: '2025-01-01 00:00:00',
      update_time: '2025-06-01 00:00:00',
    }
  })
}

/** The CMS blocks (one inactive, which no page may show). */
export function buildCmsBlocks(): CmsBlock[] {
  const blocks: Array<[string, string, string]> = [
    [
      'footer-about',
      'About the shop',
      '<p>Designer Indian fashion, handcrafted by artisans and shipped worldwide.</p>',
    ],
    [
      'footer-links',
      'Footer links',
      '<ul><li><a href="/about-us">About us</a></li><li><a href="/i/shipping-and-returns">Shipping &amp; returns</a></li><li><a href="/contact">Contact</a></li><li><a href="/store-locator">Store locator</a></li></ul>',
    ],
    [
      'home-intro',
      'Home intro',
      "<p>New festive edit: sarees, lehengas and sherwanis from India's finest designers.</p>",
    ],
    [
      'product-care',
      'Product care',
      '<p>Dry clean only. Store in a muslin bag away from direct sunlight.</p>',
    ],
    [
      'shipping-info',
      'Shipping information',
      '<p>Free shipping within India on orders above ₹2,999. International shipping to 40+ countries.</p>',
    ],
    ['size-chart-note', 'Size chart note', '<p>Measurements are body measurements in inches.</p>'],
    ['newsletter-text', 'Newsletter', '<p>Sign up for early access to new collections.</p>'],
    [
      'contact-details',
      'Contact details',
      `<p>Call ${SUPPORT_PHONE} (${SUPPORT_HOURS}) or write to ${SUPPORT_EMAIL}.</p>`,
    ],
    ['checkout-note', 'Checkout note', '<p>All prices include GST for deliveries within India.</p>'],
    ['inactive-block', 'Inactive block', '<p>Not shown.</p>'],
  ]
  return blocks.map(([identifier, title, content], k) => ({
    id: k + 1,
    identifier,
    title,
    content,
    is_active: identifier !== 'inactive-block',
    store_id: 0,
    creation_time: '2025-01-01 00:00:00',
    update_time: '2025-06-01 00:00:00',
  }))
}
