/** Time source for storage and sync code, injected so tests drive time (no code reads the wall clock directly). */
export interface Clock {
  now(): number
  setTimeout(fn: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
  setInterval(fn: () => void, ms: number): unknown
  clearInterval(handle: unknown): void
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
  setInterval: (fn, ms) => globalThis.setInterval(fn, ms),
  clearInterval: (h) => globalThis.clearInterval(h as ReturnType<typeof setInterval>),
}

/** Resolves after `ms` on the given clock. */
export function sleep(clock: Clock, ms: number): Promise<void> {
  return new Promise((resolve) => clock.setTimeout(resolve, ms))
}

export class TimeoutError extends Error {
  constructor(message = 'Cache not responding') {
    super(message)
    this.name = 'TimeoutError'
  }
}

/** Races `promise` against a `ms` timer; rejects with TimeoutError when the timer wins. */
export function withTimeout<T>(promise: Promise<T>, ms: number, clock: Clock): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const handle = clock.setTimeout(() => reject(new TimeoutError()), ms)
    promise.then(
      (value) => {
        clock.clearTimeout(handle)
        resolve(value)
      },
      (err) => {
        clock.clearTimeout(handle)
        reject(err)
      },
    )
  })
}
