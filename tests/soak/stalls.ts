/**
 * What slows the cheap stream during the attack phase (the soak's profile of its own run): each
 * attack's class and time in flight is recorded, and for the stream's slow samples (over the ratio
 * limit × the idle p99) each class's share of them is set against its share of all samples. A class
 * in flight during most slow samples but few samples overall is what stalls the worker. The
 * driver's own event-loop delay is measured too: a stall of the measuring process shows as latency
 * on every request, whatever the worker does.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks'

export interface StallProfile {
  /** Stream samples slower than `slowMs` during the attacks. */
  slow: number
  slowMs: number
  /** Per class and kind: share of slow samples with it in flight, and of all samples (percent). */
  classes: { cls: string; slowShare: number; allShare: number }[]
  /** The slow samples by what they asked for (path, and the output cache's answer). */
  slowByRequest: Record<string, number>
  /** The measuring process's own event-loop delay during the attacks (ms). */
  driverDelay: { p99: number; max: number }
}

/** Records attacks in flight and the driver's event-loop delay; `profile` sums them up. */
export function stallRecorder() {
  const spans: { cls: string; t0: number; t1: number }[] = []
  const loop = monitorEventLoopDelay({ resolution: 10 })
  loop.enable()
  return {
    span(cls: string, t0: number, t1: number) {
      spans.push({ cls, t0, t1 })
    },
    profile(samples: { t: number; ms: number; what: string }[], slowMs: number): StallProfile {
      loop.disable()
      const classes = [...new Set(spans.map((s) => s.cls))]
      const inFlight = (s: { t: number; ms: number }, cls: string) =>
        spans.some((a) => a.cls === cls && a.t0 < s.t + s.ms && a.t1 > s.t)
      const slow = samples.filter((s) => s.ms > slowMs)
      const pct = (part: number, whole: number) => Math.round((part / Math.max(whole, 1)) * 100)
      return {
        slow: slow.length,
        slowMs: Math.round(slowMs),
        classes: classes
          .map((cls) => ({
            cls,
            slowShare: pct(slow.filter((s) => inFlight(s, cls)).length, slow.length),
            allShare: pct(samples.filter((s) => inFlight(s, cls)).length, samples.length),
          }))
          .sort((a, b) => b.slowShare - b.allShare - (a.slowShare - a.allShare)),
        slowByRequest: Object.fromEntries(
          [...new Set(slow.map((s) => s.what))].map((w) => [w, slow.filter((s) => s.what === w).length]),
        ),
        driverDelay: {
          p99: Math.round(loop.percentile(99) / 1e6),
          max: Math.round(loop.max / 1e6),
        },
      }
    },
  }
}
