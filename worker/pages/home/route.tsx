/**
 * Home:
 *   GET /            the home page (alias GET /pwa.html)
 * Head image and banners, the curated sections (categories 189 'Performance Fabrics' and 190
 * 'Tees') and the other home data sections as carousels (four products a page, no autoplay), the strip, popups (exit_popup,
 * generic_popup) and the newsletter sign-up. Product sections and CMS blocks are read together (one
 * round trip to the database with the page's version read) and rendered with the page.
 * ?notice=category-unavailable shows the 'not available in Offline mode' notification.
 */

import { Carousel } from '@shared/components/catalog/carousel'
import { ProductTile } from '@shared/components/catalog/product-tile'
import type { TileData } from '@shared/components/catalog/tile-data'
import { IMAGE_SIZES } from '@shared/config/images'
import { NOTICE_CATEGORY_UNAVAILABLE } from '@shared/config/routes'
import { imageUrl } from '@shared/domain/image-url'
import { MSG, PAGE_TEXT } from '@shared/i18n/messages'
import type { Context } from 'hono'
import { Fragment } from 'react'
import { renderToString } from 'react-dom/server.node'
import { Icon } from '../../../client/islands/layout/icons'
import type { AppEnv } from '../../platform/env'
import { type KeptMarkup, keptHtml } from '../../platform/render/kept-bytes'
import { renderPage } from '../../platform/render/render-page'
import type { RouteHandler, RouteHandlers } from '../../platform/router'
import { tileMarkup } from '../layout/tiles'
import { HeroCarousel } from './hero'
import {
  type Banner,
  type HomePopup,
  type HomeSection,
  loadCmsBlockHtml,
  loadHomeView,
  loadSectionTiles,
} from './loader'

/**
 * Banner renditions: the image route serves only the catalogue image sizes (none is landscape), so banners
 * use the 'policy' size cropped by CSS (object-fit) on wide screens and the gallery size on mobile.
 */
const BANNER_DESKTOP = IMAGE_SIZES.policy
const BANNER_MOBILE = IMAGE_SIZES.gallery

/**
 * Home rails show four products at a time on wide screens (two on phones, by CSS) and never move
 * by themselves: the shopper pages through them with the previous/next buttons or by swiping.
 */
const RAIL_PER_PAGE = 4
const NO_AUTOPLAY = 0
const RAIL_ICONS = { prev: <Icon name="chevron-left" />, next: <Icon name="chevron-right" /> }

/** Newsletter sign-up; client/islands/home/home-enhance.ts posts it to the newsletter API. */
function Newsletter() {
  return (
    <section className="newsletter" aria-labelledby="newsletter-title">
      <h2 id="newsletter-title">Join our newsletter</h2>
      <p>New collections, designer stories and private sales, first.</p>
      <form className="newsletter__form" data-newsletter="" noValidate action="/" method="get">
        <label htmlFor="newsletter-email">Email address</label>
        <div className="newsletter__row">
          <input
            id="newsletter-email"
            name="email"
            type="email"
            autoComplete="email"
            required
            data-testid="newsletter-email"
            aria-describedby="newsletter-status"
          />
          <button type="submit" className="btn">
            Subscribe
          </button>
        </div>
        <p id="newsletter-status" data-newsletter-status="" role="status" data-testid="newsletter-status" />
      </form>
    </section>
  )
}

/** A home data popup (exit_popup / generic_popup), hidden until home-enhance.ts opens it. */
function Popup({ popup }: { popup: HomePopup }) {
  const id = `popup-${popup.type}`
  return (
    <div
      className="popup"
      role="dialog"
      aria-modal="true"
      aria-labelledby={`${id}-title`}
      hidden
      data-popup={popup.type}
      data-testid="home-popup"
    >
      <button type="button" className="popup__close" aria-label="Close popup" data-popup-close="">
        <Icon name="x" />
      </button>
      {popup.image ? (
        <img
          src={imageUrl(popup.image, IMAGE_SIZES.tile.width, IMAGE_SIZES.tile.height)}
          alt=""
          width={IMAGE_SIZES.tile.width}
          height={IMAGE_SIZES.tile.height}
          loading="lazy"
        />
      ) : null}
      <h2 id={`${id}-title`}>{popup.title ?? ''}</h2>
      <p>{popup.text}</p>
      {popup.link ? (
        <a className="btn" href={popup.link}>
          Find out more
        </a>
      ) : null}
    </div>
  )
}

/** A small or product banner below the fold: its image loads when it comes near. */
function BannerLink({ banner, className }: { banner: Banner; className: string }) {
  return (
    <a href={banner.link} className={className}>
      <picture>
        {banner.mobile_image ? (
          <source
            media="(max-width: 767px)"
            srcSet={imageUrl(banner.mobile_image, BANNER_MOBILE.width, BANNER_MOBILE.height)}
          />
        ) : null}
        {/* The title below names the link; the picture repeats it, so it is not read twice. */}
        <img
          src={imageUrl(banner.image, BANNER_DESKTOP.width, BANNER_DESKTOP.height)}
          alt=""
          width={1200}
          height={500}
          loading="lazy"
        />
      </picture>
      {banner.title ? <span className="banner__title">{banner.title}</span> : null}
    </a>
  )
}

