/**
 * Where a CMS page lives: the pages with a route of their own (/magazine, /ode-to-handloom…) at
 * that path, every other one at /i/<identifier>; its AMP version at /amp/i/<identifier>. The
 * canonical page and its AMP version link to each other through these two.
 */

/** CMS identifiers served at /<identifier> by a named content route. */
export const NAMED_CMS_PAGES = [
  'magazine',
  'covers',
  'press',
  'past-collections',
  'about-us-author',
  'stockists',
] as const

/** The canonical path of the CMS page `identifier`. */
export function cmsPagePath(identifier: string): string {
  if ((NAMED_CMS_PAGES as readonly string[]).includes(identifier) || /^ode-to-[a-z0-9-]+$/.test(identifier))
    return `/${identifier}`
  return `/i/${encodeURIComponent(identifier)}`
}

/** The AMP version of the CMS page `identifier`. */
export function ampCmsPagePath(identifier: string): string {
  return `/amp/i/${encodeURIComponent(identifier)}`
}
