/**
 * The header's search panel (lazy-loaded on first open): results as you type, debounced 250 ms,
 * fuzzy multi_match (name^4, sku^2, category.name^1, fuzziness 2) through GET /api/catalog. Results
 * are cached locally by request hash and served from the cache first; a failed fetch gives an empty
 * result flagged offline.
 */

import { PLACEHOLDER_IMAGE, tileImage } from '@shared/components/catalog/images'
import { formatUnitPrice } from '@shared/domain/currency'
import { MSG } from '@shared/i18n/messages'
import { useEffect, useId, useRef, useState } from 'react'
import { currentApiContext } from '../../api'
import { Icon } from '../layout/icons'
import { type SearchResult, searchProducts } from './search-client'

/** "results as you type" delay. */
const SEARCH_DEBOUNCE_MS = 250
/** Results shown in the panel (the results page shows the full first page). */
const PANEL_RESULTS = 8

export function SearchPanel({ onClose }: { onClose: () => void }) {
  const [query, setQuery] = useState('')
  const [result, setResult] = useState<SearchResult | null>(null)
  const [loading, setLoading] = useState(false)
  const input = useRef<HTMLInputElement>(null)
  const id = useId()
  const { currency } = currentApiContext()

  useEffect(() => input.current?.focus(), [])

  useEffect(() => {
    const text = query.trim()
    if (text.length < 2) {
      setResult(null)
      return
    }
    let live = true
    const timer = setTimeout(() => {
      setLoading(true)
      searchProducts(text, 0, PANEL_RESULTS)
        .then((r) => live && setResult(r))
        .finally(() => live && setLoading(false))
    }, SEARCH_DEBOUNCE_MS)
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [query])

  const allUrl = `/search?q=${encodeURIComponent(query.trim())}`
  return (
    <div className="search-panel__inner">
      <form
        aria-label="Product search"
        action="/search"
        method="get"
        className="search-panel__form"
        onSubmit={(e) => {
          if (!query.trim()) e.preventDefault()
        }}
      >
        <label htmlFor={`${id}-q`} className="visually-hidden">
          Search products
        </label>
        <input
          ref={input}
          id={`${id}-q`}
          name="q"
          type="search"
          autoComplete="off"
          placeholder="Search for designers, styles, colours…"
          value={query}
          data-testid="search-input"
          onChange={(e) => setQuery(e.currentTarget.value)}
        />
        <button type="button" className="search-panel__close" onClick={onClose} aria-label="Close search">
          <Icon name="x" />
        </button>
      </form>
      <div className="search-panel__results" aria-live="polite" aria-busy={loading}>
        {result?.offline ? (
          <p className="notice" data-testid="search-offline">
            You are offline. {result.tiles.length ? 'Showing saved results.' : 'Search needs a connection.'}
          </p>
        ) : null}
        {result && result.tiles.length === 0 && !result.offline ? (
          <p className="search-panel__empty" data-testid="search-no-results">
            {MSG.noProductsFoundTitle}
          </p>
        ) : null}
        {result && result.tiles.length > 0 ? (
          <>
            <ul className="search-results" data-testid="search-results">
              {result.tiles.map((t) => {
                const img = t.image ? tileImage(t.image) : null
                return (
                  <li key={t.sku}>
                    <a href={t.url} className="search-result">
                      <img src={img?.src ?? PLACEHOLDER_IMAGE} alt="" width={56} height={84} loading="lazy" />
                      <span className="search-result__name">{t.name}</span>
                      <span className="search-result__price">
                        {t.inStock ? formatUnitPrice(t.finalPrice, currency) : MSG.showInterest}
                      </span>
                    </a>
                  </li>
                )
              })}
            </ul>
            <a href={allUrl} className="btn btn--secondary search-panel__all" data-testid="search-all">
              See all {result.total} results
            </a>
          </>
        ) : null}
      </div>
    </div>
  )
}
