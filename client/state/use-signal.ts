/**
 * The islands' binding for @preact/signals-core stores: subscribe a component to a signal (or computed)
 * through useSyncExternalStore, so islands share state without a provider.
 */
import type { ReadonlySignal } from '@preact/signals-core'
import { useCallback, useSyncExternalStore } from 'react'

/** Returns the signal's current value and re-renders when it changes. */
export function useSignalValue<T>(sig: ReadonlySignal<T>): T {
  const subscribe = useCallback(
    (onChange: () => void) => {
      let first = true
      return sig.subscribe(() => {
        // subscribe() calls back immediately with the current value; only changes matter here.
        if (first) {
          first = false
          return
        }
        onChange()
      })
    },
    [sig],
  )
  const read = useCallback(() => sig.peek(), [sig])
  return useSyncExternalStore(subscribe, read, read)
}
