/**
 * Dialogs and drawers in React islands (sign-in, mini-cart, wishlist, search, menu, chat, size
 * guide) follow one focus rule, implemented in focus-trap.ts: focus moves in, Tab stays inside,
 * Escape closes, and focus returns to the control that opened it. The rule's code is fetched when
 * a dialog first opens; the control that opened it is remembered at once.
 */
import { type RefObject, useEffect, useMemo, useRef } from 'react'

/** A dialog's ref: focus is trapped in the referenced element while `open`. */
export function useDialog<T extends HTMLElement>(open: boolean, onClose: () => void): RefObject<T | null> {
  const ref = useRef<T>(null)
  const close = useRef(onClose)
  close.current = onClose
  // The control that opened the dialog, read while rendering the opening: the same update may hide
  // that control (the chat launcher), which would take its focus before an effect could see it.
  const trigger = useMemo(
    () =>
      open && typeof document !== 'undefined' && document.activeElement instanceof HTMLElement
        ? document.activeElement
        : null,
    [open],
  )
  useEffect(() => {
    const root = ref.current
    if (!open || !root) return
    let release: (() => void) | undefined
    let live = true
    import('./focus-trap').then(
      (m) => {
        if (live) release = m.trapFocus(root, () => close.current(), trigger)
      },
      (err) => console.error('focus trap failed to load', err),
    )
    return () => {
      live = false
      release?.()
    }
  }, [open, trigger])
  return ref
}
