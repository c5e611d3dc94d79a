/**
 * The HTML document shell: <head> with title, meta, canonical, font preloads, inlined stylesheet, modulepreloads and the
 * page's one module script (all carrying the CSP nonce), and <body> with the chosen layout.
 */
import { SPECULATING_PAGES, SPECULATION_RULES } from '@shared/config/speculation'
import { baseCurrency, currencyTableJson } from '@shared/config/store'
import type { TaxRuleFields } from '@shared/domain/tax-rules'
import type { ReactNode } from 'react'
import {
  BUILD_ID,
  clientManifest,
  type EntryName,
  entryAssets,
  INLINE_CSS_SLOT,
  inlineCss,
  preloadedFonts,
} from './assets'

export interface PageMeta {
  description?: string
  robots?: string
  canonical?: string
  /** Open Graph / Twitter properties, e.g. { 'og:image': '/img/...' }. */
  og?: Record<string, string>
}

interface DocumentProps {
  title: string
  meta?: PageMeta
  /** Extra nodes for <head> (JSON-LD, alternate links...). */
  head?: ReactNode
  nonce: string
  /** Client entry to load; null renders a page without any script. */
  entry: EntryName | null
  layout: 'default' | 'minimal' | 'empty'
  lang?: string
  /** The <style> holds INLINE_CSS_SLOT, for the stylesheet to be put in its place as the answer is built. */
  cssSlot?: boolean
  htmlData: {
    store: string
    currency: string
    country: string
    /** Shown in the order-validation message ('Please contact us on {email}'). */
    supportEmail: string
    /** Offline orders are sent automatically when back online (a setting, off by default). */
    offlineOrdersAutoTransmit: boolean
    /** Customer group id/token are used for price tiers only when on. */
    priceTiers: boolean
    /** The home and browsing country's tax rules for a shopper abroad (null at home), for prices built in the browser. */
    taxRules: readonly TaxRuleFields[] | null
  }
  children: ReactNode
}

/** The speculation rules as the page's script carries them (the same on every page). */
const SPECULATION_RULES_JSON = JSON.stringify(SPECULATION_RULES)

export function Document(props: DocumentProps) {
  const { title, meta = {}, head, nonce, entry, layout, htmlData, children } = props
  const assets = entry ? entryAssets(entry) : null
  const css = inlineCss()
  return (
    <html
      lang={props.lang ?? 'en'}
      data-build={BUILD_ID}
      data-page={entry ?? undefined}
      data-store={htmlData.store}
      data-currency={htmlData.currency}
      data-country={htmlData.country}
      data-support-email={htmlData.supportEmail}
      data-offline-orders-auto-transmit={String(htmlData.offlineOrdersAutoTransmit)}
      data-price-tiers={String(htmlData.priceTiers)}
      data-tax-rules={htmlData.taxRules ? JSON.stringify(htmlData.taxRules) : undefined}
      data-base-currency={baseCurrency()}
      data-currencies={currencyTableJson()}
    >
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
        {meta.description ? <meta name="description" content={meta.description} /> : null}
        {meta.robots ? <meta name="robots" content={meta.robots} /> : null}
        {meta.canonical ? <link rel="canonical" href={meta.canonical} /> : null}
        {Object.entries(meta.og ?? {}).map(([property, content]) => (
          <meta key={property} property={property} content={content} />
        ))}
        <meta name="build-id" content={BUILD_ID} />
        <meta name="theme-color" content="#1d1a17" />
        <link rel="icon" href="/icons/icon.svg" type="image/svg+xml" />
        <link rel="apple-touch-icon" href="/icons/apple-touch-icon.png" />
        <link rel="manifest" href="/manifest.webmanifest" />
        {/* The faces of the first screen arrive with the stylesheet: with optional display, a face that
            is late is not used on this page, so preloading is what lets the first visit use it. */}
        {layout === 'empty'
          ? null
          : preloadedFonts(entry).map((href) => (
              <link
                key={href}
                rel="preload"
                href={href}
                as="font"
                type="font/woff2"
                crossOrigin="anonymous"
              />
            ))}
        {css ? (
          // Inlined: no render-blocking stylesheet request (the nonce satisfies the CSP's style-src);
          // our own build output with '</style' escaped.
          <style nonce={nonce} dangerouslySetInnerHTML={{ __html: props.cssSlot ? INLINE_CSS_SLOT : css }} />
        ) : (
          <link rel="stylesheet" href={clientManifest.css} />
        )}
        {/* The islands' JS is fetched at low priority: it must not compete with the first paint and the
            LCP image (high-priority scripts started before first paint count as render-blocking). */}
        {assets?.preloads.map((href) => (
          <link key={href} rel="modulepreload" href={href} nonce={nonce} fetchPriority="low" />
        ))}
        {assets ? <script type="module" src={assets.script} nonce={nonce} fetchPriority="low" /> : null}
        {entry && SPECULATING_PAGES.includes(entry) ? (
          <script
            type="speculationrules"
            nonce={nonce}
            // Our own constant rules (JSON has no '</script'), not page data.
            dangerouslySetInnerHTML={{ __html: SPECULATION_RULES_JSON }}
          />
        ) : null}
        {head}
      </head>
      <body data-layout={layout}>{children}</body>
    </html>
  )
}
