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

/** The island's root: its effects run after its children's, so `onEffects` says the island's have run. */
function Hydrated({
  el,
  onEffects,
  children,
}: {
  el: HTMLElement
  onEffects: () => void
  children: ReactNode
}) {
  useEffect(() => {
    keepEnteredBeforeHydration(el)
    el.dataset.hydrated = 'true'
    onEffects()
  }, [el, onEffects])
  return children
}

/**
 * Longest wait for an island's effects before the next island hydrates anyway. Preact runs them
 * after the next frame, or after 35 ms where no frame comes (a page in a background tab).
 */
const EFFECTS_WAIT_MS = 250

/**
 * Hydrates the islands one after another: each in a task of its own, the first too (not in the
 * task that evaluates the page's modules), and each once the one before has run its effects.
 * Preact runs the effects of every root hydrated before a frame together after it, so islands
 * hydrated back to back would run all their effects in one long task.
 */
async function oneAfterAnother(work: ((effectsRan: () => void) => void)[]): Promise<void> {
  for (const hydrate of work) {
    await nextTask()
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, EFFECTS_WAIT_MS)
      hydrate(() => {
        clearTimeout(timer)
        resolve()
      })
    })
  }
}

// biome-ignore lint/suspicious/noExplicitAny: islands have heterogeneous props
export function hydrateIslands(islands: Island<any>[], root: ParentNode = document): void {
  // Prices built in the browser use the shop's base currency and rates, as the server did.
  configureCurrenciesFromPage()
  const byName = new Map(islands.map((i) => [i.islandName, i]))
  const work: ((effectsRan: () => void) => void)[] = []
  for (const el of root.querySelectorAll<HTMLElement>('[data-island]')) {
    if (el.dataset.hydrated || el.dataset.hydrating) continue
    const island = byName.get(el.dataset.island ?? '')
    if (!island) continue
    el.dataset.hydrating = 'true'
    const { Component } = island
    work.push((effectsRan) => {
      // Its props are read in its own task too. Bad props are logged, and the island stays as the
      // server rendered it, not hydrating.
      let props: unknown
      try {
        props = JSON.parse(islandPropsText(el) ?? '{}')
        if (island.schema) props = island.schema.parse(props)
      } catch (err) {
        console.error(`island ${island.islandName}: bad props`, err)
        delete el.dataset.hydrating
        return effectsRan()
      }
      // An island that fails to hydrate is logged, and the islands after it still hydrate.
      try {
        hydrateRoot(
          el,
          <Hydrated el={el} onEffects={effectsRan}>
            <Component {...(props as object)} />
          </Hydrated>,
        )
      } catch (err) {
        console.error(`island ${island.islandName}: hydration failed`, err)
        effectsRan()
      }
    })
  }
  // The islands run on preact/compat (scripts/build-client.mjs), which hydrates an island in one
  // go: each island and its effects in tasks of their own keep every task short, so a tap during
  // hydration waits for one island, not for the page's.
  void oneAfterAnother(work)
}
