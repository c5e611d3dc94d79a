/**
 * An allow-list HTML sanitizer for CMS content from the database (pages, blocks, store
 * descriptions). It runs in the worker (no DOM): a small tokenizer re-emits only allowed tags and
 * attributes, drops dangerous elements with their content (script, style, iframe, ...), every
 * `on*`/`style`/`data-*` attribute, and URLs whose scheme is not http(s), mailto or tel. Attribute
 * values are decoded, checked and fully re-encoded, so what the browser sees is what was checked.
 * Close tags are balanced so content can never break out of its container. The CSP is the second
 * line of defence, not the first.
 */

const ALLOWED_TAGS = new Set([
  'a',
  'abbr',
  'address',
  'article',
  'aside',
  'b',
  'blockquote',
  'br',
  'caption',
  'cite',
  'code',
  'col',
  'colgroup',
  'dd',
  'del',
  'details',
  'div',
  'dl',
  'dt',
  'em',
  'figcaption',
  'figure',
  'footer',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'i',
  'img',
  'ins',
  'li',
  'mark',
  'ol',
  'p',
  'picture',
  'pre',
  'q',
  's',
  'section',
  'small',
  'source',
  'span',
  'strong',
  'sub',
  'summary',
  'sup',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'time',
  'tr',
  'u',
  'ul',
])

const VOID_TAGS = new Set(['br', 'col', 'hr', 'img', 'source', 'wbr'])

/** Elements removed together with everything inside them. */
const DROP_WITH_CONTENT = new Set([
  'script',
  'style',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'noscript',
  'noembed',
  'noframes',
  'template',
  'textarea',
  'select',
  'title',
  'head',
  'svg',
  'math',
  'xmp',
  'plaintext',
])

const GLOBAL_ATTRS = new Set(['class', 'title', 'lang', 'dir', 'role'])
const TAG_ATTRS: Record<string, readonly string[]> = {
  a: ['href', 'target', 'rel'],
  img: ['src', 'alt', 'width', 'height', 'loading', 'srcset', 'sizes', 'decoding'],
  source: ['srcset', 'sizes', 'media', 'type'],
  td: ['colspan', 'rowspan', 'headers'],
  th: ['colspan', 'rowspan', 'scope', 'headers'],
  col: ['span'],
  colgroup: ['span'],
  ol: ['start', 'reversed', 'type'],
  li: ['value'],
  time: ['datetime'],
  blockquote: ['cite'],
  q: ['cite'],
  del: ['datetime'],
  ins: ['datetime'],
  details: ['open'],
}
const URL_ATTRS = new Set(['href', 'src', 'cite'])
const SRCSET_ATTRS = new Set(['srcset'])
const SAFE_SCHEMES = new Set(['http', 'https', 'mailto', 'tel'])

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  colon: ':',
  tab: '\t',
  newline: '\n',
  sol: '/',
  period: '.',
  lpar: '(',
  rpar: ')',
  semi: ';',
  comma: ',',
  excl: '!',
  num: '#',
  copy: '©',
  reg: '®',
  trade: '™',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  bull: '•',
  middot: '·',
  times: '×',
  rupee: '₹',
  pound: '£',
  euro: '€',
}

/** Decodes character references the way a browser would for the references we know. */
export function decodeEntities(value: string): string {
  return value.replace(/&(#[xX][0-9a-fA-F]+|#[0-9]+|[a-zA-Z][a-zA-Z0-9]*);?/g, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1))
      if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
        return '\ufffd'
      }
      return String.fromCodePoint(code)
    }
    const named = NAMED_ENTITIES[ref.toLowerCase()]
    // Unknown references stay literal; they are re-encoded (&amp;) on output, so they stay inert.
    return named !== undefined && whole.endsWith(';') ? named : whole
  })
}

function escapeAttr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

