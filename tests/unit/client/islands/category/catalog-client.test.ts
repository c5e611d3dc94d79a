import { MAX_LISTING_PAGE_SIZE } from '@shared/config/catalog'
import { describe, expect, it } from 'vitest'
import { parseSearchResponse } from '../../../../../client/islands/category/catalog-fetch'
import { preloadRootMargin } from '../../../../../client/islands/category/lazy-images'
import {
  filterActionsVisibility,
  restoreFetch,
  restoreScrollTop,
  SCROLL_RESTORE_KEY,
  saveScrollRecord,
  takeScrollRecord,
} from '../../../../../client/islands/category/scroll-restore'
import { easeInOut, nextPage } from '../../../../../client/islands/home/carousel'
import { isEmailLike, seenPopups } from '../../../../../client/islands/home/home-enhance'
import { enquiryMailto } from '../../../../../client/islands/layout/chat-panel'
import { menuTrail } from '../../../../../client/islands/layout/sidebar'
import {
  array,
  nullable,
  num,
  object,
  optional,
  schemaOf,
  str,
} from '../../../../../client/islands/props-check'
import {
  closePanels,
  openPanel,
  popSubmenu,
  pushSubmenu,
  submenuPath,
  togglePanel,
} from '../../../../../client/state/ui'
import { toHomeView } from '../../../../../worker/pages/home/loader'
import { memoryStore } from '../../../../helpers/browser-fakes'

describe('scroll restore (delay 100 ms, offset 150 px, reload with the item count)', () => {
  it('restores only on the same listing URL and consumes the record', () => {
    const store = memoryStore()
    saveScrollRecord(store, { url: '/women?color=49', sku: 'KUR-1', loaded: 48 })
    expect(takeScrollRecord(store, '/women')).toBeNull()
    expect(takeScrollRecord(store, '/women?color=49')).toEqual({
      url: '/women?color=49',
      sku: 'KUR-1',
      loaded: 48,
    })
    expect(store.map.has(SCROLL_RESTORE_KEY)).toBe(false)
    expect(takeScrollRecord(store, '/women?color=49')).toBeNull()
  })

  it('ignores malformed records', () => {
    const store = memoryStore()
    store.setItem(SCROLL_RESTORE_KEY, '{not json')
    expect(takeScrollRecord(store, '/x')).toBeNull()
    store.setItem(SCROLL_RESTORE_KEY, JSON.stringify({ url: '/x', sku: 1 }))
    expect(takeScrollRecord(store, '/x')).toBeNull()
  })

  it('fetches the missing products to reach the remembered count', () => {
    expect(restoreFetch(24, 72)).toEqual({ from: 24, size: 48 })
    expect(restoreFetch(24, 24)).toBeNull()
    expect(restoreFetch(48, 24)).toBeNull()
    // Never more than one listing page's bound at a time.
    expect(restoreFetch(24, 10_000)).toEqual({ from: 24, size: MAX_LISTING_PAGE_SIZE })
  })

  it('scrolls to 150 px above the product, never below 0', () => {
    expect(restoreScrollTop(1000)).toBe(850)
    expect(restoreScrollTop(100)).toBe(0)
  })
})

describe('mobile filter actions (show on scroll up over 50 px, hide on scroll down)', () => {
  it('hides on any scroll down and shows after more than 50 px up', () => {
    let s = { visible: true, anchor: 0, last: 0 }
    s = filterActionsVisibility(s, 400, 50)
    expect(s.visible).toBe(false)
    s = filterActionsVisibility(s, 370, 50)
    expect(s.visible).toBe(false)
    s = filterActionsVisibility(s, 349, 50)
    expect(s.visible).toBe(true)
    s = filterActionsVisibility(s, 360, 50)
    expect(s.visible).toBe(false)
  })
})

describe('carousel', () => {
  it('wraps pages around and eases from 0 to 1', () => {
    expect(nextPage(0, 1, 3)).toBe(1)
    expect(nextPage(2, 1, 3)).toBe(0)
    expect(nextPage(0, -1, 3)).toBe(2)
    expect(nextPage(0, 1, 0)).toBe(0)
    expect(easeInOut(0)).toBe(0)
    expect(easeInOut(1)).toBe(1)
    expect(easeInOut(0.5)).toBeCloseTo(0.5)
  })
})

describe('lazy images', () => {
  it('extends the viewport by the 1.3 pre-load factor', () => {
    expect(preloadRootMargin()).toBe('0px 0px 30% 0px')
    expect(preloadRootMargin(1)).toBe('0px 0px 0% 0px')
  })
})

