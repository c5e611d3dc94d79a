/**
 * Islands: a component rendered on the server inside `<div data-island=name>`, preceded by its
 * props as a `<script type="application/json" data-island-props>` data block, and hydrated in the
 * browser by client/entry with the same props. Islands get no request context, only their props,
 * so the props must be JSON-serialisable.
 *
 * The props travel in a data block rather than an attribute: React escapes attribute values
 * character by character (measured at ~4.7 ms of a 15 ms category render for 24 KB of props),
 * while a data block needs only `<` escaped. A data block is not executed, so it needs no CSP nonce.
 */
import type { ComponentType } from 'react'

/** Any zod or zod/mini schema: only parse() is used. */
export interface PropsSchema<P> {
  parse(data: unknown): P
}

export interface Island<P extends object> {
  (props: P): React.JSX.Element
  islandName: string
  Component: ComponentType<P>
  /** Validates props on hydration: bad props fail loudly instead of rendering garbage (zod/mini keeps the client small). */
  schema?: PropsSchema<P>
  /**
   * 'idle': the island shows nothing until it is used (a closed panel or dialog), so it is hydrated
   * when the browser is first idle or at the shopper's first interaction, whichever comes first,
   * instead of with the page's first work.
   */
  start?: 'load' | 'idle'
}

/** The same island, hydrated when the browser is idle or at the first interaction (see `start`). */
export function startWhenIdle<P extends object>(island: Island<P>): Island<P> {
  return Object.assign((props: P) => island(props), island, { start: 'idle' as const })
}

/**
 * Events that count as the shopper's first interaction. They are listened to on the window in the
 * capture phase, so they run before any handler of the page: an island started there is ready for
 * the click, key press or focus that started it.
 */
export const INTERACTION_EVENTS = ['pointerdown', 'touchstart', 'keydown', 'focusin', 'click'] as const

/** How long an idle start may wait for the browser to be idle. */
export const IDLE_START_TIMEOUT_MS = 2000

/** What `whenIdleOrInteraction` needs of the window (a stand-in in unit tests). */
export interface IdleTarget {
  addEventListener(type: string, fn: () => void, options: AddEventListenerOptions): void
  removeEventListener(type: string, fn: () => void, options: EventListenerOptions): void
  requestIdleCallback?: (fn: () => void, options: { timeout: number }) => number
  setTimeout(fn: () => void, ms: number): unknown
}

/**
 * Runs `start` exactly once: when the browser is first idle (at the latest after
 * IDLE_START_TIMEOUT_MS; a short timer where requestIdleCallback is missing), or synchronously
 * inside the first interaction event, whichever comes first. `start` is told which it was.
 */
export function whenIdleOrInteraction(
  target: IdleTarget,
  start: (cause: 'idle' | 'interaction') => void,
): void {
  let done = false
  const opts = { capture: true, passive: true }
  const once = (cause: 'idle' | 'interaction') => () => {
    if (done) return
    done = true
    for (const type of INTERACTION_EVENTS) target.removeEventListener(type, onInteraction, opts)
    start(cause)
  }
  const onInteraction = once('interaction')
  for (const type of INTERACTION_EVENTS) target.addEventListener(type, onInteraction, opts)
  if (target.requestIdleCallback) target.requestIdleCallback(once('idle'), { timeout: IDLE_START_TIMEOUT_MS })
  else target.setTimeout(once('idle'), 200)
}

/**
 * JSON for a `<script type="application/json">` or `application/ld+json` data block: `<` is
 * written as `\u003c`, so no value can close the element or open a comment inside it.
 */
export function jsonForScript(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c')
}

/** The data block holding an island's props: the element just before the island's root. */
export function islandPropsText(el: Element): string | null {
  const prev = el.previousElementSibling
  return prev?.tagName === 'SCRIPT' && prev.hasAttribute('data-island-props') ? prev.textContent : null
}

/** Wraps a component as an island; render the returned component on the server. */
export function defineIsland<P extends object>(
  name: string,
  Component: ComponentType<P>,
  schema?: PropsSchema<P>,
): Island<P> {
  const IslandRoot = (props: P) => (
    <>
      <script
        type="application/json"
        data-island-props={name}
        // Data, not script: `<` escaped by jsonForScript so it cannot close the element.
        dangerouslySetInnerHTML={{ __html: jsonForScript(props) }}
      />
      <div data-island={name}>
        <Component {...props} />
      </div>
    </>
  )
  return Object.assign(IslandRoot, { islandName: name, Component, schema })
}
