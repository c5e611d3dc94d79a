/**
 * Coercion of exported documents the way Elasticsearch's mapping reads them: a value is converted
 * to the type the catalogue schema expects at that place, when the conversion is lossless —
 * numeric strings to numbers ("26" → 26), Magento flags to booleans ("0"/"1", 0/1, "true"/"false"),
 * comma-separated multiselect strings to arrays ("49,50" → [49, 50]), a single value to a
 * one-element array, and numbers to strings (numeric SKUs, string ids). Every conversion is
 * counted by kind, so an import can say what it changed. Anything else is left alone for the
 * schema to report.
 */
import type { z } from 'zod'

/** Kinds of conversion, as the import summary names them. */
type CoercionKind =
  | 'numeric string → number'
  | 'flag → boolean'
  | 'boolean → number'
  | 'comma-separated string → array'
  | 'single value → array'
  | 'number → string'
  | 'empty string → null'
  | 'several values → the first'

/**
 * Conversions that drop part of a value: the import warns about them per record, naming the field.
 */
export const LOSSY_KINDS: readonly CoercionKind[] = ['several values → the first']

export type CoercionCounts = Map<string, number>

interface Def {
  type: string
  shape?: Record<string, z.ZodType>
  element?: z.ZodType
  innerType?: z.ZodType
  options?: z.ZodType[]
  getter?: () => z.ZodType
  in?: z.ZodType
  entries?: Record<string, string>
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def

/** The schema with optional/nullable/default/lazy wrappers taken off, and whether null is allowed. */
function unwrap(schema: z.ZodType): { core: z.ZodType; nullable: boolean } {
  let s = schema
  let nullable = false
  for (let i = 0; i < 16; i++) {
    const d = defOf(s)
    if (d.type === 'optional' || d.type === 'nullable' || d.type === 'default' || d.type === 'prefault') {
      if (d.type === 'nullable') nullable = true
      s = d.innerType as z.ZodType
    } else if (d.type === 'lazy' && d.getter) s = d.getter()
    else if (d.type === 'pipe' && d.in) s = d.in
    else break
  }
  return { core: s, nullable }
}

const NUMERIC = /^\s*-?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/
/** A comma-separated list of two or more whole numbers (a Magento multiselect value). */
const SEVERAL_IDS = /^\s*\d+(\s*,\s*\d+)+\s*$/
const TRUE_FLAGS = new Set(['1', 'true', 'yes'])
const FALSE_FLAGS = new Set(['0', 'false', 'no', ''])

function count(counts: CoercionCounts, kind: CoercionKind, path: string) {
  const key = `${kind} (${path})`
  counts.set(key, (counts.get(key) ?? 0) + 1)
}

/** The path with array positions folded ('configurable_children[].color'), for counting by field. */
const join = (path: string, key: string) => (path ? `${path}.${key}` : key)

/**
 * Returns `value` converted to what `schema` expects, counting each conversion under its kind and
 * field path. Objects keep their unknown keys untouched.
 */
export function coerce(schema: z.ZodType, value: unknown, counts: CoercionCounts, path = ''): unknown {
  const { core, nullable } = unwrap(schema)
  const d = defOf(core)
  if (value === undefined) return value
  if (value === '' && nullable && d.type !== 'string') {
    count(counts, 'empty string → null', path)
    return null
  }
  if (value === null) return value
  switch (d.type) {
    case 'number': {
      if (typeof value === 'string' && NUMERIC.test(value)) {
        count(counts, 'numeric string → number', path)
        return Number(value)
      }
      // A multiselect value ("80,81,84") where the catalogue keeps one option: the first, warned.
      if (typeof value === 'string' && SEVERAL_IDS.test(value)) {
        count(counts, 'several values → the first', path)
        return Number(value.split(',')[0])
      }
      if (typeof value === 'boolean') {
        count(counts, 'boolean → number', path)
        return value ? 1 : 0
      }
      return value
    }
    case 'boolean': {
      if (typeof value === 'boolean') return value
      const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : null
      if (text !== null && TRUE_FLAGS.has(text.toLowerCase())) {
        count(counts, 'flag → boolean', path)
        return true
      }
      if (text !== null && FALSE_FLAGS.has(text.toLowerCase())) {
        count(counts, 'flag → boolean', path)
        return false
      }
      return value
    }
    case 'string': {
      if (typeof value === 'number' && Number.isFinite(value)) {
        count(counts, 'number → string', path)
        return String(value)
      }
      return value
    }
    case 'enum':
      return value
    case 'array': {
      const element = d.element as z.ZodType
      const inner = `${path}[]`
      let list: unknown[]
      if (Array.isArray(value)) list = value
      else if (typeof value === 'string') {
        const elementType = defOf(unwrap(element).core).type
        if (elementType !== 'number' && elementType !== 'string') return value
        count(counts, 'comma-separated string → array', path)
        list = value
          .split(',')
          .map((v) => v.trim())
          .filter((v) => v !== '')
      } else if (typeof value === 'number') {
        count(counts, 'single value → array', path)
        list = [value]
      } else return value
      return list.map((v) => coerce(element, v, counts, inner))
    }
    case 'object': {
      if (typeof value !== 'object' || Array.isArray(value)) return value
      const shape = d.shape ?? {}
      const out: Record<string, unknown> = { ...(value as Record<string, unknown>) }
      for (const [key, fieldSchema] of Object.entries(shape)) {
        if (key in out) out[key] = coerce(fieldSchema, out[key], counts, join(path, key))
      }
      return out
    }
    case 'union': {
      // A value one of the options takes as it is stays; else the first option that converts it.
      const options = d.options ?? []
      if (options.some((o) => o.safeParse(value).success)) return value
      for (const option of options) {
        const trial: CoercionCounts = new Map()
        const converted = coerce(option, value, trial, path)
        if (option.safeParse(converted).success) {
          for (const [k, n] of trial) counts.set(k, (counts.get(k) ?? 0) + n)
          return converted
        }
      }
      return value
    }
    default:
      return value
  }
}
