/**
 * Presentational CMS and store-locator components. Every HTML string they receive was sanitized
 * by the loaders (shared/domain/sanitize-html) — these components never see raw CMS HTML.
 */
import { IMAGE_SIZES } from '../../config/images'
import { imageUrl } from '../../domain/image-url'

/** Sanitized CMS HTML in a content container. */
export function CmsHtml({ html, className = '' }: { html: string; className?: string }) {
  return (
    <div
      className={`cms-content ${className}`.trim()}
      data-testid="cms-content"
      // Sanitized by the loader (allow-list); see shared/domain/sanitize-html.ts.
      dangerouslySetInnerHTML={{ __html: html }}
    />
  )
}

interface CmsBlockProps {
  identifier: string
  html: string | null
  error: string | null
}

/** A CMS block; a missing one renders an empty, hidden marker carrying the missing-block message. */
export function CmsBlock({ identifier, html, error }: CmsBlockProps) {
  if (html == null)
    return (
      <div
        className="cms-block cms-block--empty"
        data-block={identifier}
        data-cms-error={error ?? ''}
        hidden
      />
    )
  return (
    <div
      className="cms-block cms-content"
      data-block={identifier}
      // Sanitized by the loader (allow-list).
      dangerouslySetInnerHTML={{ __html: html }}
    />
  )
}

export interface StoreSummary {
  code: string
  name: string
  city: string
  address: string[]
  phone: string | null
  email: string | null
  hours: string[]
  lat: number | null
  lng: number | null
  descriptionHtml: string
  image: string | null
}

/** The address block of a store. */
function StoreAddress({ store }: { store: StoreSummary }) {
  return (
    <address className="store__address">
      {store.address.map((line) => (
        <span key={line} className="store__line">
          {line}
        </span>
      ))}
      {store.phone ? (
        <span className="store__line">
          <a href={`tel:${store.phone.replace(/[^+\d]/g, '')}`}>{store.phone}</a>
        </span>
      ) : null}
      {store.email ? (
        <span className="store__line">
          <a href={`mailto:${store.email}`}>{store.email}</a>
        </span>
      ) : null}
    </address>
  )
}

/** The store locator list: each store with its address and a link to its page. */
export function StoreList({ stores, pathOf }: { stores: StoreSummary[]; pathOf: (code: string) => string }) {
  if (stores.length === 0) return <p>No stores to show.</p>
  return (
    <ul className="store-list" data-testid="store-list">
      {stores.map((s) => (
        <li key={s.code} className="store-list__item" data-store={s.code}>
          <h2 className="store-list__name">
            <a href={pathOf(s.code)}>{s.name}</a>
          </h2>
          <p className="store-list__city">{s.city}</p>
          <StoreAddress store={s} />
        </li>
      ))}
    </ul>
  )
}

/** One store's page body: image, address, hours, description and a map link. */
export function StoreDetails({ store }: { store: StoreSummary }) {
  const { width, height } = IMAGE_SIZES.thumb
  return (
    <article className="store" data-testid="store-details" data-store={store.code}>
      <h1>{store.name}</h1>
      {store.image ? (
        <img
          className="store__image"
          src={imageUrl(store.image, width, height)}
          alt={store.name}
          width={width}
          height={height}
          loading="eager"
        />
      ) : null}
      <StoreAddress store={store} />
      {store.hours.length > 0 ? (
        <section className="store__hours">
          <h2>Opening hours</h2>
          <ul>
            {store.hours.map((h) => (
              <li key={h}>{h}</li>
            ))}
          </ul>
        </section>
      ) : null}
      {store.descriptionHtml ? <CmsHtml html={store.descriptionHtml} className="store__description" /> : null}
      {store.lat != null && store.lng != null ? (
        <p>
          <a
            className="btn btn--secondary"
            href={`https://www.openstreetmap.org/?mlat=${store.lat}&mlon=${store.lng}#map=16/${store.lat}/${store.lng}`}
            rel="noopener noreferrer"
            target="_blank"
          >
            Show on map
          </a>
        </p>
      ) : null}
      <p>
        <a href="/store-locator">All stores</a>
      </p>
    </article>
  )
}
