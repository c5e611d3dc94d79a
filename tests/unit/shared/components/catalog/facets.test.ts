import { describe, expect, it } from 'vitest'
import { type FacetLabels, knownChoices } from '../../../../../shared/components/catalog/facets'
import { parseListingQuery } from '../../../../../shared/components/catalog/listing-state'

const labels: FacetLabels = {
  titles: {},
  options: { color: { '49': 'Black', '50': 'Red' }, size: { '7': 'S' } },
}

describe('knownChoices', () => {
  it('drops the values an attribute with options does not offer, and an attribute left with none', () => {
    const state = parseListingQuery('?color=49,777,50&size=999&sort=price-asc')
    expect(knownChoices(state, labels)).toEqual({
      chosen: {
        color: [
          { id: '49', label: '49' },
          { id: '50', label: '50' },
        ],
      },
      sort: 'price-asc',
    })
  })

  it('keeps price bands and attributes without an option list as they are', () => {
    const state = parseListingQuery('?price=100-200&rts=1&color=49')
    expect(knownChoices(state, labels).chosen).toEqual(state.chosen)
  })

  it('answers the same state when nothing is dropped (kept markup is keyed by it)', () => {
    const state = parseListingQuery('?color=49&size=7')
    expect(knownChoices(state, labels)).toBe(state)
  })

  it('does not take an inherited property name for an option', () => {
    const state = parseListingQuery('?color=constructor,toString,49')
    expect(knownChoices(state, labels).chosen.color?.map((v) => v.id)).toEqual(['49'])
  })
})
