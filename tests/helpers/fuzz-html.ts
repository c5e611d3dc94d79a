/**
 * A small HTML tokenizer for the security tests: finds markup that could run code — a `<script>`
 * without the response's CSP nonce, an `on*=` event-handler attribute, or a `javascript:` /
 * `vbscript:` / `data:text/html` URL in a URL attribute. Attribute values are parsed with their
 * quotes, so escaped text inside an attribute such as `title="…"` is never mistaken for an attribute.
 */

export interface Finding {
  kind: 'script-without-nonce' | 'event-handler' | 'script-url'
  tag: string
  detail: string
}

/** Script types that are data blocks, not code. */
const DATA_SCRIPT_TYPES = new Set(['application/json', 'application/ld+json', 'application/manifest+json'])
const URL_ATTRS = new Set(['href', 'src', 'action', 'formaction', 'xlink:href', 'data', 'poster', 'srcdoc'])
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title'])

/** Decodes the entities an attacker could use to hide `javascript:` in an attribute. */
export function decodeAttr(value: string): string {
  return value
    .replace(/&#x([0-9a-f]+);?/gi, (_, h: string) => String.fromCodePoint(Number.parseInt(h, 16)))
    .replace(/&#(\d+);?/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&colon;/gi, ':')
    .replace(/&tab;/gi, '\t')
    .replace(/&newline;/gi, '\n')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
}

export function isScriptUrl(value: string): boolean {
  // Browsers strip control characters and whitespace from a URL's scheme.
  let v = ''
  for (const ch of decodeAttr(value)) if ((ch.codePointAt(0) ?? 0) > 0x20 && ch !== '\u007f') v += ch
  v = v.toLowerCase()
  return v.startsWith('javascript:') || v.startsWith('vbscript:') || v.startsWith('data:text/html')
}

interface Tag {
  name: string
  attrs: [string, string | null][]
  end: number
}

function parseTag(html: string, start: number): Tag | null {
  // start points at '<'
  const m = /^<([a-zA-Z][a-zA-Z0-9:-]*)/.exec(html.slice(start, start + 64))
  if (!m) return null
  const name = (m[1] as string).toLowerCase()
  let i = start + m[0].length
  const attrs: [string, string | null][] = []
  const n = html.length
  while (i < n) {
    while (i < n && /[\s/]/.test(html[i] as string)) i++
    if (i >= n) break
    if (html[i] === '>') return { name, attrs, end: i + 1 }
    let j = i
    while (j < n && !/[\s/>=]/.test(html[j] as string)) j++
    const attrName = html.slice(i, j).toLowerCase()
    i = j
    while (i < n && /\s/.test(html[i] as string)) i++
    if (html[i] !== '=') {
      attrs.push([attrName, null])
      if (j === i && attrName === '') i++
      continue
    }
    i++
    while (i < n && /\s/.test(html[i] as string)) i++
    let value: string
    const q = html[i]
    if (q === '"' || q === "'") {
      const close = html.indexOf(q, i + 1)
      const stop = close < 0 ? n : close
      value = html.slice(i + 1, stop)
      i = stop + 1
    } else {
      let k = i
      while (k < n && !/[\s>]/.test(html[k] as string)) k++
      value = html.slice(i, k)
      i = k
    }
    attrs.push([attrName, value])
  }
  return { name, attrs, end: n }
}

/** Every executable-markup finding in `html`; `nonce` is the response's CSP nonce. */
export function findExecutableMarkup(html: string, nonce: string | null): Finding[] {
  const findings: Finding[] = []
  let i = 0
  const n = html.length
  while (i < n) {
    const lt = html.indexOf('<', i)
    if (lt < 0) break
    if (html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4)
      i = end < 0 ? n : end + 3
      continue
    }
    const tag = parseTag(html, lt)
    if (!tag) {
      i = lt + 1
      continue
    }
    const attr = (name: string) => tag.attrs.find(([k]) => k === name)?.[1]
    for (const [k, v] of tag.attrs) {
      if (/^on[a-z]+$/.test(k)) findings.push({ kind: 'event-handler', tag: tag.name, detail: `${k}=${v}` })
      if (v !== null && URL_ATTRS.has(k) && isScriptUrl(v))
        findings.push({ kind: 'script-url', tag: tag.name, detail: `${k}=${v}` })
    }
    if (tag.name === 'script') {
      const type = (attr('type') ?? '').toLowerCase().trim()
      const own = nonce !== null && attr('nonce') === nonce
      if (!own && !DATA_SCRIPT_TYPES.has(type))
        findings.push({
          kind: 'script-without-nonce',
          tag: 'script',
          detail: html.slice(lt, Math.min(n, lt + 120)),
        })
    }
    i = tag.end
    if (RAW_TEXT.has(tag.name)) {
      // Raw text runs to the matching end tag (a break-out `</script>` ends it, as in a browser).
      const close = html.toLowerCase().indexOf(`</${tag.name}`, i)
      i = close < 0 ? n : close
    }
  }
  return findings
}

/** The nonce of a response's CSP script-src, or null. */
export function cspNonce(csp: string | null): string | null {
  return /'nonce-([^']+)'/.exec(csp ?? '')?.[1] ?? null
}