/** Text outside tags: keep well-formed character references, escape everything else. */
function escapeText(text: string): string {
  return text
    .replace(/&(?!(#[xX][0-9a-fA-F]+|#[0-9]+|[a-zA-Z][a-zA-Z0-9]*);)/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
}

/** True for relative URLs and absolute ones with an allowed scheme (after browser-style normalisation). */
export function isSafeUrl(decoded: string): boolean {
  // Browsers ignore ASCII whitespace/control characters inside the scheme ("java\tscript:").
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  const normalized = decoded.replace(/[\u0000-\u0020\u007f-\u009f]/g, '').toLowerCase()
  const scheme = normalized.match(/^([a-z][a-z0-9+.-]*):/)?.[1]
  if (!scheme) return !normalized.startsWith('\\') && !normalized.startsWith('/\\')
  return SAFE_SCHEMES.has(scheme)
}

interface ParsedAttr {
  name: string
  value: string
}

function parseAttributes(source: string): ParsedAttr[] {
  const attrs: ParsedAttr[] = []
  const re = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g
  for (const m of source.matchAll(re)) {
    const name = (m[1] ?? '').toLowerCase()
    attrs.push({ name, value: m[2] ?? m[3] ?? m[4] ?? '' })
  }
  return attrs
}

function cleanAttributes(tag: string, source: string): string {
  const allowedForTag = TAG_ATTRS[tag] ?? []
  let out = ''
  let hasBlankTarget = false
  const seen = new Set<string>()
  for (const { name, value } of parseAttributes(source)) {
    if (seen.has(name)) continue
    if (!GLOBAL_ATTRS.has(name) && !allowedForTag.includes(name)) continue
    const decoded = decodeEntities(value)
    if (URL_ATTRS.has(name) && !isSafeUrl(decoded)) continue
    if (SRCSET_ATTRS.has(name)) {
      const candidates = decoded.split(',').map((c) => c.trim().split(/\s+/)[0] ?? '')
      if (!candidates.every((url) => url === '' || isSafeUrl(url))) continue
    }
    if (name === 'target') {
      if (!/^_(blank|self)$/.test(decoded)) continue
      if (decoded === '_blank') hasBlankTarget = true
    }
    if (name === 'rel') continue // re-added below when needed
    seen.add(name)
    out += ` ${name}="${escapeAttr(decoded)}"`
  }
  if (tag === 'a' && hasBlankTarget) out += ' rel="noopener noreferrer"'
  return out
}

/** Finds the end of a tag starting at `start` ('<'), honouring quoted attribute values. */
function findTagEnd(html: string, start: number): number {
  let quote: string | null = null
  for (let i = start + 1; i < html.length; i++) {
    const ch = html[i]
    if (quote) {
      if (ch === quote) quote = null
    } else if (ch === '"' || ch === "'") {
      quote = ch
    } else if (ch === '>') {
      return i
    }
  }
  return -1
}

/** Returns `html` reduced to the allow-list; plain text comes back escaped. */
export function sanitizeHtml(html: string | null | undefined): string {
  if (!html) return ''
  let out = ''
  const stack: string[] = []
  let i = 0
  while (i < html.length) {
    const lt = html.indexOf('<', i)
    if (lt === -1) {
      out += escapeText(html.slice(i))
      break
    }
    out += escapeText(html.slice(i, lt))
    i = lt
    // Comments, doctypes, processing instructions and CDATA are dropped.
    if (html.startsWith('<!--', i)) {
      const end = html.indexOf('-->', i + 4)
      i = end === -1 ? html.length : end + 3
      continue
    }
    if (html[i + 1] === '!' || html[i + 1] === '?') {
      const end = html.indexOf('>', i)
      i = end === -1 ? html.length : end + 1
      continue
    }
    const m = html.slice(i, i + 64).match(/^<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)/)
    if (!m) {
      out += '&lt;'
      i += 1
      continue
    }
    const closing = m[1] === '/'
    const tag = (m[2] ?? '').toLowerCase()
    const end = findTagEnd(html, i)
    if (end === -1) {
      // An unterminated tag: the rest is inert text.
      out += escapeText(html.slice(i))
      break
    }
    const attrSource = html.slice(i + m[0].length, end)
    i = end + 1
    if (!closing && DROP_WITH_CONTENT.has(tag)) {
      const closeRe = new RegExp(`</${tag}[\\s/>]`, 'i')
      const rest = html.slice(i)
      const close = rest.search(closeRe)
      if (close === -1) break
      const closeEnd = html.indexOf('>', i + close)
      i = closeEnd === -1 ? html.length : closeEnd + 1
      continue
    }
    if (!ALLOWED_TAGS.has(tag)) continue
    if (closing) {
      const at = stack.lastIndexOf(tag)
      if (at === -1) continue
      while (stack.length > at) out += `</${stack.pop()}>`
      continue
    }
    out += `<${tag}${cleanAttributes(tag, attrSource)}>`
    if (!VOID_TAGS.has(tag)) stack.push(tag)
  }
  while (stack.length) out += `</${stack.pop()}>`
  return out
}
