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

/** Largest original image the image route resizes and the upload stores (bytes). */
export const MAX_IMAGE_SOURCE_BYTES = 20 * 1024 * 1024

/** Longest path of an imported image (characters, leading slash included). */
const MAX_IMAGE_PATH_CHARS = 256
const RASTER_EXTENSION = /\.(jpe?g|png|webp|gif|avif)$/i
const IMAGE_PATH_CHARS = /^(\/[A-Za-z0-9_.-]+)+$/

/** Whether a path names a raster image (an imported catalogue's; the demo's drawings are SVG). */
export function isRasterPath(path: string): boolean {
  return RASTER_EXTENSION.test(path)
}

/**
 * Why a path cannot name an imported image, or null when it can: at most MAX_IMAGE_PATH_CHARS
 * characters, `/`-separated segments of letters, digits, `_`, `-` and `.`, none of them `.` or
 * `..`, ending in a raster extension. The image route looks up only such paths, and the image
 * upload stores only such keys, so every uploaded image can be asked for.
 */
export function imagePathProblem(path: string): string | null {
  if (path.length > MAX_IMAGE_PATH_CHARS)
    return `Image path is longer than ${MAX_IMAGE_PATH_CHARS} characters`
  if (!IMAGE_PATH_CHARS.test(path) || path.split('/').some((s) => s === '.' || s === '..'))
    return 'Image path may only hold letters, digits, "_", "-", "." and "/" segments'
  if (!isRasterPath(path)) return 'Image path must end in .jpg, .jpeg, .png, .webp, .gif or .avif'
  return null
}
