/**
 * The visit list as the statement reads it: products grouped by their bits (a statement whose every
 * test and score reads the bits alone ranks whole groups), and the products of the groups it matched.
 */
import type { Narrowing } from './narrow-query'

/** At most this many groups of bits are listed group by group (bitGroups); more are listed product by product. */
export const MAX_BIT_GROUPS = 1024

/** A grouped product's place in the list, above its id (ids are at most MAX_ID). */
export const PLACE_UNIT = 2 ** 22

/**
 * The listed products grouped by their bits, as JSON `[[bits, count, [id, …]], …]`: groups in the
 * order their first product is listed, each group's ids in list order and only its first `keep`;
 * with `placed`, each id as `place * PLACE_UNIT + id` (its place in the list). A statement whose
 * every test and score read the bits alone ranks whole groups, and needs no more than `keep`
 * products of one group for the first `keep` matches. Null past MAX_BIT_GROUPS groups.
 */
export function bitGroups(narrow: Narrowing, keep: number, placed = false): string | null {
  const scale = 2 ** narrow.width
  const groups = new Map<number, { count: number; ids: number[] }>()
  for (let place = 0; place < narrow.list.length; place++) {
    const x = narrow.list[place] as number
    const bits = x % scale
    let g = groups.get(bits)
    if (!g) {
      if (groups.size === MAX_BIT_GROUPS) return null
      g = { count: 0, ids: [] }
      groups.set(bits, g)
    }
    const id = (x - bits) / scale
    if (g.count < keep) g.ids.push(placed ? place * PLACE_UNIT + id : id)
    g.count++
  }
  return JSON.stringify([...groups].map(([bits, g]) => [bits, g.count, g.ids]))
}

/** The listed products whose bits are one of `matching` (the groups a grouped statement matched). */
export function idsWithBits(narrow: Narrowing, matching: number[]): number[] {
  const scale = 2 ** narrow.width
  const wanted = new Set(matching)
  const out: number[] = []
  for (const x of narrow.list) {
    const bits = x % scale
    if (wanted.has(bits)) out.push((x - bits) / scale)
  }
  return out
}
