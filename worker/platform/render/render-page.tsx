/**
 * Renders every HTML page of the shop, in one of two ways:
 * - a page whose deferred sections' data (`deferred`: what its <Suspense> boundaries read) is still
 *   on its way when the page renders streams: the shell (with <head>) is flushed first and the
 *   boundaries follow as their data resolves; bots wait for allReady so crawlers get complete HTML;
 * - every other page has all its data before it renders (none deferred, or all of it arrived by
 *   the time the shell's own data did), so there is nothing to stream: it is rendered to one string
 *   (React's string renderer takes about half the CPU time of the streaming one, which encodes and
 *   measures each of the page's ~10,000 pieces on its own). A body that still suspends is rendered
 *   again as a stream, so no page ever ships a fallback in its place.
 */

import type { LayoutName } from '@shared/config/routes'
import { HOME_COUNTRY } from '@shared/config/store'
import type { TaxRuleFields } from '@shared/domain/tax-rules'
import type { Context } from 'hono'
import { isbot } from 'isbot'
import type { ReactNode } from 'react'
import { renderToReadableStream, renderToString } from 'react-dom/server.node'
import type { MenuItem } from '../../../client/islands/layout/header'
import { preloadParts } from '../../../client/islands/lazy-part'
import { markDegraded } from '../cache/output-cache'
import type { AppEnv } from '../env'
import { type EntryName, INLINE_CSS_SLOT, inlineCss } from './assets'
import { Document, type PageMeta } from './document'
import { renderSpliced, type Spliced, splicedBody } from './kept-bytes'
import { DefaultLayout, defaultChrome, type LayoutData, MinimalLayout } from './layouts'

interface RenderOptions {
  title: string
  meta?: PageMeta
  head?: ReactNode
  layout: LayoutName
  /** Client entry; defaults to 'default' on the default layout and none elsewhere. */
  entry?: EntryName | null
  status?: number
  headers?: Record<string, string>
  /**
   * The data the body's <Suspense> sections read with `use`: the page streams when any of it is
   * still on its way as the page renders, and renders whole when all of it has arrived.
   */
  deferred?: readonly Promise<unknown>[]
  /** Wait for every Suspense boundary before sending (tests). Bots always wait. */
  waitForAll?: boolean
}

const DOCTYPE = '<!DOCTYPE html>'

/** React's mark of a Suspense boundary left for the browser to render (the string renderer's fallback). */
const CLIENT_RENDERED_BOUNDARY = '<!--$!-->'

/** A promise as React's `use` reads it: a settled one carries its outcome, so `use` need not suspend. */
type Tracked = Promise<unknown> & { status?: string; value?: unknown; reason?: unknown }

/**
 * Whether every promise has settled, each marked the way React's `use` reads a promise (`status`
 * 'pending', then 'fulfilled' with `value` or 'rejected' with `reason`), so that the string
 * renderer takes a settled one's outcome instead of suspending on it. Data whose read has come
 * back settles within the current turn of the event loop (what is left of its chain is
 * microtasks): settled after the microtasks queued now, else after the next turn of the loop;
 * nothing waits on a read still out.
 */
export async function allArrived(promises: readonly Promise<unknown>[]): Promise<boolean> {
  const tracked = promises as readonly Tracked[]
  for (const t of tracked) {
    if (typeof t.status === 'string') continue
    t.status = 'pending'
    t.then(
      (value) => {
        if (t.status !== 'pending') return
        t.status = 'fulfilled'
        t.value = value
      },
      (reason: unknown) => {
        if (t.status !== 'pending') return
        t.status = 'rejected'
        t.reason = reason
      },
    )
  }
  const arrived = () => tracked.every((t) => t.status !== 'pending')
  await Promise.resolve()
  if (arrived()) return true
  await new Promise((resolve) => setTimeout(resolve, 0))
  return arrived()
}

const encoder = new TextEncoder()
let cssBytes: Uint8Array | null | undefined

/** The inlined stylesheet as UTF-8, encoded once: it is the same for every page of a build. */
function inlineCssBytes(): Uint8Array | null {
  if (cssBytes === undefined) {
    const css = inlineCss()
    cssBytes = css === null ? null : encoder.encode(css)
  }
  return cssBytes
}

