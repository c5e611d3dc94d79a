import { describe, expect, it } from 'vitest'
import { inOneWindow } from '../../helpers/rate-window'

const MINUTE = 60_000

/** A clock that moves by `stepMs` at every reading, from `start`. */
function steppingClock(start: number, stepMs: number) {
  let t = start
  return () => {
    const at = t
    t += stepMs
    return at
  }
}

describe('inOneWindow', () => {
  it('returns the first run when it starts and ends in one window', async () => {
    const tries: number[] = []
    const result = await inOneWindow(
      MINUTE,
      async (n) => {
        tries.push(n)
        return `run ${n}`
      },
      steppingClock(10 * MINUTE, 1000),
    )
    expect(result).toBe('run 1')
    expect(tries).toEqual([1])
  })

  it('discards a run that crossed a window boundary and returns the next, which lies in one window', async () => {
    // The first run starts 0.5 s before a minute ends and its last answer comes after it.
    const clock = steppingClock(11 * MINUTE - 500, 1000)
    const result = await inOneWindow(MINUTE, async (n) => `run ${n}`, clock)
    expect(result).toBe('run 2')
  })

  it('refuses to loop when every run is longer than the window', async () => {
    await expect(inOneWindow(MINUTE, async () => 'slow', steppingClock(0, MINUTE))).rejects.toThrow(
      'longer than the window',
    )
  })
})
