/**
 * A mail's HTML as the back office shows it in a page of its own. The back office's
 * Content-Security-Policy allows no inline style attribute (only its nonce'd stylesheet), so the
 * mail's inline styles, which come from the fixed set of ./html.ts, become classes of a
 * stylesheet scoped to the preview; any other style attribute is dropped. The mail's body is
 * shown; its head (title, meta) is not.
 */
import { STYLES } from './html'

const CLASS_OF = new Map<string, string>(
  Object.entries(STYLES).map(([name, style]) => [style, `mail-${name}`]),
)

/** The preview's stylesheet (every class scoped under `.mail-preview`). */
export const PREVIEW_CSS = Object.entries(STYLES)
  .map(([name, style]) => `.mail-preview .mail-${name}{${style}}`)
  .join('')

/** The body of a rendered mail with its styles as classes. */
export function previewBody(html: string): string {
  const body = html.match(/<body[^>]*>([\s\S]*)<\/body>/)?.[1] ?? ''
  return body.replace(/ style="([^"]*)"/g, (_, style: string) => {
    const cls = CLASS_OF.get(style)
    return cls ? ` class="${cls}"` : ''
  })
}
