/**
 * A tiny structural validator for island props on hydration (every island validates its props), for
 * the islands that every page or the budget-tight pages load: zod/mini costs ~6.5 KB gzip, a third
 * of all the JS the home page loads. A checker throws a TypeError naming the
 * bad path; `schemaOf` adapts one to defineIsland's `PropsSchema`.
 */
import type { PropsSchema } from './define'

export type Check<T> = (value: unknown, path: string) => T

function fail(path: string, expected: string): never {
  throw new TypeError(`island props: ${path} must be ${expected}`)
}

export const str: Check<string> = (v, p) => (typeof v === 'string' ? v : fail(p, 'a string'))
export const num: Check<number> = (v, p) =>
  typeof v === 'number' && Number.isFinite(v) ? v : fail(p, 'a number')
export const bool: Check<boolean> = (v, p) => (typeof v === 'boolean' ? v : fail(p, 'a boolean'))

/** null or the checked value. */
export function nullable<T>(check: Check<T>): Check<T | null> {
  return (v, p) => (v === null ? null : check(v, p))
}

/** undefined (absent) or the checked value. */
export function optional<T>(check: Check<T>): Check<T | undefined> {
  return (v, p) => (v === undefined ? undefined : check(v, p))
}

/** One of the given string literals. */
export function oneOf<const T extends string>(values: readonly T[]): Check<T> {
  return (v, p) => ((values as readonly unknown[]).includes(v) ? (v as T) : fail(p, values.join(' | ')))
}

export function array<T>(item: Check<T>): Check<T[]> {
  return (v, p) => (Array.isArray(v) ? v.map((x, i) => item(x, `${p}[${i}]`)) : fail(p, 'an array'))
}

/** A string-keyed record whose values pass `item`. */
export function record<T>(item: Check<T>): Check<Record<string, T>> {
  return (v, p) => {
    if (!v || typeof v !== 'object' || Array.isArray(v)) fail(p, 'an object')
    const out: Record<string, T> = {}
    for (const [k, x] of Object.entries(v as object)) out[k] = item(x, `${p}.${k}`)
    return out
  }
}

type Shape = Record<string, Check<unknown>>
type ShapeOf<S extends Shape> = { [K in keyof S]: ReturnType<S[K]> }

/** An object with the given fields (extra fields are dropped). */
export function object<S extends Shape>(shape: S): Check<ShapeOf<S>> {
  return (v, p) => {
    if (!v || typeof v !== 'object' || Array.isArray(v)) fail(p, 'an object')
    const src = v as Record<string, unknown>
    const out: Record<string, unknown> = {}
    for (const [k, check] of Object.entries(shape)) {
      const value = check(src[k], `${p}.${k}`)
      if (value !== undefined) out[k] = value
    }
    return out as ShapeOf<S>
  }
}

/** A lazily resolved checker (recursive shapes). */
export function lazy<T>(get: () => Check<T>): Check<T> {
  return (v, p) => get()(v, p)
}

/** Adapts a checker to defineIsland's schema interface. */
export function schemaOf<P>(check: Check<unknown>): PropsSchema<P> {
  return { parse: (data) => check(data, 'props') as P }
}
