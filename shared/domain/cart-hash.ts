/**
 * Deterministic hashing for the cart's dirty check (a sync is required when
 * there is no hash, the hash changed, or there is no sync date), the catalogue cache key and the
 * order double-submit guard. Synchronous and dependency-free so it runs the same in browsers,
 * workerd and Node: a stable JSON stringify (sorted keys, undefined dropped) + a 64-bit hash
 * built from two independent 32-bit FNV-1a/murmur-style lanes (not cryptographic; a dirty check).
 */

/** JSON.stringify with object keys sorted recursively, so equal data gives equal text. */
export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return 'null'
    if (typeof value === 'number' && !Number.isFinite(value)) return 'null'
    return JSON.stringify(value)
  }
  if (Array.isArray(value)) return `[${value.map((v) => stableStringify(v)).join(',')}]`
  const obj = value as Record<string, unknown>
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined && typeof obj[k] !== 'function')
    .sort()
  return `{${keys.map((k) => `${JSON.stringify(k)}:${stableStringify(obj[k])}`).join(',')}}`
}

/** 64-bit (16 hex chars) non-cryptographic hash of a string; same output on every platform. */
export function hashString(text: string): string {
  let h1 = 0x811c9dc5 ^ text.length
  let h2 = 0x9747b28c
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    h1 = Math.imul(h1 ^ c, 0x01000193)
    h2 = Math.imul(h2 ^ c, 0x5bd1e995)
    h2 ^= h2 >>> 15
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 0x85ebca6b) ^ Math.imul(h2 ^ (h2 >>> 13), 0xc2b2ae35)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 0x85ebca6b) ^ Math.imul(h1 ^ (h1 >>> 13), 0xc2b2ae35)
  return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0')
}

/** Hash of any JSON-able value via stableStringify. */
export function hashValue(value: unknown): string {
  return hashString(stableStringify(value))
}

/** Fields of a cart line that do not describe what the shopper wants (stock, totals, messages). */
const VOLATILE_ITEM_FIELDS = new Set(['stock', 'totals', 'info', 'errors', 'prev_qty', 'onlineStockCheckid'])

/** Hash of the cart as the server should see it: items without stock/totals/messages, plus the cart token. */
export function cartHash(
  items: readonly Record<string, unknown>[],
  cartToken: string | null | undefined,
): string {
  const stripped = items.map((item) =>
    Object.fromEntries(Object.entries(item).filter(([k]) => !VOLATILE_ITEM_FIELDS.has(k))),
  )
  return hashValue({ items: stripped, token: cartToken ?? '' })
}

/** "Sync is required when there is no hash, the hash changed, or there is no sync date." */
export function isSyncRequired(state: {
  currentHash: string
  storedHash: string | null | undefined
  lastSyncAt: number | null | undefined
}): boolean {
  return !state.storedHash || state.storedHash !== state.currentHash || !state.lastSyncAt
}
