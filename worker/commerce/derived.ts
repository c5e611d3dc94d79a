/**
 * Values computed from memoised reference reads (the home document parsed, the menu built from the
 * category tree, filter labels from the attributes, GST rates from the tax rules), kept with the
 * read they come from. A memoised read is one object for as long as it is valid, and a new object
 * once its data moves (commerce/index.ts), so a value kept by that object's identity is exact: it
 * is computed once per version of its source instead of on every request, and goes when the
 * source does. Values kept here are shared between requests: callers never mutate them.
 */
const kept = new WeakMap<object, Map<string, unknown>>()

/** `compute()`, once per `source` object and `key` (what else the value depends on). */
export function derivedFrom<T>(source: object, key: string, compute: () => T): T {
  let values = kept.get(source)
  if (!values) {
    values = new Map()
    kept.set(source, values)
  }
  if (values.has(key)) return values.get(key) as T
  const value = compute()
  values.set(key, value)
  return value
}
