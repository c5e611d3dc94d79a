/**
 * The picture of an order line on the confirmation and order pages: the image the line was bought
 * with, through the image route at the listing's renditions (srcset), or nothing at all when the
 * line has none (never a broken image).
 */
import { tileImage } from '@shared/components/catalog/images'

/** Shown at 64 × 96 CSS pixels (the catalogue's 2:3 shape). */
const SHOWN = { width: 64, height: 96 }

export function OrderLineImage({ path }: { path?: string | null }) {
  if (!path) return null
  const { src, srcSet } = tileImage(path)
  return (
    <img
      className="order-line__image"
      src={src}
      srcSet={srcSet}
      sizes={`${SHOWN.width}px`}
      width={SHOWN.width}
      height={SHOWN.height}
      alt=""
      loading="lazy"
      data-testid="order-line-image"
    />
  )
}
