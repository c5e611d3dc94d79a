/**
 * Rate-limit windows in tests. The Workers Rate Limiting binding (and its local simulation) counts
 * in windows aligned to the wall clock: a window of `periodMs` starts at every multiple of it. A
 * test that sends a burst and expects the last request refused must send the whole burst inside
 * one window, or the count restarts at the boundary and the refusal never comes.
 */

/** The window (its index since the epoch) holding the instant `at`. */
export const windowOf = (at: number, periodMs: number) => Math.floor(at / periodMs)

/**
 * Runs `attempt` until one run starts and ends in the same window, and returns that run's result.
 * A run that crossed a boundary is discarded and run again (with fresh keys: `attempt` gets the
 * try's number); a run shorter than the period crosses at most one boundary, so the second try
 * always lies in one window. `now` reads the clock (workerd advances it at every I/O, so a reading
 * taken after the run's last answer is no earlier than the limiter's last count).
 */
export async function inOneWindow<T>(
  periodMs: number,
  attempt: (tryNumber: number) => Promise<T>,
  now: () => number = Date.now,
): Promise<T> {
  for (let tryNumber = 1; ; tryNumber++) {
    const start = windowOf(now(), periodMs)
    const result = await attempt(tryNumber)
    if (windowOf(now(), periodMs) === start) return result
    if (tryNumber >= 3)
      throw new Error(`every try crossed a ${periodMs} ms window: the run is longer than the window`)
  }
}
