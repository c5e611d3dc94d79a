/**
 * Home:
 *   GET /            the home page (alias GET /pwa.html)
 * Head image and banners, the curated sections (categories 189 'Performance Fabrics' and 190
 * 'Tees') and the other home data sections as carousels, the strip, popups (exit_popup,
 * generic_popup) and the newsletter sign-up. Product sections and CMS blocks stream in <Suspense>.
 * ?notice=category-unavailable shows the spec's 'not available in Offline mode' notification.
 */
import { Hono } from 'hono'
import { Suspense } from 'react'
import { CarouselIsland } from '../../client/islands/home/carousel'
import { NewsletterIsland } from '../../client/islands/home/newsletter'
import { HomeExtrasIsland } from '../../client/islands/home/popups'
import type { AppEnv } from '../env'
import {
  type Banner,
  type HomeSection,
  loadCmsBlockHtml,
  loadHomeView,
  loadSectionTiles,
} from '../loaders/home'
import { renderPage } from '../render/render-page'

export const homeRoutes = new Hono<AppEnv>()

function BannerLink({ banner, eager, className }: { banner: Banner; eager?: boolean; className: string }) {
  return (
    <a href={banner.link} className={className}>
      <picture>
        {banner.mobile_image ? <source media="(max-width: 767px)" srcSet={banner.mobile_image} /> : null}
        <img
          src={banner.image}
          alt={banner.title}
          width={1200}
          height={500}
          loading={eager ? 'eager' : 'lazy'}
          fetchPriority={eager ? 'high' : undefined}
        />
      </picture>
      {banner.title ? <span className="banner__title">{banner.title}</span> : null}
    </a>
  )
}

async function ProductSection({
  load,
  section,
  currency,
}: {
  load: Promise<unknown>
  section: HomeSection
  currency: string
}) {
  const tiles = (await load) as Awaited<ReturnType<typeof loadSectionTiles>>
  if (!tiles.length) return null
  return (
    <section
      className="home-section"
      data-testid="home-section"
      data-section-type={section.type}
      data-category-id={section.category_id ?? undefined}
      aria-labelledby={`home-section-${section.id}`}
    >
      <h2 id={`home-section-${section.id}`} className="home-section__title">
        {section.title || section.category_name}
      </h2>
      <CarouselIsland
        label={section.title || section.category_name || 'Products'}
        currency={currency}
        tiles={tiles}
      />
    </section>
  )
}

async function CmsBlockSection({ load, title }: { load: Promise<string | null>; title: string }) {
  const html = await load
  if (!html) return null
  return (
    <section className="home-section home-section--cms">
      {title ? <h2 className="home-section__title">{title}</h2> : null}
      {/* Sanitised with the shared allow-list sanitizer. */}
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised CMS HTML */}
      <div className="cms-content" dangerouslySetInnerHTML={{ __html: html }} />
    </section>
  )
}

function SectionSkeleton({ title }: { title: string }) {
  return (
    <section className="home-section home-section--loading" aria-busy="true">
      <h2 className="home-section__title">{title}</h2>
      <div className="skeleton skeleton--carousel" />
    </section>
  )
}

for (const path of ['/', '/pwa.html']) {
  homeRoutes.get(path, async (c) => {
    const now = Date.now()
    const currency = c.var.store.currency
    const home = await loadHomeView(c)
    const storeName = c.var.config.STORE_NAME
    const popups = [home.exitPopup, home.genericPopup]
      .filter((p) => p !== null)
      .map((p) => ({
        type: p.type as 'exit_popup' | 'generic_popup',
        title: p.title,
        text: p.text,
        link: p.link,
        image: p.image,
      }))
    let bannersShown = false
    return renderPage(
      c,
      <div className="home">
        {home.strip ? (
          <p className="home-strip" data-testid="home-strip">
            {home.strip.link ? <a href={home.strip.link}>{home.strip.text}</a> : home.strip.text}
          </p>
        ) : null}
        <h1 className="visually-hidden">{storeName}</h1>
        {home.headImage ? <BannerLink banner={home.headImage} eager className="home-hero" /> : null}
        {home.sections.map((section) => {
          if (section.type === 'banner') {
            if (bannersShown || home.mainBanners.length === 0) return null
            bannersShown = true
            return (
              <section key={section.id} className="home-section" aria-label={section.title || 'Featured'}>
                <CarouselIsland
                  label={section.title || 'Featured'}
                  currency={currency}
                  perPage={1}
                  banners={home.mainBanners.map((b) => ({
                    title: b.title,
                    image: b.image,
                    mobileImage: b.mobile_image ?? null,
                    link: b.link,
                  }))}
                />
              </section>
            )
          }
          if (section.type === 'category_products' || section.type === 'products') {
            const title = section.title || section.category_name || 'Products'
            return (
              <Suspense key={section.id} fallback={<SectionSkeleton title={title} />}>
                <ProductSection
                  load={loadSectionTiles(c, section, now)}
                  section={section}
                  currency={currency}
                />
              </Suspense>
            )
          }
          if (section.type === 'cms_block' && section.block_identifier) {
            return (
              <Suspense key={section.id} fallback={null}>
                <CmsBlockSection load={loadCmsBlockHtml(c, section.block_identifier)} title={section.title} />
              </Suspense>
            )
          }
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
        <NewsletterIsland title="Join our newsletter" />
        <HomeExtrasIsland popups={popups} />
      </div>,
      {
        title: `${storeName} | Designer fashion`,
        layout: 'default',
        entry: 'home',
        meta: {
          description: 'Designer fashion from India: sarees, lehengas, kurtas, sherwanis and more.',
          canonical: new URL('/', c.req.url).href,
        },
      },
    )
  })
}
