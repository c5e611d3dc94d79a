import { describe, expect, it } from 'vitest'
import {
  IDLE_START_TIMEOUT_MS,
  type IdleTarget,
  INTERACTION_EVENTS,
  whenIdleOrInteraction,
} from '../../../../client/islands/define'

/** A window stand-in that records listeners, idle callbacks and timers, and fires them on demand. */
function fakeWindow({ idle = true } = {}) {
  const listeners = new Map<string, Set<() => void>>()
  const idleCallbacks = new Map<number, { fn: () => void; timeout: number }>()
  const timers = new Map<number, { fn: () => void; ms: number }>()
  let next = 1
  const target: IdleTarget = {
    addEventListener(type, fn, options) {
      expect(options.capture).toBe(true)
      if (!listeners.has(type)) listeners.set(type, new Set())
      listeners.get(type)?.add(fn)
    },
    removeEventListener(type, fn) {
      listeners.get(type)?.delete(fn)
    },
    setTimeout(fn, ms) {
      const id = next++
      timers.set(id, { fn, ms })
      return id
    },
  }
  if (idle) {
    target.requestIdleCallback = (fn, options) => {
      const id = next++
      idleCallbacks.set(id, { fn, timeout: options.timeout })
      return id
    }
  }
  return {
    target,
    idleCallbacks,
    timers,
    listenerCount: () => [...listeners.values()].reduce((n, s) => n + s.size, 0),
    dispatch(type: string) {
      for (const fn of [...(listeners.get(type) ?? [])]) fn()
    },
    runIdle() {
      for (const [id, cb] of [...idleCallbacks]) {
        idleCallbacks.delete(id)
        cb.fn()
      }
    },
    runTimers() {
      for (const [id, t] of [...timers]) {
        timers.delete(id)
        t.fn()
      }
    },
  }
}

describe('whenIdleOrInteraction', () => {
  it('starts once when the browser is idle, with a time limit, and stops listening for interactions', () => {
    const win = fakeWindow()
    const causes: string[] = []
    whenIdleOrInteraction(win.target, (cause) => causes.push(cause))
    expect(causes).toEqual([])
    expect([...win.idleCallbacks.values()].map((c) => c.timeout)).toEqual([IDLE_START_TIMEOUT_MS])
    win.runIdle()
    expect(causes).toEqual(['idle'])
    expect(win.listenerCount()).toBe(0)
    for (const type of INTERACTION_EVENTS) win.dispatch(type)
    expect(causes).toEqual(['idle'])
  })

  it.each(INTERACTION_EVENTS)(
    'starts synchronously inside the first %s, before idle, and only once',
    (type) => {
      const win = fakeWindow()
      const causes: string[] = []
      whenIdleOrInteraction(win.target, (cause) => causes.push(cause))
      win.dispatch(type)
      expect(causes).toEqual(['interaction'])
      // Later events and idle time start nothing more.
      expect(win.listenerCount()).toBe(0)
      win.dispatch('click')
      win.runIdle()
      expect(causes).toEqual(['interaction'])
    },
  )

  it('without requestIdleCallback, starts on a short timer, or earlier on an interaction', () => {
    const win = fakeWindow({ idle: false })
    const causes: string[] = []
    whenIdleOrInteraction(win.target, (cause) => causes.push(cause))
    expect([...win.timers.values()].map((t) => t.ms)[0]).toBeLessThanOrEqual(IDLE_START_TIMEOUT_MS)
    win.runTimers()
    expect(causes).toEqual(['idle'])

    const win2 = fakeWindow({ idle: false })
    const causes2: string[] = []
    whenIdleOrInteraction(win2.target, (cause) => causes2.push(cause))
    win2.dispatch('keydown')
    expect(causes2).toEqual(['interaction'])
    win2.runTimers()
    expect(causes2).toEqual(['interaction'])
  })
})
