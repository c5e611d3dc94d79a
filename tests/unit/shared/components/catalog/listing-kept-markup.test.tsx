// A grid tile whose markup is already there (KeptTileMarkup) is placed as it is: the listing's
// bytes are exactly those of the listing that renders every tile in place, so the browser hydrates
// the same markup either way. Which tiles are held is the provider's choice (the server's holds no
// first-row tile: tests/unit/worker/pages/grid-tiles.test.tsx). The filter panel's content likewise
// (that the panel answers placed content as rendered content: tests/e2e/category-perf.spec.ts).
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { FilterGroup } from '../../../../../shared/components/catalog/facets'
import type { ListingState } from '../../../../../shared/components/catalog/listing-state'
import {
  FilterPanelContent,
  gridTileIsEager,
  KeptFilterMarkup,
  KeptTileMarkup,
  ListingView,
} from '../../../../../shared/components/catalog/listing-view'
import { ProductTile } from '../../../../../shared/components/catalog/product-tile'
import type { TileData } from '../../../../../shared/components/catalog/tile-data'

function tile(i: number, over: Partial<TileData> = {}): TileData {
  return {
    id: i,
    sku: `SKU-${i}`,
    name: `Kurta <${i}> & "co"`,
    url: `/p/kurta-${i}`,
    image: i % 3 === 0 ? null : `/p/kurta-${i}.jpg`,
    hoverImage: i % 2 === 0 ? `/p/kurta-${i}-back.jpg` : null,
    finalPrice: 3000 + i,
    regularPrice: i % 2 === 0 ? 4000 + i : 3000 + i,
    discountPercent: i % 2 === 0 ? 25 : 0,
    sale: i % 2 === 0,
    isNew: i % 4 === 1,
    inStock: i % 5 !== 4,
    international: false,
    designer: i % 3 === 1 ? 'Ode' : null,
    readyToShip: i % 2 === 1,
    from: i === 7,
    colors:
      i % 3 === 2
        ? [
            { id: 49, label: 'Red', swatch: '#c00' },
            { id: 50, label: 'Ivory', swatch: null },
          ]
        : undefined,
    shownColor: i === 2 ? 49 : undefined,
    rating: i === 3 ? { average: 4.5, count: 12 } : undefined,
    ...over,
  }
}

const TILES = Array.from({ length: 10 }, (_, i) => tile(i))
const STATE = { chosen: {}, sort: 'latest' as const }

const listing = (kept: ReadonlyMap<TileData, string> | null) =>
  renderToString(
    <KeptTileMarkup.Provider value={kept}>
      <ListingView currency="INR" state={STATE} tiles={TILES} total={40} loaded={10} groups={[]} />
    </KeptTileMarkup.Provider>,
  )

describe('kept tile markup in the listing grid', () => {
  it('gives the same bytes as tiles rendered in place', () => {
    // The server's kind of provider: the lazy markup of the tiles past the first row.
    const kept = new Map(
      TILES.filter((_, i) => !gridTileIsEager(i)).map((t) => [
        t,
        renderToString(<ProductTile tile={t} currency="INR" />),
      ]),
    )
    const inPlace = listing(null)
    expect(inPlace).toContain('fetchPriority="high"')
    // Compared as a boolean: a failure would print two whole listings.
    expect(listing(kept) === inPlace).toBe(true)
  })

  it('places the kept markup as it is, and renders a tile it does not hold', () => {
    const first = TILES[0] as TileData
    const later = TILES[9] as TileData
    const kept = new Map([[later, '<article data-kept="later">kept</article>']])
    const html = listing(kept)
    expect(html).toContain('<li class="product-grid__item"><article data-kept="later">kept</article></li>')
    expect(html).not.toContain(`data-sku="${later.sku}"`)
    expect(html).toContain(`data-sku="${first.sku}"`)
  })
})

const GROUPS: FilterGroup[] = [
  {
    attr: 'color',
    label: 'Colour',
    kind: 'swatch',
    options: [
      { id: '49', label: 'Red', count: 3, swatch: '#c00' },
      { id: '50', label: 'Ivory & "co"', count: 1, swatch: null },
    ],
  },
  { attr: 'size', label: 'Size', kind: 'list', options: [{ id: '7', label: 'M', count: 2 }] },
  {
    attr: 'price',
    label: 'Price',
    kind: 'price',
    options: [{ id: '0-5000', label: '₹0 – ₹5,000', count: 4 }],
  },
]

describe('kept filter panel markup', () => {
  for (const [name, state, text] of [
    ['nothing chosen', { chosen: {}, sort: 'latest' }, undefined],
    [
      'a colour chosen, sorted, a search',
      { chosen: { color: [{ id: '49', label: 'Red' }] }, sort: 'price-asc' },
      'kurta',
    ],
  ] as [string, ListingState, string | undefined][]) {
    it(`gives the same bytes as the panel rendered in place: ${name}`, () => {
      const view = (kept: ReadonlyMap<readonly FilterGroup[], string> | null) =>
        renderToString(
          <KeptFilterMarkup.Provider value={kept}>
            <ListingView
              currency="INR"
              text={text}
              state={state}
              tiles={TILES}
              total={40}
              loaded={10}
              groups={GROUPS}
              onOpenFilters={() => {}}
            />
          </KeptFilterMarkup.Provider>,
        )
      const content = renderToString(
        <FilterPanelContent groups={GROUPS} state={state} text={text} onOpenFilters={() => {}} />,
      )
      const inPlace = view(null)
      expect(inPlace).toContain('data-testid="filter-option"')
      expect(view(new Map([[GROUPS, content]])) === inPlace).toBe(true)
      expect(view(new Map([[GROUPS, '<p data-kept="">kept</p>']]))).toContain(
        'data-testid="filters"><p data-kept="">kept</p></aside>',
      )
    })
  }
})
