// Stock rows of the demo catalogue follow the rule for what is sold: a disabled variant has no
// stock row, every enabled one has one, and every configurable keeps an enabled variant even
// among a large catalogue's million-odd random draws.
import { describe, expect, it } from 'vitest'
import { generateCatalogue } from '../../../../scripts/catalogue/seed/generate'

describe('demo catalogue stock', () => {
  it('writes a stock row for every enabled variant and none for a disabled one', () => {
    const cat = generateCatalogue()
    const rows = new Map(cat.inventory.map((r) => [r.sku, r]))
    let disabled = 0
    for (const p of cat.products) {
      for (const ch of p.configurable_children) {
        if (ch.status === 2) {
          disabled++
          expect(rows.has(ch.sku), `${ch.sku} is disabled but has a stock row`).toBe(false)
        } else {
          expect(rows.get(ch.sku)?.qty, ch.sku).toBe(ch.stock.qty)
        }
      }
    }
    // The rule is exercised: the default catalogue has disabled variants.
    expect(disabled).toBeGreaterThan(10)
  })

  it('keeps an enabled variant on every configurable at 10,000 products', () => {
    const cat = generateCatalogue({ scale: 10000 })
    const stockRows = new Set(cat.inventory.map((r) => r.sku))
    for (const p of cat.products) {
      if (p.type_id !== 'configurable') continue
      const enabled = p.configurable_children.filter((ch) => ch.status === 1)
      expect(enabled.length, `${p.sku} has no enabled variant`).toBeGreaterThan(0)
      expect(enabled.some((ch) => stockRows.has(ch.sku))).toBe(true)
    }
  }, 60_000)
})
