/**
 * The client build manifest (written by scripts/build-client.mjs): which module script and which
 * modulepreloads a page entry needs, the stylesheet, the fonts to preload, and the build id.
 */
import manifest from './manifest.generated.json'

export type EntryName =
  | 'default'
  | 'home'
  | 'category'
  | 'product'
  | 'content'
  | 'cart'
  | 'checkout'
  | 'confirmation'
  | 'account'
  | 'lists'

interface ManifestEntry {
  file: string
  imports: string[]
  gzipBytes: number
}

interface ClientManifest {
  buildId: string
  css: string
  cssGzipBytes: number
  /** The minified stylesheet, inlined into <head> (absent in builds older than the field). */
  cssText?: string
  /** The self-hosted font files: `preload` = the faces a first screen uses, on the page entries named (all without). */
  fonts?: { preload: { href: string; entries?: string[] }[]; all: string[] }
  entries: Record<string, ManifestEntry>
  serviceWorker: string | null
}

export const clientManifest = manifest as ClientManifest
export const BUILD_ID = clientManifest.buildId

/** The script and preloads of a page entry; unknown entries fall back to the default one. */
export function entryAssets(entry: EntryName): { script: string; preloads: string[] } | null {
  const e = clientManifest.entries[entry] ?? clientManifest.entries.default
  return e ? { script: e.file, preloads: e.imports } : null
}

/**
 * The stylesheet text safe to put inside <style> (a '</style' in it could not close the element),
 * escaped once: it is the same for every page of a build.
 */
const INLINE_CSS = clientManifest.cssText ? clientManifest.cssText.replace(/<\/(style)/gi, '<\\/$1') : null

/** The stylesheet text every page carries in its <style>. */
export function inlineCss(): string | null {
  return INLINE_CSS
}

/**
 * What the <style> of a page rendered to one string holds in place of the stylesheet, which joins
 * the answer's body beside that string instead (render-page.tsx `renderWhole`). It starts with '<',
 * which React escapes in every text and attribute it writes, so its first appearance in a page is
 * the one in the <style>: nothing a shopper or an operator wrote can come before it.
 */
export const INLINE_CSS_SLOT = '<inline-stylesheet>'

/** The font files a page's document preloads: the faces its first screen draws with. */
export function preloadedFonts(entry: EntryName | null): string[] {
  return (clientManifest.fonts?.preload ?? [])
    .filter((f) => !f.entries || (entry !== null && f.entries.includes(entry)))
    .map((f) => f.href)
}
