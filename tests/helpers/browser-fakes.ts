// Stand-ins for what the client code gets from the browser in unit tests: fetch's JSON answer and
// a Storage (sessionStorage, localStorage) kept in memory.

/** A JSON answer with this status, as fetch returns it. */
export const jsonResponse = (body: unknown, status = 200): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

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
