/** The online flag follows the browser's online/offline events. */
import { signal } from '@preact/signals-core'

export const isOnline = signal(typeof navigator === 'undefined' ? true : navigator.onLine !== false)

type Target = Pick<Window, 'addEventListener' | 'removeEventListener'>

/** Tracks online/offline events; `onOnline` runs each time the browser comes back. Returns a stop function. */
export function trackOnlineStatus(
  target: Target | undefined = typeof window === 'undefined' ? undefined : window,
  onOnline?: () => void,
): () => void {
  if (!target) return () => {}
  const up = () => {
    isOnline.value = true
    onOnline?.()
  }
  const down = () => {
    isOnline.value = false
  }
  target.addEventListener('online', up)
  target.addEventListener('offline', down)
  return () => {
    target.removeEventListener('online', up)
    target.removeEventListener('offline', down)
  }
}
