/**
 * The listing's markup: filter panel (groups from the aggregations; options are links to the
 * filtered URL so they work without JavaScript and are shareable), sort control, result count,
 * the product grid, the infinite-scroll sentinel, mobile filter actions and back-to-top.
 * Presentational: the listing island passes state and handlers.
 */
import {
  createContext,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  type RefObject,
  useContext,
} from 'react'
import { LISTING_COLUMNS, SORT_OPTIONS, type SortId } from '../../config/catalog'
import { MSG } from '../../i18n/messages'
import type { FilterGroup } from './facets'
import {
  clearFilters,
  hasFilters,
  isChosen,
  type ListingState,
  listingHref,
  toggleListingFilter,
} from './listing-state'
import { ProductTile } from './product-tile'
import type { TileData } from './tile-data'

/**
 * Tile markup that is already there, by tile: a grid item whose tile it holds carries that markup
 * as it is. The server holds the markup of the tiles past the first row (worker/pages/layout/
 * grid-tiles.tsx), exactly what `ProductTile` renders for them with their images loaded lazily, so
 * the page's bytes are the same as when they are rendered here; the first row is rendered here, as
 * its images load at once and React hoists their preloads into the head. The browser's hydration
 * holds the page's own markup of the tiles it was given (client/islands/category/listing.tsx).
 */
export const KeptTileMarkup = createContext<{ get(tile: TileData): string | undefined } | null>(null)

/**
 * The filter panel's content that is already there, by the filter groups it shows: exactly what
 * `FilterPanelContent` renders for those groups with the listing's state and text (the island's
 * panel always has its Done button), placed as the panel's content. The server holds the content it
 * kept for the listing (worker/pages/layout/grid-tiles.tsx); the browser's hydration, the page's own
 * while the panel shows the page's groups under the page's state (client/islands/category/listing.tsx).
 */
export const KeptFilterMarkup = createContext<{
  get(groups: readonly FilterGroup[]): string | undefined
} | null>(null)

/** Whether the grid's tile at `index` loads its images at once (the first row, for LCP). */
export function gridTileIsEager(index: number): boolean {
  return index < LISTING_COLUMNS.configured
}

interface ListingViewProps {
  currency: string
  /** Search text: the listing is a search's results (links keep the text; Relevance is a sort). */
  text?: string
  state: ListingState
  tiles: TileData[]
  total: number
  loaded: number
  groups: FilterGroup[]
  loading?: boolean
  online?: boolean
  filtersOpen?: boolean
  actionsVisible?: boolean
  backToTop?: boolean
  /** The drawings of the chips' remove mark and of back-to-top (the island passes the shop's icons). */
  icons?: { remove: ReactNode; top: ReactNode }
  sentinelRef?: RefObject<HTMLDivElement | null>
  onToggle?: (attr: string, id: string, label: string) => void
  onClear?: () => void
  onSort?: (sort: SortId) => void
  onOpenFilters?: (open: boolean) => void
  onMore?: () => void
  onTop?: () => void
  onGridClick?: (e: MouseEvent) => void
}

