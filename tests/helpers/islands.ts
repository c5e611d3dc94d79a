/** Reads an island's server-rendered props (the data block before `<div data-island=name>`). */
export function islandProps<T = Record<string, unknown>>(html: string, name: string): T | undefined {
  const m = html.match(
    new RegExp(
      `<script type="application/json" data-island-props="${name}">([^<]*)</script><div data-island="${name}"`,
    ),
  )
  return m ? (JSON.parse(m[1] ?? '') as T) : undefined
}
