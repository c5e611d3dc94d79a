/**
 * Hydrates the islands on the page. Each page's entry (client/entries/*) passes the islands it
 * may contain; code for islands a page does not use is never loaded.
 */
import { configureCurrenciesFromPage } from '@shared/config/store'
import { type ReactNode, useEffect } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { nextTask } from './engines/runtime/next-task'
import { type Island, islandPropsText } from './islands/define'
import { keepEnteredBeforeHydration } from './islands/keep-typed'

function Hydrated({ el, children }: { el: HTMLElement; children: ReactNode }) {
  useEffect(() => {
    keepEnteredBeforeHydration(el)
    el.dataset.hydrated = 'true'
  }, [el])
  return children
}

/**
 * Runs each function in a task of its own, in order, the first too (not in the task that evaluates
 * the page's modules), so the browser handles input and paints between them.
 */
async function oneTaskEach(work: (() => void)[]): Promise<void> {
  for (const fn of work) {
    await nextTask()
    fn()
  }
}

// biome-ignore lint/suspicious/noExplicitAny: islands have heterogeneous props
export function hydrateIslands(islands: Island<any>[], root: ParentNode = document): void {
  // Prices built in the browser use the shop's base currency and rates, as the server did.
  configureCurrenciesFromPage()
  const byName = new Map(islands.map((i) => [i.islandName, i]))
  const work: (() => void)[] = []
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
    work.push(() => {
      // An island that fails to hydrate is logged, and the islands after it still hydrate.
      try {
        hydrateRoot(
          el,
          <Hydrated el={el}>
            <Component {...(props as object)} />
          </Hydrated>,
        )
      } catch (err) {
        console.error(`island ${island.islandName}: hydration failed`, err)
      }
    })
  }
  // The islands run on preact/compat (scripts/build-client.mjs), which hydrates an island in one
  // go: each island in a task of its own keeps every task short, so a tap during hydration waits
  // for one island, not for the page's.
  void oneTaskEach(work)
}