/** Lets modified clicks (new tab etc.) through; plain clicks run `fn` instead of navigating. */
function intercept(fn: (() => void) | undefined) {
  return (e: MouseEvent) => {
    if (!fn || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return
    e.preventDefault()
    fn()
  }
}

/**
 * The filter panel. Its options, its clear-all link and its Done button answer through the panel's
 * own handlers (`panelClick`, `panelKeyDown`), so that its content is plain markup: the server's
 * kept content and the page's own, adopted by the island's hydration, work as rendered content does.
 */
function FilterPanel(props: ListingViewProps) {
  const kept = useContext(KeptFilterMarkup)?.get(props.groups)
  const panel = {
    className: `filters${props.filtersOpen ? ' filters--open' : ''}`,
    id: 'listing-filters',
    'aria-label': 'Filters',
    'data-testid': 'filters',
    onClick: panelClick(props),
    onKeyDown: panelKeyDown(props),
  }
  return kept === undefined ? (
    <aside {...panel}>
      <FilterPanelContent {...props} />
    </aside>
  ) : (
    <aside {...panel} dangerouslySetInnerHTML={{ __html: kept }} />
  )
}

/** The filter option an event came from: its attribute, value id and label. */
function optionOf(e: { target: EventTarget | null }): { attr: string; id: string; label: string } | null {
  const option = (e.target as Element | null)?.closest?.<HTMLElement>('a.filter__option')
  const attr = option?.dataset.attr
  const id = option?.dataset.id
  if (!option || attr === undefined || id === undefined) return null
  return { attr, id, label: option.querySelector('.filter__label')?.textContent ?? '' }
}

/** A click on an option toggles it, on clear-all clears, on Done closes the panel (plain clicks only). */
function panelClick(props: ListingViewProps) {
  return (e: MouseEvent) => {
    const target = e.target as Element | null
    const option = optionOf(e)
    if (option)
      return intercept(props.onToggle && (() => props.onToggle?.(option.attr, option.id, option.label)))(e)
    if (target?.closest?.('a.filters__clear')) return intercept(props.onClear)(e)
    if (target?.closest?.('button.filters__close')) props.onOpenFilters?.(false)
  }
}

/** role=checkbox: Space on an option toggles it too (Enter follows the link). */
function panelKeyDown(props: ListingViewProps) {
  return (e: KeyboardEvent) => {
    if (e.key !== ' ' || !props.onToggle) return
    const option = optionOf(e)
    if (!option) return
    e.preventDefault()
    props.onToggle(option.attr, option.id, option.label)
  }
}

/**
 * The filter panel's head, its clear-all link and its groups of options (links to the filtered URL),
 * as markup: the panel answers them (`FilterPanel`). `onOpenFilters` says whether there is a Done button.
 */
export function FilterPanelContent(
  props: Pick<ListingViewProps, 'state' | 'groups' | 'text' | 'onOpenFilters'>,
) {
  const { state, groups, onOpenFilters } = props
  const filtered = hasFilters(state)
  return (
    <>
      <div className="filters__head">
        <h2 className="filters__title">Filters</h2>
        {onOpenFilters ? (
          <button type="button" className="btn filters__close">
            Done
          </button>
        ) : null}
      </div>
      {filtered ? (
        <a
          className="filters__clear"
          href={listingHref(clearFilters(state), props.text)}
          data-testid="filters-clear"
        >
          Clear all filters
        </a>
      ) : null}
      {groups.length === 0 ? <p className="filters__empty">{MSG.noFiltersSynchronized}</p> : null}
      {groups.map((group) => (
        <section key={group.attr} className={`filter filter--${group.kind}`} data-filter={group.attr}>
          <h3 className="filter__title">{group.label}</h3>
          <ul className="filter__options">
            {group.options.map((opt) => {
              const chosen = isChosen(state, group.attr, opt.id)
              const href = listingHref(toggleListingFilter(state, group.attr, opt.id, opt.label), props.text)
              return (
                <li key={opt.id}>
                  {/* biome-ignore lint/a11y/useSemanticElements: links keep filters working without JS */}
                  <a
                    href={href}
                    rel="nofollow"
                    role="checkbox"
                    aria-checked={chosen}
                    className={`filter__option${chosen ? ' filter__option--active' : ''}`}
                    data-testid="filter-option"
                    data-attr={group.attr}
                    data-id={opt.id}
                  >
                    {group.kind === 'swatch' ? (
                      <span
                        className="filter__swatch"
                        aria-hidden="true"
                        style={opt.swatch ? { background: opt.swatch } : undefined}
                      />
                    ) : (
                      <span className="filter__box" aria-hidden="true" />
                    )}
                    <span className="filter__label">{opt.label}</span>
                    <span className="filter__count">({opt.count})</span>
                  </a>
                </li>
              )
            })}
          </ul>
        </section>
      ))}
    </>
  )
}

/** A chosen value's label: the filter panel's (current counts' group), else the one kept with the state. */
function chosenLabel(groups: FilterGroup[], attr: string, value: { id: string; label: string }): string {
  const option = groups.find((g) => g.attr === attr)?.options.find((o) => o.id === value.id)
  return option?.label || value.label || value.id
}

/** The applied filters as chips: each one a link (and button) that removes just that value. */
function AppliedFilters({ state, groups, onToggle, text, icons }: ListingViewProps) {
  const chips = Object.entries(state.chosen).flatMap(([attr, values]) =>
    values.map((v) => ({ attr, id: v.id, label: chosenLabel(groups, attr, v) })),
  )
  if (!chips.length) return null
  return (
    <section className="chips" aria-label={MSG.appliedFilters} data-testid="applied-filters">
      <ul className="chips__list">
        {chips.map((chip) => (
          <li key={`${chip.attr}:${chip.id}`}>
            <a
              className="chip"
              rel="nofollow"
              href={listingHref(toggleListingFilter(state, chip.attr, chip.id, chip.label), text)}
              data-testid="filter-chip"
              data-chip-attr={chip.attr}
              data-chip-id={chip.id}
              onClick={intercept(onToggle && (() => onToggle(chip.attr, chip.id, chip.label)))}
            >
              <span className="visually-hidden">Remove filter </span>
              {chip.label}
              {icons ? (
                <span className="chip__x" aria-hidden="true">
                  {icons.remove}
                </span>
              ) : null}
            </a>
          </li>
        ))}
      </ul>
    </section>
  )
}

export function ListingView(props: ListingViewProps) {
  const { currency, state, tiles, total, loaded, loading, online = true, onSort, onOpenFilters } = props
  const columns = LISTING_COLUMNS.configured
  const kept = useContext(KeptTileMarkup)
  const more = loaded < total
  return (
    <div
      className="listing"
      data-testid="listing"
      style={{ '--tile-span': LISTING_COLUMNS.grid / columns } as never}
    >
      <div className={`listing__actions${props.actionsVisible === false ? ' listing__actions--hidden' : ''}`}>
        <button
          type="button"
          className="btn btn--secondary listing__filters-btn"
          aria-controls="listing-filters"
          aria-expanded={props.filtersOpen ?? false}
          onClick={() => onOpenFilters?.(!props.filtersOpen)}
        >
          Filters
        </button>
        <form className="listing__sort" method="get" onSubmit={(e) => e.preventDefault()}>
          {props.text ? <input type="hidden" name="q" value={props.text} /> : null}
          {Object.entries(state.chosen).map(([attr, values]) => (
            <input key={attr} type="hidden" name={attr} value={values.map((v) => v.id).join(',')} />
          ))}
          <label>
            <span className="listing__sort-label">Sort by</span>{' '}
            <select
              name="sort"
              value={state.sort}
              data-testid="sort-select"
              onChange={(e) => onSort?.(e.currentTarget.value as SortId)}
            >
              {SORT_OPTIONS.filter((o) => o.id !== 'relevance' || props.text).map((o) => (
                <option key={o.id} value={o.id}>
                  {o.label}
                </option>
              ))}
            </select>
          </label>
          <noscript>
            <button type="submit" className="btn btn--small">
              Apply
            </button>
          </noscript>
        </form>
        <p className="listing__count" data-testid="listing-count" aria-live="polite">
          {total} {total === 1 ? 'product' : 'products'}
        </p>
      </div>
      <div className="listing__body">
        <FilterPanel {...props} />
        <div className="listing__main">
          <AppliedFilters {...props} />
          {tiles.length === 0 && !loading ? (
            <div className="listing__empty" data-testid="listing-empty">
              {hasFilters(state) ? (
                <>
                  <h2>{MSG.noProductsFoundTitle}</h2>
                  <p>{MSG.noProductsFoundText}</p>
                </>
              ) : (
                <p className="notice notice--warning">{MSG.noProductsSynchronized}</p>
              )}
            </div>
          ) : null}
          {/* Tiles name products with <h3>: this keeps the heading outline h1 > h2 > h3 (axe heading-order). */}
          {tiles.length ? <h2 className="visually-hidden">Products</h2> : null}
          {/* biome-ignore lint/a11y/useKeyWithClickEvents: records the clicked tile link; keyboard activation also fires click */}
          <ul
            className={`product-grid${loading ? ' product-grid--loading' : ''}`}
            onClick={props.onGridClick}
          >
            {tiles.map((tile, i) => {
              const eager = gridTileIsEager(i)
              const html = kept?.get(tile)
              return html === undefined ? (
                <li key={tile.sku} className="product-grid__item">
                  <ProductTile tile={tile} currency={currency} eager={eager} />
                </li>
              ) : (
                <li
                  key={tile.sku}
                  className="product-grid__item"
                  dangerouslySetInnerHTML={{ __html: html }}
                />
              )
            })}
          </ul>
          <div ref={props.sentinelRef} className="listing__sentinel" data-testid="listing-sentinel" />
          {more ? (
            <p className="listing__more">
              {online ? (
                <button
                  type="button"
                  className="btn btn--secondary"
                  disabled={loading}
                  onClick={props.onMore}
                >
                  {loading ? 'Loading…' : 'Load more'}
                </button>
              ) : (
                <span className="notice">
                  You are offline: more products will load when you are back online.
                </span>
              )}
            </p>
          ) : null}
        </div>
      </div>
      {props.backToTop ? (
        <button type="button" className="back-to-top" data-testid="back-to-top" onClick={props.onTop}>
          {props.icons?.top} Back to top
        </button>
      ) : null}
    </div>
  )
}
