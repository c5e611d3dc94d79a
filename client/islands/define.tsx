/**
 * Islands: a component rendered on the server inside `<div data-island=name data-props=JSON>`,
 * hydrated in the browser by client/entry with the same props. Islands get no request context,
 * only their props, so the props must be JSON-serialisable.
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
  /** Validates props on hydration (CONVENTIONS 4; zod/mini keeps the client small). */
  schema?: PropsSchema<P>
}

/** Wraps a component as an island; render the returned component on the server. */
export function defineIsland<P extends object>(
  name: string,
  Component: ComponentType<P>,
  schema?: PropsSchema<P>,
): Island<P> {
  const IslandRoot = (props: P) => (
    <div data-island={name} data-props={JSON.stringify(props)}>
      <Component {...props} />
    </div>
  )
  return Object.assign(IslandRoot, { islandName: name, Component, schema })
}
