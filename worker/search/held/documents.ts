/**
 * The per-isolate copies of parsed product documents, shared by every page answered at the index
 * version they were read at: a page whose documents the isolate holds is not read from D1 again.
 */
import type { Product } from '@shared/schemas/catalog'
import { createMemo } from '../../platform/memo'
import { indexVersionSeen } from './index-version'

/** Most heap bytes of parsed documents kept per isolate. */
export const DOC_CACHE_MAX_BYTES = 4.5 * 1024 * 1024

/**
 * Parsed product documents of the current index version, shared by every cached result set
 * (most recently used last). They are deep-frozen: answers merge live stock into copies, and a
 * caller that tried to change a shared document would fail loudly instead of corrupting it.
 * Bounded by their heap bytes (estimated from their JSON length).
 */
const docCache = createMemo<{ version: number; doc: Product; bytes: number }>({
  name: 'search documents',
  ttlMs: Number.POSITIVE_INFINITY,
  maxEntries: Number.POSITIVE_INFINITY,
  maxBytes: DOC_CACHE_MAX_BYTES,
  sizeOf: (e) => e.bytes,
  version: indexVersionSeen,
})

/** Freezes `v` and everything it holds that is not frozen yet (a frozen object's parts already are). */
export function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) {
    Object.freeze(v)
    for (const x of Object.values(v)) deepFreeze(x)
  }
  return v
}

/**
 * Heap bytes of a parsed document per byte of its JSON text: what approxBytes counts for the
 * catalogue's documents, rounded up (walking every document kept would cost more than reading it).
 */
const DOC_HEAP_PER_JSON_BYTE = 2

/** Keeps a product document read at `version` (`jsonBytes`: its JSON length). */
export function keepDoc(id: number, version: number, doc: Product, jsonBytes: number): void {
  docCache.set(String(id), {
    version,
    doc: deepFreeze(doc),
    bytes: Math.ceil(jsonBytes * DOC_HEAP_PER_JSON_BYTE) + 64,
  })
}

/**
 * Most held documents a statement is told about (the most recently used): each costs its id in a
 * parameter, and a statement returns the page's other documents.
 */
const MAX_HELD_DOCS_LISTED = 2000

/**
 * The documents held for `version`, by id, at most MAX_HELD_DOCS_LISTED of them (the most recently
 * used): a copy, so what a statement was told it need not return stays at hand whatever the cache
 * evicts meanwhile.
 */
export function heldDocs(version: number): Map<number, Product> {
  const held = new Map<number, Product>()
  const kept = docCache.entries()
  for (const [id, e] of kept.slice(-MAX_HELD_DOCS_LISTED))
    if (e.version === version) held.set(Number(id), e.doc)
  return held
}

/** The kept document of product `id` if it was read at `version`. */
export function heldDoc(id: number, version: number): Product | undefined {
  const e = docCache.peek(String(id))
  return e?.version === version ? e.doc : undefined
}

/** Empties the documents held (tests, with the result sets). */
export function clearDocuments(): void {
  docCache.clear()
}
