/**
 * Product gallery island: main image, thumbnails, video entries and zoom; slideshow interval 5000
 * ms, transition 300 ms, preload range 2, swipe threshold 20 px. The main image is eager with
 * fetchpriority high and explicit dimensions. It follows the variant picker through
 * `selectedVariantImage`.
 */

import { IMAGE_SIZES } from '@shared/config/images'
import { GALLERY } from '@shared/config/ui'
import { useEffect, useRef, useState } from 'react'
import { useSignalValue } from '../../state/use-signal'
import { defineIsland } from '../define'
import { Icon } from '../layout/icons'
import { array, bool, nullable, object, optional, schemaOf, str } from '../props-check'
import { type GalleryImage, selectedVariantImage } from './product-page-state'

const checkImage = object({
  src: str,
  srcSet: str,
  thumb: str,
  zoom: str,
  alt: str,
  video: optional(nullable(object({ url: str, title: str }))),
})

interface GalleryProps {
  images: GalleryImage[]
  name: string
  /** Start the slideshow (off by default; slides change every 5000 ms when on). */
  autoplay?: boolean
}

const GalleryPropsSchema = schemaOf<GalleryProps>(
  object({ images: array(checkImage), name: str, autoplay: optional(bool) }),
)

/** Indexes within `range` of `current` (wrapping), i.e. the images to preload. */
export function preloadIndexes(
  current: number,
  count: number,
  range: number = GALLERY.preloadRange,
): number[] {
  const out = new Set<number>()
  for (let d = -range; d <= range; d++) if (count > 0) out.add((((current + d) % count) + count) % count)
  return [...out]
}

/** The main image (a button that opens the zoom) or, for a video entry, the video. */
function GalleryMain({ image, onZoom }: { image: GalleryImage; onZoom: () => void }) {
  const { width, height } = IMAGE_SIZES.gallery
  return image.video ? (
    // biome-ignore lint/a11y/useMediaCaption: product videos have no speech
    <video
      className="gallery__video"
      src={image.video.url}
      controls
      playsInline
      poster={image.src}
      width={width}
      height={height}
      data-testid="gallery-video"
    />
  ) : (
    <button type="button" className="gallery__zoom-btn" onClick={onZoom} aria-label={`Zoom: ${image.alt}`}>
      <img
        className="gallery__main"
        src={image.src}
        srcSet={image.srcSet}
        sizes="(max-width: 767px) 100vw, 50vw"
        alt={image.alt}
        width={width}
        height={height}
        loading="eager"
        fetchPriority="high"
        decoding="async"
        data-testid="gallery-main"
      />
    </button>
  )
}

/** The thumbnails: the current one marked, a video marked with the play icon. */
function GalleryThumbs({
  images,
  index,
  name,
  onSelect,
}: {
  images: readonly GalleryImage[]
  index: number
  name: string
  onSelect: (i: number) => void
}) {
  return (
    <ul className="gallery__thumbs" aria-label={`${name} images`}>
      {images.map((img, i) => (
        <li key={`${img.src}|${img.video?.url ?? ''}`}>
          <button
            type="button"
            className={`gallery__thumb${i === index ? ' gallery__thumb--active' : ''}`}
            aria-current={i === index}
            onClick={() => onSelect(i)}
          >
            <img
              src={img.thumb}
              alt={img.video ? `${img.video.title} (video)` : img.alt}
              width={IMAGE_SIZES.thumbnail.width}
              height={IMAGE_SIZES.thumbnail.height}
              loading="lazy"
              decoding="async"
            />
            {img.video ? (
              <span className="gallery__thumb-play">
                <Icon name="play" />
              </span>
            ) : null}
          </button>
        </li>
      ))}
    </ul>
  )
}

/** The arrows either side of the main image: back one image, on one image. */
const GALLERY_STEPS = [
  { step: -1, side: 'prev', label: 'Previous image', icon: 'chevron-left' },
  { step: 1, side: 'next', label: 'Next image', icon: 'chevron-right' },
] as const

function ProductGallery({ images: own, name, autoplay = false }: GalleryProps) {
  const variantImage = useSignalValue(selectedVariantImage)
  const images: GalleryImage[] =
    variantImage && !own.some((i) => i.src === variantImage.src) ? [variantImage, ...own] : own
  const [index, setIndex] = useState(0)
  const [zoomed, setZoomed] = useState(false)
  const [playing, setPlaying] = useState(autoplay)
  const touchX = useRef<number | null>(null)
  const count = images.length

  // A newly selected variant shows its image first.
  useEffect(() => {
    if (!variantImage) return
    const at = own.findIndex((i) => i.src === variantImage.src)
    setIndex(Math.max(at, 0))
  }, [variantImage, own])

  useEffect(() => {
    if (!playing || count < 2) return
    const t = setInterval(() => setIndex((i) => (i + 1) % count), GALLERY.intervalMs)
    return () => clearInterval(t)
  }, [playing, count])

  if (count === 0) return <div className="gallery gallery--empty" aria-hidden="true" />
  const current = images[Math.min(index, count - 1)] as GalleryImage
  const go = (delta: number) => setIndex((i) => (((i + delta) % count) + count) % count)
  const preload = new Set(preloadIndexes(index, count))

  return (
    <div
      className="gallery"
      data-testid="gallery"
      style={{ ['--gallery-transition' as string]: `${GALLERY.transitionMs}ms` }}
    >
      <div
        className="gallery__stage"
        onTouchStart={(e) => {
          touchX.current = e.touches[0]?.clientX ?? null
        }}
        onTouchEnd={(e) => {
          const start = touchX.current
          const end = e.changedTouches[0]?.clientX
          touchX.current = null
          if (start == null || end == null) return
          const dx = end - start
          if (Math.abs(dx) >= GALLERY.swipeThresholdPx) go(dx < 0 ? 1 : -1)
        }}
      >
        <GalleryMain image={current} onZoom={() => setZoomed(true)} />
        {count > 1 ? (
          <>
            {GALLERY_STEPS.map(({ step, side, label, icon }) => (
              <button
                key={side}
                type="button"
                className={`gallery__nav gallery__nav--${side}`}
                onClick={() => go(step)}
                aria-label={label}
              >
                <Icon name={icon} />
              </button>
            ))}
            <button
              type="button"
              className="gallery__play"
              onClick={() => setPlaying((p) => !p)}
              aria-pressed={playing}
            >
              {playing ? 'Pause slideshow' : 'Play slideshow'}
            </button>
          </>
        ) : null}
        {/* Preload neighbours within the preload range. */}
        <div hidden>
          {images.map((img, i) =>
            i !== index && preload.has(i) && !img.video ? (
              <link key={img.src} rel="prefetch" href={img.src} />
            ) : null,
          )}
        </div>
      </div>
      {count > 1 ? <GalleryThumbs images={images} index={index} name={name} onSelect={setIndex} /> : null}
      {zoomed ? (
        <div className="gallery__zoom" role="dialog" aria-modal="true" aria-label={`${name} zoom`}>
          <button type="button" className="gallery__zoom-close" onClick={() => setZoomed(false)}>
            Close
          </button>
          <img
            src={current.zoom}
            alt={current.alt}
            width={IMAGE_SIZES.hoverZoom.width}
            height={IMAGE_SIZES.hoverZoom.height}
            data-testid="gallery-zoom"
          />
        </div>
      ) : null}
    </div>
  )
}

export const GalleryIsland = defineIsland('product-gallery', ProductGallery, GalleryPropsSchema)
