/**
 * Hydrates the islands on the page. Each page's entry (client/entries/*) passes the islands it
 * may contain; code for islands a page does not use is never loaded.
 */
import { configureCurrenciesFromPage } from '@shared/config/store'
import { type ReactNode, startTransition, useEffect } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { type Island, islandPropsText } from './islands/define'
import { keepEnteredBeforeHydration } from './islands/keep-typed'

function Hydrated({ el, children }: { el: HTMLElement; children: ReactNode }) {
  useEffect(() => {
    keepEnteredBeforeHydration(el)
    el.dataset.hydrated = 'true'
  }, [el])
  return children
}

// biome-ignore lint/suspicious/noExplicitAny: islands have heterogeneous props
export function hydrateIslands(islands: Island<any>[], root: ParentNode = document): void {
  // Prices built in the browser use the shop's base currency and rates, as the server did.
  configureCurrenciesFromPage()
  const byName = new Map(islands.map((i) => [i.islandName, i]))
  for (const el of root.querySelectorAll<HTMLElement>('[data-island]')) {
    if (el.dataset.hydrated || el.dataset.hydrating) continue
    const island = byName.get(el.dataset.island ?? '')
    if (!island) continue
    let props: unknown
    try {
      props = JSON.parse(islandPropsText(el) ?? '{}')
      if (island.schema) props = island.schema.parse(props)
    } catch (err) {
      console.error(`island ${island.islandName}: bad props`, err)
      continue
    }
    el.dataset.hydrating = 'true'
    const { Component } = island
    // Hydration as a transition: React does it in small slices and lets the browser handle input
    // (and paint) between them, instead of one long task per island; a click on a part not yet
    // hydrated hydrates that part first.
    startTransition(() => {
      hydrateRoot(
        el,
        <Hydrated el={el}>
          <Component {...(props as object)} />
        </Hydrated>,
        {
          onRecoverableError: (error) => console.warn(`island ${island.islandName}:`, error),
        },
      )
    })
  }
}
