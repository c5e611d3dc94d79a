/**
 * Dialogs and drawers in islands (sign-in, mini-cart, wishlist, search, menu, chat, size
 * guide) follow one focus rule, implemented in focus-trap.ts: focus moves in, Tab stays inside,
 * Escape closes, and focus returns to the control that opened it. The rule's code is fetched when
 * a dialog first opens; the control that opened it is remembered at once. The element that traps
 * focus is announced as a modal dialog and always has a name.
 */
import { type RefObject, useEffect, useMemo, useRef } from 'react'

/** What names a dialog: its own words, or the id of the heading inside it. */
type DialogName = { 'aria-label': string } | { 'aria-labelledby': string }

/** The attributes of a modal dialog's element, spread onto it. */
interface DialogProps<T extends HTMLElement> {
  ref: RefObject<T | null>
  role: 'dialog'
  'aria-modal': true
  'aria-label'?: string
  'aria-labelledby'?: string
}

/** A modal dialog's attributes: focus is trapped in the element while `open`; it is announced by `name`. */
export function useDialog<T extends HTMLElement>(
  open: boolean,
  onClose: () => void,
  name: DialogName,
): DialogProps<T> {
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
  return { ref, role: 'dialog', 'aria-modal': true, ...name }
}

/** The hook's type, for code that is handed it instead of importing it. */
export type UseDialog = typeof useDialog
