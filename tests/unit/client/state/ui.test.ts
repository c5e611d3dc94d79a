// A header link opens its panel instead of following its href when an island on the page renders
// the panel, or will as soon as it has hydrated (a click made while the page hydrates is replayed on
// the header, which may hydrate first); otherwise the link is followed.
import { describe, expect, it } from 'vitest'
import { panelOnPage } from '../../../../client/state/ui'

type Attrs = Record<string, string>

/**
 * A page's elements by their attributes, answering the attribute selectors the shop's code asks
 * about (`[a="v"]`, `[a]`, `:not([a])`, joined): enough of `querySelector` for a node test.
 */
function page(...elements: Attrs[]): Pick<ParentNode, 'querySelector'> {
  const matches = (el: Attrs, selector: string): boolean => {
    const parts = selector.match(/:not\(\[[^\]]+\]\)|\[[^\]]+\]/g) ?? []
    return parts.every((part) => {
      const negated = part.startsWith(':not(')
      const [, name, value] = part.match(/\[([\w-]+)(?:="([^"]*)")?\]/) ?? []
      const has = name !== undefined && name in el && (value === undefined || el[name] === value)
      return negated ? !has : has
    })
  }
  return {
    querySelector: ((selector: string) =>
      elements.some((el) => matches(el, selector)) ? ({} as Element) : null) as ParentNode['querySelector'],
  }
}

describe('a header link to a panel', () => {
  it('opens the panel an island renders', () => {
    expect(panelOnPage('microcart', new Set(['microcart']), page())).toBe(true)
  })

  it('opens the panel while its island is hydrating (it renders the panel open once mounted)', () => {
    expect(
      panelOnPage('microcart', new Set(), page({ 'data-island': 'microcart', 'data-hydrating': 'true' })),
    ).toBe(true)
  })

  it('follows the link when no island renders the panel', () => {
    // No mini-cart on the page, or one that hydrated without rendering the panel.
    expect(panelOnPage('microcart', new Set(), page())).toBe(false)
    const hydrated = { 'data-island': 'microcart', 'data-hydrating': 'true', 'data-hydrated': 'true' }
    expect(panelOnPage('microcart', new Set(), page(hydrated))).toBe(false)
    // Markup no script has taken up (its code did not load): the cart page, not a dead link.
    expect(panelOnPage('microcart', new Set(), page({ 'data-island': 'microcart' }))).toBe(false)
    // Another island hydrating says nothing about the mini-cart.
    const other = { 'data-island': 'wishlist-panel', 'data-hydrating': 'true' }
    expect(panelOnPage('microcart', new Set(), page(other))).toBe(false)
  })
})
