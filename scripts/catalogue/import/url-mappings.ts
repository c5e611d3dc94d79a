/**
 * The rule a URL-dispatcher mapping passes before `npm run urls -- import` writes it: only what the
 * dispatcher follows when it is served, so a bad mapping is refused with its line at import, never
 * stored and then ignored (or worse) on the first visit.
 *
 * - The key is a path without a leading slash, at most MAX_KEY_LENGTH characters, and holds no
 *   character a URL the shop follows may not hold: no tab, line break or other control character,
 *   no backslash, no invisible character (browsers drop tabs and line breaks inside URLs, so such a
 *   key names no address a visitor can type, and a listing of keys would break on it).
 * - Every text of the value holds none of those either (skus, slugs and identifiers become paths).
 * - A redirect's `to` is a same-origin path the dispatcher would follow (the check of
 *   shared/domain/safe-redirect.ts), with status 301 or 302 when one is given.
 */
import { hasUnsafeUrlCharacters, sameOriginPath } from '../../../shared/domain/safe-redirect'

const MAX_KEY_LENGTH = 512
/** Any origin: a path target is judged the same on every origin. */
const ANY_ORIGIN = 'https://shop.invalid'

const text = (v: unknown): v is string => typeof v === 'string' && v.length > 0

/** Why a mapping cannot be imported, or null when it can. */
export function urlMappingProblem(key: unknown, value: unknown): string | null {
  if (!text(key) || key.length > MAX_KEY_LENGTH || key.startsWith('/'))
    return 'key must be a path without a leading slash'
  if (hasUnsafeUrlCharacters(key))
    return 'key may not hold tabs, line breaks, other control characters, backslashes or invisible characters'
  if (!value || typeof value !== 'object' || Array.isArray(value)) return 'value must be an object'
  const m = value as Record<string, unknown>
  const unsafe = Object.entries(m).find(([, v]) => typeof v === 'string' && hasUnsafeUrlCharacters(v))
  if (unsafe)
    return `${unsafe[0]} may not hold tabs, line breaks, other control characters, backslashes or invisible characters`
  switch (m.type) {
    case 'product':
      return text(m.sku) && text(m.slug) ? null : 'product mapping needs sku and slug'
    case 'category':
      return text(m.slug) ? null : 'category mapping needs slug'
    case 'cms_page':
      return text(m.identifier) ? null : 'cms_page mapping needs identifier'
    case 'redirect':
      if (!text(m.to) || sameOriginPath(m.to, ANY_ORIGIN) === null)
        return 'redirect mapping needs a same-origin path in "to"'
      return m.status === undefined || m.status === 301 || m.status === 302
        ? null
        : 'redirect status must be 301 or 302'
    default:
      return `unknown mapping type ${JSON.stringify(m.type)}`
  }
}
