// Stand-ins for what the client code gets from the browser in unit tests: fetch and its JSON
// answer, and a Storage (sessionStorage, localStorage) kept in memory.
import { vi } from 'vitest'

/** A JSON answer with this status, as fetch returns it. */
export const jsonResponse = (body: unknown, status = 200): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

/**
 * Stands in for the global fetch until `vi.unstubAllGlobals()`: each call is answered by
 * `answer(url)` and recorded, in order, in the list returned.
 */
export function stubFetch(answer: (url: string) => Response) {
  const calls: { url: string; init: RequestInit }[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      calls.push({ url, init })
      return answer(url)
    }),
  )
  return calls
}

/** A Storage in memory; `map` shows what was stored. */
export function memoryStore() {
  const map = new Map<string, string>()
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
    map,
  }
}
