// How many generated cases a search test runs, and from which seed. The default tier runs a small
// fixed-seed slice (the same first cases every time); `npm run soak` compiles these tests with
// __SEARCH_SOAK__ defined (tests/soak/search.config.ts) to run many times more from a fresh seed,
// which it prints so a failure can be replayed.

declare const __SEARCH_SOAK__: { factor: number; seed: number } | undefined

const soak = typeof __SEARCH_SOAK__ === 'undefined' ? null : __SEARCH_SOAK__

/** fast-check's run options for a generated test whose default-tier slice is `slice` cases from `seed`. */
export function generatedRuns(slice: number, seed: number): { numRuns: number; seed: number } {
  return soak ? { numRuns: slice * soak.factor, seed: soak.seed } : { numRuns: slice, seed }
}

/** A test's time-out, scaled like its runs. */
export function generatedTimeout(ms: number): number {
  return soak ? ms * soak.factor : ms
}

/**
 * The points of `total` a walk-every-point test visits: all of them in the soak run; in the default
 * tier `slice` of them, evenly spread with the first and the last among them.
 */
export function generatedPoints(total: number, slice: number): number[] {
  if (soak || total <= slice) return Array.from({ length: total }, (_, i) => i)
  return [...new Set(Array.from({ length: slice }, (_, k) => Math.round((k * (total - 1)) / (slice - 1))))]
}