function ProductSection({
  tiles,
  section,
  currency,
  markup,
}: {
  tiles: TileData[]
  section: HomeSection
  currency: string
  /** Each tile's markup, rendered before the page (tileMarkups). */
  markup: ReadonlyMap<TileData, KeptMarkup>
}) {
  if (!tiles.length) return null
  return (
    // Not a landmark of its own: the carousel inside is the region, under the same name.
    <div
      className="home-section"
      data-testid="home-section"
      data-section-type={section.type}
      data-category-id={section.category_id ?? undefined}
    >
      <h2 id={`home-section-${section.id}`} className="home-section__title">
        {section.title || section.category_name}
      </h2>
      <Carousel
        label={section.title || section.category_name || 'Products'}
        currency={currency}
        tiles={tiles}
        perPage={RAIL_PER_PAGE}
        autoplayMs={NO_AUTOPLAY}
        icons={RAIL_ICONS}
        tileHtml={(tile) => {
          const kept = markup.get(tile)
          return kept ? keptHtml(kept) : ''
        }}
      />
    </div>
  )
}

function CmsBlockSection({ html, title }: { html: string | null; title: string }) {
  if (!html) return null
  return (
    <section className="home-section home-section--cms">
      {title ? <h2 className="home-section__title">{title}</h2> : null}
      {/* Sanitised with the shared allow-list sanitizer (shared/domain/sanitize-html). */}
      <div className="cms-content" dangerouslySetInnerHTML={{ __html: html }} />
    </section>
  )
}

/**
 * The markup of every tile of the sections in `currency`, each rendered on its own before the
 * page is (React's renderer is not entered twice at once) and kept by its tile (layout/tiles.ts):
 * a kept tile's markup is rendered once per currency and configuration.
 */
function tileMarkups(c: Context<AppEnv>, contents: SectionContent[]): Map<TileData, KeptMarkup> {
  const currency = c.var.store.currency
  const out = new Map<TileData, KeptMarkup>()
  for (const content of contents) {
    if (!Array.isArray(content)) continue
    for (const tile of content)
      out.set(
        tile,
        tileMarkup(tile, currency, c.var.config, () =>
          renderToString(<ProductTile tile={tile} currency={currency} />),
        ),
      )
  }
  return out
}

/** A section's content: its tiles, its CMS block's HTML, or nothing for the other kinds. */
type SectionContent = TileData[] | string | null

/**
 * Every section's content, read at once: the reads of all sections (and the page's version read)
 * share one round trip to the database, so the page has nothing left to stream once they are in.
 * A section that fails renders empty (the loaders never throw).
 */
function loadSections(c: Context<AppEnv>, sections: HomeSection[], now: number): Promise<SectionContent[]> {
  return Promise.all(
    sections.map((section) => {
      if (section.type === 'category_products' || section.type === 'products')
        return loadSectionTiles(c, section, now)
      if (section.type === 'cms_block' && section.block_identifier)
        return loadCmsBlockHtml(c, section.block_identifier)
      return null
    }),
  )
}

const homePage: RouteHandler = async (c) => {
  const now = Date.now()
  const currency = c.var.store.currency
  const home = await loadHomeView(c)
  const contents = await loadSections(c, home.sections, now)
  const markup = tileMarkups(c, contents)
  c.set('cacheTags', ['home'])
  const storeName = c.var.config.STORE_NAME
  // The head image and the main banners are one hero carousel, where the first banner section sits
  // (at the top when there is none, or no main banners to show there).
  const heroAt = home.mainBanners.length ? home.sections.findIndex((s) => s.type === 'banner') : -1
  const heroBanners = home.headImage ? [home.headImage, ...home.mainBanners] : home.mainBanners
  const heroSection = home.sections[heroAt]
  const hero = (
    <HeroCarousel
      label={heroSection?.title || 'Featured'}
      slides={heroBanners.map((b) => ({
        title: b.title,
        link: b.link,
        image: imageUrl(b.image, BANNER_DESKTOP.width, BANNER_DESKTOP.height),
        mobileImage: b.mobile_image
          ? imageUrl(b.mobile_image, BANNER_MOBILE.width, BANNER_MOBILE.height)
          : null,
      }))}
    />
  )
  return renderPage(
    c,
    <div className="home">
      {home.strip ? (
        <p className="home-strip" data-testid="home-strip">
          {home.strip.link ? <a href={home.strip.link}>{home.strip.text}</a> : home.strip.text}
        </p>
      ) : null}
      <h1 className="visually-hidden">{storeName}</h1>
      {heroAt < 0 ? hero : null}
      {home.sections.map((section, i) => {
        if (section.type === 'banner')
          return i === heroAt ? <Fragment key={section.id}>{hero}</Fragment> : null
        const content = contents[i] ?? null
        if (Array.isArray(content))
          return (
            <ProductSection
              key={section.id}
              tiles={content}
              section={section}
              currency={currency}
              markup={markup}
            />
          )
        if (typeof content === 'string')
          return <CmsBlockSection key={section.id} html={content} title={section.title} />
        return null
      })}
      {home.smallBanners.length ? (
        <section className="home-banners" aria-label="Collections">
          {home.smallBanners.map((b) => (
            <BannerLink key={`${b.link}-${b.title}`} banner={b} className="home-banners__item" />
          ))}
        </section>
      ) : null}
      {home.productBanners.map((b) => (
        <BannerLink key={`${b.link}-${b.title}`} banner={b} className="home-product-banner" />
      ))}
      <Newsletter />
      {[home.exitPopup, home.genericPopup].map((p) => (p ? <Popup key={p.type} popup={p} /> : null))}
      {c.req.query('notice') === NOTICE_CATEGORY_UNAVAILABLE ? (
        <div hidden data-notice={PAGE_TEXT.offlineRedirectHome} data-ok={MSG.ok} />
      ) : null}
    </div>,
    {
      title: `${storeName} | Designer fashion`,
      layout: 'default',
      entry: 'home',
      meta: {
        description: 'Designer fashion from India: sarees, lehengas, kurtas, sherwanis and more.',
        canonical: `${c.var.config.PUBLIC_ORIGIN}/`,
      },
    },
  )
}

export const homePages = { home: homePage, 'home-pwa': homePage } satisfies RouteHandlers
