/**
 * Image URLs, sizes and the placeholder for catalogue tiles (a missing image or the 'no_selection'
 * marker shows the placeholder).
 */
import { IMAGE_SIZES, type ImageSize } from '../../config/images'
import { imageUrl, isRasterPath } from '../../domain/image-url'

/** Tile renditions for srcset: listing 280x419, thumb 400x600, policy 585x878 (all 2:3). */
const TILE_RENDITIONS: readonly ImageSize[] = [IMAGE_SIZES.listing, IMAGE_SIZES.thumb, IMAGE_SIZES.policy]
/** The tile's intrinsic size (width/height attributes reserve the box: no layout shift). */
export const TILE_IMAGE_SIZE: ImageSize = IMAGE_SIZES.listing
/** Grid slot widths: 2 columns under 768 px, else 4 of a 1280 px max container. */
export const TILE_SIZES_ATTR = '(max-width: 767px) 50vw, (max-width: 1280px) 25vw, 320px'

/** A neutral 2:3 SVG placeholder (data: URL, allowed by the CSP's img-src). */
export const PLACEHOLDER_IMAGE = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 280 419"><rect width="280" height="419" fill="#efe9e1"/><path d="M112 180h56v56h-56z" fill="#ddd4c8"/></svg>',
)}`

/** The src and srcset of an image path at the tile renditions. */
export function tileImage(path: string): { src: string; srcSet: string } {
  const src = imageUrl(path, TILE_IMAGE_SIZE.width, TILE_IMAGE_SIZE.height)
  const srcSet = TILE_RENDITIONS.map((s) => `${imageUrl(path, s.width, s.height)} ${s.width}w`).join(', ')
  return { src, srcSet }
}

/**
 * The src and srcset of a product-page gallery image: gallery 600w and hover zoom 800w for a
 * photograph (an imported catalogue's raster image, resized by the image route), one 1x candidate
 * for a drawn SVG image (resolution-independent; the route serves only the catalogue sizes).
 */
export function galleryImage(path: string | null | undefined): { src: string; srcSet: string } {
  const { gallery, hoverZoom } = IMAGE_SIZES
  const src = imageUrl(path, gallery.width, gallery.height)
  if (!path || !isRasterPath(path.trim())) return { src, srcSet: `${src} 1x` }
  return {
    src,
    srcSet: `${src} ${gallery.width}w, ${imageUrl(path, hoverZoom.width, hoverZoom.height)} ${hoverZoom.width}w`,
  }
}
