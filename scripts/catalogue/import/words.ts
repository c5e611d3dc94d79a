/**
 * How the import names a record and says what is wrong with it: in words an operator reads, not a
 * validator's text ("price: expected a number, found text", not "Invalid input: expected number,
 * received string").
 */

/** How a warning or refusal names a product: its SKU, else its id. */
export function productName(doc: Record<string, unknown>, id: unknown): string {
  if (typeof doc.sku === 'string' && doc.sku.trim()) return doc.sku.trim()
  const n = doc.id ?? id
  return n === undefined || n === null ? 'without sku or id' : `id ${String(n)}`
}

/** A type as the validator names it, in words. */
const TYPE_WORDS: ReadonlyMap<string, string> = new Map([
  ['number', 'a number'],
  ['string', 'text'],
  ['boolean', 'true or false'],
  ['array', 'a list'],
  ['object', 'an object'],
  ['null', 'null'],
  ['NaN', 'a value that is not a number'],
  ['Infinity', 'a number too large to hold'],
])

/** A validator's message in words; messages it does not know are kept. */
export function issueInWords(message: string): string {
  const m = /^Invalid input: expected (\w+), received (\w+)$/.exec(message)
  if (!m) return message
  const expected = TYPE_WORDS.get(m[1] as string) ?? (m[1] as string)
  if (m[2] === 'undefined') return `missing (expected ${expected})`
  return `expected ${expected}, found ${TYPE_WORDS.get(m[2] as string) ?? m[2]}`
}
