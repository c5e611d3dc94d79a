/**
 * The home hero: the head image and the main banners as one carousel showing one slide at a time.
 * Without JavaScript it is a scroll-snap strip (swipe, trackpad, or Tab through the slides' links
 * reaches every slide); client/islands/home/carousel.ts wires previous/next and the dots, which
 * name the slide they show. It never moves by itself. Only the first slide's image loads eagerly
 * (it is the page's largest paint); the others load when they come near.
 */
import { CAROUSEL } from '@shared/config/ui'
import { Icon } from '../../../client/islands/layout/icons'

interface HeroSlide {
  title: string
  link: string
  /** Wide-screen image URL. */
  image: string
  /** Phone image URL, when the banner has one. */
  mobileImage: string | null
}

/** Banner images are drawn at 12:5 on wide screens and cropped by CSS; these size the box before they load. */
const BANNER_BOX = { width: 1200, height: 500 }

export function HeroCarousel({ slides, label }: { slides: readonly HeroSlide[]; label: string }) {
  if (slides.length === 0) return null
  const count = slides.length
  return (
    <section
      className="carousel hero"
      aria-roledescription="carousel"
      aria-label={label}
      data-carousel=""
      data-per-page="1"
      data-speed={CAROUSEL.speedMs}
      data-autoplay="0"
      data-testid="home-hero"
    >
      <div className="carousel__track hero__track">
        {slides.map((s, i) => (
          // biome-ignore lint/a11y/useSemanticElements: a slide groups a banner, it is not a form's fieldset
          <div
            key={`${s.link}|${s.title}|${s.image}`}
            className="carousel__slide hero__slide"
            role="group"
            aria-roledescription="slide"
            aria-label={`${i + 1} of ${count}`}
            data-testid="hero-slide"
          >
            <a href={s.link} className="banner">
              <picture>
                {s.mobileImage ? <source media="(max-width: 767px)" srcSet={s.mobileImage} /> : null}
                {/* The title below names the link; the picture repeats it, so it is not read twice. */}
                <img
                  src={s.image}
                  alt=""
                  width={BANNER_BOX.width}
                  height={BANNER_BOX.height}
                  loading={i === 0 ? 'eager' : 'lazy'}
                  fetchPriority={i === 0 ? 'high' : undefined}
                  decoding={i === 0 ? undefined : 'async'}
                />
              </picture>
              {s.title ? <span className="banner__title">{s.title}</span> : null}
            </a>
          </div>
        ))}
      </div>
      {count > 1 ? (
        <div className="hero__controls">
          <button type="button" className="carousel__btn" data-carousel-prev="" aria-label="Previous slide">
            <Icon name="chevron-left" />
          </button>
          <div className="hero__dots">
            {slides.map((s, i) => (
              <button
                key={`${s.link}|${s.title}|${s.image}`}
                type="button"
                className="hero__dot"
                data-carousel-dot={i}
                aria-label={s.title ? `Slide ${i + 1} of ${count}: ${s.title}` : `Slide ${i + 1} of ${count}`}
                aria-current={i === 0 ? 'true' : undefined}
              />
            ))}
          </div>
          <button type="button" className="carousel__btn" data-carousel-next="" aria-label="Next slide">
            <Icon name="chevron-right" />
          </button>
        </div>
      ) : null}
    </section>
  )
}
