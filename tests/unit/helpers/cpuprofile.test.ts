import { describe, expect, it } from 'vitest'
import { sampleTimes } from '../../helpers/cpuprofile.mjs'

describe('a CPU profile read into self time', () => {
  it('a function sampled right after a long wait is not given the wait', () => {
    // Node 2 runs three samples of 200 µs; node 3 is the first sample after a 40 ms wait.
    const { self, gaps } = sampleTimes(
      { samples: [2, 2, 2, 3, 3], timeDeltas: [200, 200, 200, 40_000, 200] },
      1000,
    )
    expect(self.get(2)).toBe(600)
    expect(self.get(3)).toBe(1200)
    expect(gaps).toBe(39_000)
  })

  it('samples within the cap keep their whole delta, and the times add up to the profile', () => {
    const profile = { samples: [1, 2, 1, 3], timeDeltas: [150, 900, 1000, 1500] }
    const { self, gaps } = sampleTimes(profile, 1000)
    expect([...self.entries()]).toEqual([
      [1, 1150],
      [2, 900],
      [3, 1000],
    ])
    expect(gaps).toBe(500)
    const total = [...self.values()].reduce((a, b) => a + b, 0) + gaps
    expect(total).toBe(profile.timeDeltas.reduce((a, b) => a + b, 0))
  })
})
