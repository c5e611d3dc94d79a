/**
 * Same-origin redirect targets. Every place that sends a visitor to a URL it read from data (a
 * stored URL mapping, the remembered return path after login) accepts it only through here.
 *
 * Browsers remove tabs and line breaks anywhere in a URL, trim control characters and spaces at
 * its ends, and read a backslash as a slash, so '/\t/evil.example' or '/\\evil.example' would leave
 * the shop although they start with one slash. Such targets are refused outright; the rest is
 * parsed against the shop's origin and kept only when it stays there and its normalised path
 * does not itself begin with two slashes; the answer is that normalised path + query + fragment.
 */

/** Longest redirect target accepted (a longer one is refused, not cut). */
export const MAX_REDIRECT_LENGTH = 2048

// Control characters (C0, DEL, C1), backslashes, and the invisible characters some parsers or
// terminals drop or reorder (zero-width, bidi controls, line/paragraph separators, BOM).
// biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\\\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]/

/** Whether `text` holds a character no URL the shop follows may hold (see UNSAFE_CHARACTERS). */
export function hasUnsafeUrlCharacters(text: string): boolean {
  return UNSAFE_CHARACTERS.test(text)
}

/**
 * The normalised path (+ query + fragment) of `candidate` when it is a same-origin target on
 * `origin` (a path such as '/sale', or, with `allowAbsolute`, an absolute URL on that very
 * origin); null for anything else.
 */
export function sameOriginPath(
  candidate: unknown,
  origin: string,
  opts: { allowAbsolute?: boolean } = {},
): string | null {
  if (typeof candidate !== 'string' || candidate.length === 0 || candidate.length > MAX_REDIRECT_LENGTH)
    return null
  if (hasUnsafeUrlCharacters(candidate)) return null
  const isPath = candidate.startsWith('/')
  if (isPath && candidate.startsWith('//')) return null
  if (!isPath && !(opts.allowAbsolute && /^https?:\/\//i.test(candidate))) return null
  let base: URL
  let url: URL
  try {
    base = new URL(origin)
    url = new URL(candidate, base)
  } catch {
    return null
  }
  if (url.origin !== base.origin || url.username || url.password) return null
  // Dot segments can normalise '/..//evil.example' into '//evil.example', which a browser would
  // read as another host: such a path is refused too.
  if (url.pathname.startsWith('//')) return null
  return `${url.pathname}${url.search}${url.hash}`
}
