/**
 * The header's search panel (lazy-loaded on first open): results as you type, debounced 250 ms,
 * from the results page's own search (GET /search/suggest): a designer's name lists their pieces, a
 * misspelt query says which words were searched ("Showing results for …"). Results are cached
 * locally and served from the cache first; a failed fetch gives an empty result flagged offline.
 * Keyboard: ArrowDown from the field enters the results, ArrowUp/ArrowDown move through them (up
 * from the first returns to the field), Enter opens the focused one; Escape closes the panel (the
 * dialog rule in the header).
 */

import { MSG, msgPiecesBy, msgShowingResultsFor } from '@shared/i18n/messages'
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react'
import { Icon } from '../layout/icons'
import { type SearchResult, searchSuggestions } from './search-client'

/** "results as you type" delay. */
const SEARCH_DEBOUNCE_MS = 250
/** Shortest query searched as you type (the server answers nothing for less). */
const MIN_QUERY_LENGTH = 2

/**
 * Arrow keys move focus between the field and the result links, in order: down from the field to
 * the first result, down/up between results, up from the first result back to the field.
 */
function moveThroughResults(e: KeyboardEvent<HTMLElement>, input: HTMLInputElement | null): void {
  if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return
  const links = [...e.currentTarget.querySelectorAll<HTMLAnchorElement>('a.search-result')]
  if (!links.length || !input) return
  const at = links.indexOf(document.activeElement as HTMLAnchorElement)
  const onInput = document.activeElement === input
  if (!onInput && at < 0) return
  e.preventDefault()
  if (e.key === 'ArrowDown') (onInput ? links[0] : links[Math.min(at + 1, links.length - 1)])?.focus()
  else if (at <= 0) input.focus()
  else links[at - 1]?.focus()
}

export function SearchPanel({ onClose }: { onClose: () => void }) {
  const [query, setQuery] = useState('')
  const [result, setResult] = useState<SearchResult | null>(null)
  const [loading, setLoading] = useState(false)
  const input = useRef<HTMLInputElement>(null)
  const id = useId()

  useEffect(() => input.current?.focus(), [])

  useEffect(() => {
    const text = query.trim()
    if (text.length < MIN_QUERY_LENGTH) {
      setResult(null)
      return
    }
    let live = true
    const timer = setTimeout(() => {
      setLoading(true)
      searchSuggestions(text)
        .then((r) => live && setResult(r))
        .finally(() => live && setLoading(false))
    }, SEARCH_DEBOUNCE_MS)
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [query])

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: arrow keys bubbling from the field and the result links
    <div className="search-panel__inner" onKeyDown={(e) => moveThroughResults(e, input.current)}>
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
            You are offline. {result.items.length ? 'Showing saved results.' : 'Search needs a connection.'}
          </p>
        ) : null}
        {result?.correction ? (
          <p className="search-panel__note" data-testid="search-correction">
            {msgShowingResultsFor(result.correction)}
          </p>
        ) : null}
        {result?.designer && result.items.length > 0 ? (
          <p className="search-panel__note" data-testid="search-designer">
            {msgPiecesBy(result.designer.label)}
          </p>
        ) : null}
        {result && result.items.length === 0 && !result.offline ? (
          <p className="search-panel__empty" data-testid="search-no-results">
            {MSG.noProductsFoundTitle}
          </p>
        ) : null}
        {result && result.items.length > 0 ? (
          <>
            <ul className="search-results" data-testid="search-results">
              {result.items.map((t) => (
                <li key={t.sku}>
                  <a href={t.url} className="search-result">
                    <img src={t.image} alt="" width={56} height={84} loading="lazy" />
                    <span className="search-result__name">{t.name}</span>
                    <span className="search-result__price">{t.price}</span>
                  </a>
                </li>
              ))}
            </ul>
            <a href={result.allUrl} className="btn btn--secondary search-panel__all" data-testid="search-all">
              See all {result.total} results
            </a>
          </>
        ) : null}
      </div>
    </div>
  )
}
