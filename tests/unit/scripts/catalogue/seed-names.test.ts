// Product names stay unique and wordy at large scales: when every collection word is taken for a
// fabric and garment, the product's own colours make new names (one, then two of them) before a
// piece number is the last resort.
import { describe, expect, it } from 'vitest'
import { createContext } from '../../../../scripts/catalogue/seed/context'
import { uniqueName } from '../../../../scripts/catalogue/seed/copy'
import { MOTIFS } from '../../../../scripts/catalogue/seed/fabrics'
import { createRng } from '../../../../scripts/catalogue/seed/prng'
import { COLORS } from '../../../../worker/pages/images/palette'

describe('unique product names', () => {
  it('uses one and then two of the own colours before numbering a piece', () => {
    const ctx = createContext(createRng(1))
    const colours = COLORS.slice(0, 3)
    const n = MOTIFS.length
    // Plain names, one per colour, one per pair of colours: 7 names per collection word.
    const names = Array.from({ length: 7 * n }, (_, k) =>
      uniqueName(ctx, k, 'Banarasi Silk', 'Saree', colours, 5000 + k),
    )
    expect(new Set(names).size).toBe(names.length)
    for (const name of names) expect(name).not.toMatch(/No\. \d+$/)
    expect(names.filter((x) => x.includes(' and '))).toHaveLength(3 * n)
    for (const name of names.filter((x) => x.includes(' and ')))
      expect(colours.filter((c) => name.includes(c.label))).toHaveLength(2)
    const last = uniqueName(ctx, 0, 'Banarasi Silk', 'Saree', colours, 9999)
    expect(last).toMatch(/No\. 9999$/)
    expect(names).not.toContain(last)
  })
})
