/**
 * State shared by the product page's islands (gallery, form, recently viewed): the selected
 * variant's image, so the gallery follows the variant picker.
 */
import { signal } from '@preact/signals-core'

/** The image (gallery entry) of the currently selected variant, or null for the product's own images. */
export const selectedVariantImage = signal<GalleryImage | null>(null)

export interface GalleryImage {
  /** Main image URL (gallery size). */
  src: string
  /** srcset for the main image (1x/2x). */
  srcSet: string
  /** Thumbnail URL. */
  thumb: string
  /** Zoom URL (hover zoom size). */
  zoom: string
  alt: string
  /** A video entry: the URL to play instead of the image. */
  video?: { url: string; title: string } | null
}
