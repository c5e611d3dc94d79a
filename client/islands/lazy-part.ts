/**
 * A part of an island whose code loads on demand (a bundle's options, a set's pieces, custom
 * options): like React's `lazy`, but it renders at once, with no suspension, once its code has
 * been preloaded. Parts must never suspend where their island's markup is made or hydrated:
 * - on the server, a part that suspends turns the island's markup into a boundary React streams
 *   after the page and reveals up to 300 ms later by a script (its batched reveal). The islands
 *   may hydrate before that reveal, and the reveal then moves the part's nodes under a hydrated
 *   island (a form with its table twice and no Add to cart). So the server preloads every part
 *   before it renders (`preloadParts`);
 * - in the browser, a page's entry preloads the parts its server markup holds before it hydrates,
 *   so they hydrate with their island instead of resuming later, when a state change of the island
 *   may already have re-rendered around them (and a field typed into them would be lost).
 * A part the page did not render (one opened later) loads when first rendered, inside its
 * Suspense boundary, as `lazy` would.
 */
import { type ComponentType, createElement, lazy, useState } from 'react'

interface LazyPart<P extends object> {
  (props: P): React.JSX.Element
  /** Loads the part's code once (again after a failure); the component once loaded. */
  preload(): Promise<ComponentType<P>>
  /** Whether its code has loaded, so it renders at once. */
  loaded(): boolean
}

/** Every part defined so far: what the server preloads before it renders a page. */
const parts: LazyPart<never>[] = []

export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>): LazyPart<P> {
  let loaded: ComponentType<P> | undefined
  let loading: Promise<ComponentType<P>> | undefined
  const preload = () => {
    loading ??= load().then(
      (component) => {
        loaded = component
        return component
      },
      (error: unknown) => {
        loading = undefined
        throw error
      },
    )
    return loading
  }
  const Lazy = lazy(() => preload().then((component) => ({ default: component })))
  const part = (props: P) => {
    // Chosen once per mount: the component itself when its code had loaded by then, else the lazy
    // wrapper for good (changing the element's type later would remount it and lose its state).
    const [direct] = useState<ComponentType<P> | undefined>(() => loaded)
    return createElement(direct ?? Lazy, props)
  }
  part.preload = preload
  part.loaded = () => loaded !== undefined
  parts.push(part as LazyPart<never>)
  return part
}

/**
 * Loads every part defined so far (what the server does before each page); null when all have
 * loaded, so a page waits on nothing once the first has loaded them. A part that fails to load
 * is left to load when it renders.
 */
export function preloadParts(): Promise<void> | null {
  if (parts.every((part) => part.loaded())) return null
  return Promise.allSettled(parts.map((part) => part.preload())).then(() => {})
}
