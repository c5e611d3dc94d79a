/** Bit sets of product ids, one 32-bit word per 32 ids: what narrowing combines clauses with. */
/** Largest product id narrowed with (each resolved clause is a bit set of MAX_ID bits, 256 KB). */
export const MAX_ID = 1 << 21

/**
 * Words of a bit set of ids 0 to `maxId`: none when there is no id (-1), whose unsigned shift would
 * otherwise ask for 2^27 words, half a gigabyte, for a word no product holds.
 */
export function bitSetWords(maxId: number): number {
  return maxId < 0 ? 0 : (maxId >>> 5) + 1
}

/** The products of `lists` as a bit set of `words` words. */
export function listBits(lists: ArrayLike<number>[], words: number): Uint32Array {
  const bits = new Uint32Array(words)
  for (const list of lists)
    for (let k = 0; k < list.length; k++) {
      const id = list[k] as number
      bits[id >>> 5] = (bits[id >>> 5] as number) | (1 << (id & 31))
    }
  return bits
}

export function and(a: Uint32Array, b: Uint32Array): Uint32Array {
  for (let i = 0; i < a.length; i++) a[i] = (a[i] as number) & (b[i] as number)
  return a
}

export function or(a: Uint32Array, b: Uint32Array): Uint32Array {
  for (let i = 0; i < a.length; i++) a[i] = (a[i] as number) | (b[i] as number)
  return a
}

/** The ids of a bit set's set bits, ascending. */
export function setIds(set: Uint32Array): Int32Array {
  let n = 0
  for (let i = 0; i < set.length; i++) n += popcount(set[i] as number)
  const out = new Int32Array(n)
  let k = 0
  for (let i = 0; i < set.length; i++) {
    let w = set[i] as number
    while (w !== 0) {
      const low = w & -w
      out[k++] = (i << 5) + (31 - Math.clz32(low))
      w ^= low
    }
  }
  return out
}

/** Set bits of a 32-bit word. */
export function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555)
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333)
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24
}
