/**
 * CMS HTML made valid for an AMP page. It takes the allow-list sanitizer's output (script, style,
 * iframe and every other active element already gone with their content; `on*`, `style` and
 * `data-*` attributes dropped; every attribute double-quoted and re-encoded, so no `>` or `"` sits
 * inside a value) and applies AMP's own rules on top:
 * - an `<img>` becomes an `<amp-img layout="responsive">` with its width and height — the ones the
 *   content states when both are whole numbers from 1 to 4000, else CMS_IMAGE (the aspect is then
 *   kept by `object-fit: contain` in the AMP stylesheet); `loading`, `decoding` and `sizes` are not
 *   AMP attributes and are left out;
 * - `<picture>` and `<source>` (not allowed outside AMP's media elements) are unwrapped: the
 *   picture's `<img>` stands alone;
 * - a link's `target` other than `_blank` is dropped (AMP allows `_blank` and `_top` only);
 * - class names AMP reserves (`i-amphtml-…`, `-amp-…`, `amp-…`) are dropped.
 */
import { sanitizeHtml } from '@shared/domain/sanitize-html'

/** The box of a CMS picture whose content does not give both its sizes (the seeded pages' 600 × 744). */
export const CMS_IMAGE = { width: 600, height: 744 } as const
/** The largest stated side taken as is; anything larger or not a whole number falls back to CMS_IMAGE. */
const MAX_SIDE = 4000

const ATTR = /([a-z][a-z0-9-]*)="([^"]*)"/g

function attrs(source: string): Map<string, string> {
  return new Map([...source.matchAll(ATTR)].map((m) => [m[1] ?? '', m[2] ?? '']))
}

function side(value: string | undefined): number | null {
  if (!value || !/^\d{1,4}$/.test(value)) return null
  const n = Number(value)
  return n >= 1 && n <= MAX_SIDE ? n : null
}

function cleanClass(value: string): string {
  return value
    .split(/\s+/)
    .filter((c) => c && !/^(i-amphtml-|-amp-|amp-)/i.test(c))
    .join(' ')
}

function ampImg(source: string): string {
  const a = attrs(source)
  const src = a.get('src')
  if (!src) return ''
  const w = side(a.get('width'))
  const h = side(a.get('height'))
  const [width, height] = w && h ? [w, h] : [CMS_IMAGE.width, CMS_IMAGE.height]
  const cls = cleanClass(`cms-img ${a.get('class') ?? ''}`)
  let out = `<amp-img src="${src}" width="${width}" height="${height}" layout="responsive" class="${cls}"`
  out += ` alt="${a.get('alt') ?? ''}"`
  for (const name of ['srcset', 'title', 'lang', 'dir']) if (a.has(name)) out += ` ${name}="${a.get(name)}"`
  return `${out}></amp-img>`
}

/** Any other element's attributes, with AMP's class and target rules applied. */
function otherTag(tag: string, source: string): string {
  let out = ''
  for (const [name, value] of attrs(source)) {
    if (name === 'target' && value !== '_blank') continue
    if (name === 'class') {
      const cls = cleanClass(value)
      if (cls) out += ` class="${cls}"`
      continue
    }
    out += ` ${name}="${value}"`
  }
  return `<${tag}${out}>`
}

/** `raw` CMS HTML as AMP-valid HTML (sanitized first, then the AMP rules above). */
export function ampCmsHtml(raw: string | null | undefined): string {
  return sanitizeHtml(raw).replace(
    /<(\/?)([a-z][a-z0-9]*)([^>]*)>/g,
    (_, close: string, tag: string, rest) => {
      if (tag === 'picture' || tag === 'source') return ''
      if (close) return `</${tag}>`
      if (tag === 'img') return ampImg(rest)
      return otherTag(tag, rest)
    },
  )
}
