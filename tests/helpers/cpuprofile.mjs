// Reading a V8 CPU profile (Profiler.stop's `profile`) into time per node.
//
// A sample's time delta runs from the sample before it. workerd takes no sample while the isolate
// waits (on D1, on the next request) or runs outside JavaScript, so the first function to run after
// such a gap would carry the whole gap (tens of milliseconds) as its own time: whatever routes a
// request, reads a header or parses a D1 answer first after a wait would look like a tenth of a
// request. A sample therefore stands for at most `capUs`; the rest of a longer gap is counted as
// gaps, not as any function's time.

/**
 * Self time per profile node id (microseconds, each sample at most `capUs`), and the time of the
 * gaps left out.
 * @param {{ samples: number[], timeDeltas: number[] }} profile
 * @param {number} capUs
 * @returns {{ self: Map<number, number>, gaps: number }}
 */
export function sampleTimes(profile, capUs) {
  const self = new Map()
  let gaps = 0
  profile.samples.forEach((nodeId, i) => {
    const delta = profile.timeDeltas[i] ?? 0
    self.set(nodeId, (self.get(nodeId) ?? 0) + Math.min(delta, capUs))
    gaps += Math.max(0, delta - capUs)
  })
  return { self, gaps }
}
