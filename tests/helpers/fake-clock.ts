/** A manual clock for storage/sync unit tests: timers fire only when the test advances time. */
import type { Clock } from '../../client/storage/clock'

interface Timer {
  id: number
  at: number
  fn: () => void
  every?: number
}

/** Lets pending promise callbacks and fake-indexeddb's setImmediate tasks run. */
export async function flush(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((r) => setImmediate(r))
}

export class FakeClock implements Clock {
  private t: number
  private seq = 0
  private timers: Timer[] = []

  constructor(start = 1_700_000_000_000) {
    this.t = start
  }

  now = () => this.t

  setTimeout = (fn: () => void, ms: number) => {
    const id = ++this.seq
    this.timers.push({ id, at: this.t + Math.max(0, ms), fn })
    return id
  }

  clearTimeout = (handle: unknown) => {
    this.timers = this.timers.filter((x) => x.id !== handle)
  }

  setInterval = (fn: () => void, ms: number) => {
    const id = ++this.seq
    this.timers.push({ id, at: this.t + ms, fn, every: ms })
    return id
  }

  clearInterval = (handle: unknown) => this.clearTimeout(handle)

  get pending(): number {
    return this.timers.length
  }

  /** Advances time by `ms`, firing due timers in order and flushing async work between them. */
  async advance(ms: number): Promise<void> {
    const end = this.t + ms
    await flush()
    for (;;) {
      const next = this.timers.filter((x) => x.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0]
      if (!next) break
      this.t = next.at
      if (next.every) next.at += next.every
      else this.timers = this.timers.filter((x) => x !== next)
      next.fn()
      await flush()
    }
    this.t = end
    await flush()
  }
}
