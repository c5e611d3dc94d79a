/**
 * Markup the isolate keeps across requests (a listing's tiles and filter panel, the home rails'
 * tiles: worker/pages/layout/tiles.ts, grid-tiles.tsx; the default layout's chrome: layouts.tsx)
 * joins a page rendered whole as bytes
 * encoded once, the way the stylesheet does (render-page.tsx): while `renderSpliced` renders, a
 * kept piece's `keptHtml` answers a marker in its place and the answer's body carries the piece's
 * bytes where the marker was. The string React builds, which is made flat and encoded for every
 * page, is then without the pieces (on a category page about half its 110,000 characters). A page
 * that streams, and any other render, gets the markup itself.
 *
 * A marker is a word joiner (U+2060), a random token drawn for that render, its piece's number and
 * another word joiner: no content (escaped text, a CMS block's HTML) can hold one, so only the
 * markers put there are replaced. It holds nothing React escapes, so it stands as raw HTML (a
 * piece placed with dangerouslySetInnerHTML) and as text alike (the layout's chrome, between
 * elements: layouts.tsx).
 */

/** What opens and closes a marker. */
const MARK = '\u2060'

const encoder = new TextEncoder()

/** A piece of kept markup; its UTF-8 bytes are encoded the first time a page splices it. */
export interface KeptMarkup {
  readonly html: string
  bytes?: Uint8Array
}

/** The render splicing now: its markers' token and the pieces it has handed markers for. */
let splicing: { token: string; pieces: KeptMarkup[] } | null = null

/**
 * The markup to render for `kept`: a marker while a page renders whole, else the markup itself.
 * Pieces are rendered before the page, never during its render (a marker kept inside a piece would
 * outlive its render).
 */
export function keptHtml(kept: KeptMarkup): string {
  if (splicing === null) return kept.html
  splicing.pieces.push(kept)
  return `${MARK}${splicing.token}${splicing.pieces.length - 1}${MARK}`
}

/** Whether a render is splicing now (a text marker is only ever written then: layouts.tsx). */
export function isSplicing(): boolean {
  return splicing !== null
}

export interface Spliced {
  /** What `render` returned, with a marker where each kept piece goes. */
  html: string
  /** What every marker of this render starts with (its number and a word joiner follow). */
  prefix: string
  /** The bytes of each marker's piece, by the marker's number. */
  bytes: Uint8Array[]
}

/**
 * Runs `render` (a synchronous render to one string) with kept pieces rendered as markers. The
 * state is the module's for the length of one synchronous call only, so no other request's render
 * can see it; the render that was splicing before (if any) splices again after.
 */
export function renderSpliced(render: () => string): Spliced {
  const outer = splicing
  const token = `kept:${crypto.getRandomValues(new Uint32Array(2)).join('-')}:`
  const pieces: KeptMarkup[] = []
  splicing = { token, pieces }
  let html: string
  try {
    html = render()
  } finally {
    splicing = outer
  }
  return {
    html,
    prefix: `${MARK}${token}`,
    bytes: pieces.map((p) => {
      p.bytes ??= encoder.encode(p.html)
      return p.bytes
    }),
  }
}

/**
 * The answer's body: `spliced`'s text with each marker replaced by its piece's bytes and, first,
 * `head` (a text that occurs once before any marker, and the bytes that replace it) in place, as
 * one buffer (the page arrives in one piece, as a string body does). The text between them is
 * encoded here, in one pass over the page.
 */
export function splicedBody(spliced: Spliced, head?: readonly [string, Uint8Array]): Uint8Array<ArrayBuffer> {
  const { html, prefix, bytes } = spliced
  const parts: Uint8Array[] = []
  let from = 0
  const at = head ? html.indexOf(head[0]) : -1
  if (head && at >= 0) {
    parts.push(encoder.encode(html.slice(0, at)), head[1])
    from = at + head[0].length
  }
  for (let mark = html.indexOf(prefix, from); mark >= 0; mark = html.indexOf(prefix, from)) {
    const end = html.indexOf(MARK, mark + prefix.length)
    const piece = end < 0 ? undefined : bytes[Number(html.slice(mark + prefix.length, end))]
    if (piece === undefined) break
    parts.push(encoder.encode(html.slice(from, mark)), piece)
    from = end + MARK.length
  }
  parts.push(encoder.encode(html.slice(from)))
  let length = 0
  for (const p of parts) length += p.length
  const body = new Uint8Array(length)
  let offset = 0
  for (const p of parts) {
    body.set(p, offset)
    offset += p.length
  }
  return body
}
