/**
 * Image URLs. Catalogue documents reference images by a path (e.g. '/p/kurta-red.svg',
 * '/b/cat-sarees.svg'); the worker's image route renders them at one of the allowed sizes:
 * GET /img/{width}/{height}{path}. An image path containing Magento's `no_selection` marker (or
 * no path at all) is replaced by the placeholder image.
 */
import { NO_SELECTION_MARKER } from '../config/images'

/** The placeholder image path (rendered by the image route like any other image). */
const PLACEHOLDER_IMAGE_PATH = '/placeholder.svg'

/** Whether an image path is missing or a Magento 'no_selection' marker (→ placeholder). */
export function isPlaceholderImage(path: string | null | undefined): boolean {
  return !path?.trim() || path.includes(NO_SELECTION_MARKER)
}

/**
 * The URL of an image path at width × height: '/img/{w}/{h}{path}'. Empty paths and paths
 * containing 'no_selection' give the placeholder; absolute http(s) URLs are returned unchanged.
 */
export function imageUrl(path: string | null | undefined, width: number, height: number): string {
  const p = isPlaceholderImage(path) ? PLACEHOLDER_IMAGE_PATH : (path as string).trim()
  if (/^https?:\/\//i.test(p)) return p
  return `/img/${Math.round(width)}/${Math.round(height)}${p.startsWith('/') ? p : `/${p}`}`
}
