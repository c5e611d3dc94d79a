/**
 * Hydrates the islands on the page. Each page's entry (client/entries/*) passes the islands it
 * may contain; code for islands a page does not use is never loaded. Islands marked
 * `start: 'idle'` (closed panels and dialogs) wait for the browser's first idle moment or the
 * shopper's first interaction, so the page's first work is only what the first screen shows.
 */
import { configureCurrenciesFromPage } from '@shared/config/store'
import { type ReactNode, startTransition, useEffect } from 'react'
import { flushSync } from 'react-dom'
import { hydrateRoot } from 'react-dom/client'
import { type Island, islandPropsText, whenIdleOrInteraction } from './islands/define'

function Hydrated({ el, children }: { el: HTMLElement; children: ReactNode }) {
  useEffect(() => {
    el.dataset.hydrated = 'true'
  }, [el])
  return children
}

// biome-ignore lint/suspicious/noExplicitAny: islands have heterogeneous props
export function hydrateIslands(islands: Island<any>[], root: ParentNode = document): void {
  // Prices built in the browser use the shop's base currency and rates, as the server did.
  configureCurrenciesFromPage()
  const byName = new Map(islands.map((i) => [i.islandName, i]))
  const later: HTMLElement[] = []
  for (const el of root.querySelectorAll<HTMLElement>('[data-island]')) {
    const island = byName.get(el.dataset.island ?? '')
    if (!island) continue
    if (island.start === 'idle') later.push(el)
    else hydrateIsland(el, island, 'transition')
  }
  if (!later.length) return
  whenIdleOrInteraction(window, (cause) => {
    for (const el of later) {
      const island = byName.get(el.dataset.island ?? '')
      // Started by an interaction: hydrated (effects included) before that event reaches the page,
      // so the click that opens a panel finds the panel listening.
      if (island) hydrateIsland(el, island, cause === 'interaction' ? 'now' : 'transition')
    }
  })
}

// biome-ignore lint/suspicious/noExplicitAny: islands have heterogeneous props
function hydrateIsland(el: HTMLElement, island: Island<any>, mode: 'transition' | 'now'): void {
  if (el.dataset.hydrated || el.dataset.hydrating) return
  let props: unknown
  try {
    props = JSON.parse(islandPropsText(el) ?? '{}')
    if (island.schema) props = island.schema.parse(props)
  } catch (err) {
    console.error(`island ${island.islandName}: bad props`, err)
    return
  }
  el.dataset.hydrating = 'true'
  const { Component } = island
  const hydrate = () => {
    hydrateRoot(
      el,
      <Hydrated el={el}>
        <Component {...(props as object)} />
      </Hydrated>,
      {
        onRecoverableError: (error) => console.warn(`island ${island.islandName}:`, error),
      },
    )
  }
  // Hydration as a transition: React does it in small slices and lets the browser handle input
  // (and paint) between them, instead of one long task per island; a click on a part not yet
  // hydrated hydrates that part first. 'now' renders and runs the effects before returning.
  if (mode === 'now') flushSync(hydrate)
  else startTransition(hydrate)
}