describe('UI panels and the sidebar submenu', () => {
  it('opens one panel at a time and pops the submenu after 300 ms', () => {
    closePanels()
    togglePanel('sidebar')
    pushSubmenu(3)
    pushSubmenu(12)
    const timers: Array<[() => void, number]> = []
    popSubmenu((fn, ms) => timers.push([fn, ms]))
    expect(submenuPath.value).toEqual([3, 12])
    expect(timers[0]?.[1]).toBe(300)
    timers[0]?.[0]()
    expect(submenuPath.value).toEqual([3])
    togglePanel('search')
    expect(openPanel.value).toBe('search')
    expect(submenuPath.value).toEqual([])
    togglePanel('search')
    expect(openPanel.value).toBeNull()
  })

  it('walks the menu along a submenu path', () => {
    const menu = [
      {
        id: 3,
        name: 'Women',
        url: '/women',
        children: [{ id: 12, name: 'Kurtas', url: '/women/kurtas', children: [] }],
      },
    ]
    expect(menuTrail(menu, [3, 12]).map((m) => m.name)).toEqual(['Women', 'Kurtas'])
    expect(menuTrail(menu, [4])).toEqual([])
  })
})

describe('island props checker', () => {
  const check = schemaOf<{ a: string; b: number[]; c: string | null; d?: string }>(
    object({ a: str, b: array(num), c: nullable(str), d: optional(str) }),
  )
  it('accepts the right shape and names the path of a wrong one', () => {
    expect(check.parse({ a: 'x', b: [1], c: null, extra: true })).toEqual({ a: 'x', b: [1], c: null })
    expect(() => check.parse({ a: 'x', b: [1, 'two'], c: null })).toThrow('props.b[1] must be a number')
    expect(() => check.parse(null)).toThrow('props must be an object')
  })
})

describe('search response → tiles', () => {
  it('reads ES hits (number or {value} totals) and skips malformed sources', () => {
    const body = {
      hits: {
        total: { value: 2 },
        hits: [
          {
            _source: {
              id: 1,
              sku: 'S-1',
              name: 'Silk Saree',
              slug: 'silk-saree',
              type_id: 'simple',
              price: 9000,
              stock: { qty: 1, is_in_stock: true, stock_status: 1 },
            },
          },
          { _source: { id: 2 } },
        ],
      },
      aggregations: { agg_terms_color: { buckets: [] } },
    }
    const page = parseSearchResponse(body, Date.UTC(2026, 0, 1))
    expect(page.total).toBe(2)
    expect(page.fetched).toBe(2)
    expect(page.tiles.map((t) => [t.sku, t.finalPrice, t.url])).toEqual([['S-1', 9000, '/p/S-1/silk-saree']])
    expect(parseSearchResponse({ hits: { total: 0, hits: [] } }, 0).total).toBe(0)
    expect(parseSearchResponse(null, 0).tiles).toEqual([])
  })
})

describe('home helpers', () => {
  it('validates emails loosely and remembers shown popups', () => {
    expect(isEmailLike('a@b.in')).toBe(true)
    expect(isEmailLike('nope')).toBe(false)
    expect([...seenPopups('exit_popup,generic_popup')]).toEqual(['exit_popup', 'generic_popup'])
    expect(seenPopups(null).size).toBe(0)
  })

  it('builds the enquiry mail with the product link', () => {
    const url = enquiryMailto('care@example.com', 'Asha', 'a@b.in', 'Interested in https://shop/p/X/y')
    expect(url.startsWith('mailto:care%40example.com?subject=')).toBe(true)
    expect(decodeURIComponent(url)).toContain('Interested in https://shop/p/X/y')
  })

  it('keeps the curated sections 189 and 190 even when the home data lacks them', () => {
    const view = toHomeView({
      sections: [{ id: 1, type: 'banner', title: 'Hero', position: 1 }],
      popups: 'bad',
    })
    expect(view.sections.filter((s) => s.type === 'category_products').map((s) => s.category_id)).toEqual([
      189, 190,
    ])
    expect(view.strip).toBeNull()
    const withPopups = toHomeView({
      sections: [],
      popups: [
        { id: 1, type: 'strip', text: 'Free shipping', active: true },
        { id: 2, type: 'exit_popup', text: 'Bye', active: false },
      ],
    })
    expect(withPopups.strip?.text).toBe('Free shipping')
    expect(withPopups.exitPopup).toBeNull()
  })
})