/**
 * The page as one answer body, or null when its body suspends (a lazy component not loaded yet,
 * data not awaited): the string renderer would leave a fallback in its place. `doc` carries
 * INLINE_CSS_SLOT in its <style>, and the stylesheet (encoded once) joins the body's bytes there;
 * so does each piece of markup the isolate keeps (kept-bytes.ts): the rendered string, which is made
 * flat and encoded for every page, is then without its 44 KB of stylesheet and its kept pieces
 * (docs/performance.md, "the stylesheet beside the page", "kept markup beside the page").
 */
function renderWhole(doc: ReactNode): BodyInit | null {
  let spliced: Spliced
  try {
    spliced = renderSpliced(() => renderToString(doc))
  } catch {
    // A suspension outside any boundary (or a render error, which the stream reports again).
    return null
  }
  if (spliced.html.includes(CLIENT_RENDERED_BOUNDARY)) return null
  spliced.html = `${DOCTYPE}${spliced.html}`
  const css = inlineCssBytes()
  return splicedBody(spliced, css === null ? undefined : [INLINE_CSS_SLOT, css])
}

/**
 * The default layout's menu from the loader the app handed in. A failure gives an empty menu (and
 * a page that is never cached) rather than failing the page.
 */
export async function layoutMenu(c: Context<AppEnv>): Promise<MenuItem[]> {
  const loader = c.var.menuLoader
  if (!loader) return []
  try {
    return await loader(c)
  } catch (err) {
    markDegraded(c)
    console.error(JSON.stringify({ requestId: c.var.requestId, msg: 'menu load failed', err: String(err) }))
    return []
  }
}

/**
 * The tax rules of the home and browsing country when the shopper is abroad (their prices have
 * GST taken out and their country's tax put in), else null: home prices are the catalogue's, so
 * pages for the home country carry nothing.
 */
async function layoutTaxRules(c: Context<AppEnv>): Promise<TaxRuleFields[] | null> {
  const loader = c.var.taxRulesLoader
  if (!loader || c.var.store.country === HOME_COUNTRY) return null
  return loader(c)
}

/** Renders a page into a streamed HTML Response. */
export async function renderPage(
  c: Context<AppEnv>,
  body: ReactNode,
  opts: RenderOptions,
): Promise<Response> {
  const { nonce, store, config, requestId } = c.var
  // The islands' parts that load on demand render in place, never in a boundary revealed after
  // the islands may have hydrated (client/islands/lazy-part.ts).
  const preloading = preloadParts()
  if (preloading) await preloading
  let content: ReactNode = body
  if (opts.layout === 'default') {
    const data: LayoutData = {
      storeName: config.STORE_NAME,
      currency: store.currency,
      country: store.country,
      menu: await layoutMenu(c),
      supportEmail: config.SUPPORT_EMAIL,
    }
    // The chrome's markup is kept (and joins a page rendered whole as bytes: kept-bytes.ts).
    content = (
      <DefaultLayout data={data} chrome={defaultChrome(data)}>
        {body}
      </DefaultLayout>
    )
  } else if (opts.layout === 'minimal') {
    content = <MinimalLayout storeName={config.STORE_NAME}>{body}</MinimalLayout>
  }
  const entry = opts.entry === undefined ? (opts.layout === 'default' ? 'default' : null) : opts.entry

  const taxRules = await layoutTaxRules(c)
  const doc = (cssSlot: boolean) => (
    <Document
      title={opts.title}
      meta={opts.meta}
      head={opts.head}
      nonce={nonce}
      entry={entry}
      layout={opts.layout}
      cssSlot={cssSlot}
      htmlData={{
        store: store.storeCode,
        currency: store.currency,
        country: store.country,
        supportEmail: config.SUPPORT_EMAIL,
        offlineOrdersAutoTransmit: config.OFFLINE_ORDERS_AUTO_TRANSMIT,
        priceTiers: config.PRICE_TIERS_ENABLED,
        taxRules,
      }}
    >
      {content}
    </Document>
  )
  const headers = new Headers({
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-cache',
    ...opts.headers,
  })
  const status = opts.status ?? 200
  const whole = opts.deferred && !(await allArrived(opts.deferred)) ? null : renderWhole(doc(true))
  if (whole !== null) return new Response(whole, { status, headers })
  const stream = await renderToReadableStream(doc(false), {
    nonce,
    onError(error: unknown) {
      // Errors inside Suspense boundaries: the client shows the fallback; we log with the request id.
      console.error(
        JSON.stringify({ requestId, msg: 'render error', error: String((error as Error)?.stack ?? error) }),
      )
    },
  })
  if (opts.waitForAll || isbot(c.req.header('user-agent') ?? '')) await stream.allReady
  return new Response(stream, { status, headers })
}
