/**
 * A product's picture beside its name in a list or rail (recently viewed, complete the look,
 * compare, wishlist, a set's or bundle's pieces). It is decorative: the name beside it says what it
 * shows, so a screen reader does not hear it twice. It is fetched at one of the image route's sizes,
 * drawn at `shown` (that size unless given), loaded lazily and decoded off the main thread.
 */
import { IMAGE_SIZES, type ImageSize } from '../../config/images'
import { imageUrl } from '../../domain/image-url'

export function ListImage({
  path,
  size,
  shown = IMAGE_SIZES[size],
}: {
  path: string | null | undefined
  size: keyof typeof IMAGE_SIZES
  shown?: ImageSize
}) {
  const { width, height } = IMAGE_SIZES[size]
  return (
    <img
      src={imageUrl(path, width, height)}
      alt=""
      width={shown.width}
      height={shown.height}
      loading="lazy"
      decoding="async"
    />
  )
}
