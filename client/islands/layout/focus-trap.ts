/**
 * The one focus rule for every dialog and drawer (sign-in, mini-cart, wishlist, search, menu, chat,
 * size guide, home popups): while it is open, focus moves into it, Tab and Shift+Tab cycle through
 * its controls only, and Escape closes it; when it closes, focus goes back to the control that
 * opened it (if focus was still inside the dialog, so a click elsewhere keeps its own focus).
 * Only the most recently opened dialog answers the keyboard.
 *
 * Loaded when the first dialog opens (it is not needed for the first paint or the first tap).
 */
const FOCUSABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  'iframe',
  '[tabindex]:not([tabindex="-1"])',
  '[contenteditable="true"]',
].join(',')

/** The controls inside `root` that Tab can reach, in document order (hidden ones left out). */
export function focusableIn(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (el) => !el.closest('[hidden], [inert]') && el.getClientRects().length > 0,
  )
}

interface Trap {
  root: HTMLElement
  close: () => void
}

/** Open dialogs, innermost last. */
const stack: Trap[] = []

function onKeyDown(e: KeyboardEvent): void {
  const top = stack[stack.length - 1]
  if (!top) return
  if (e.key === 'Escape') {
    e.preventDefault()
    top.close()
    return
  }
  if (e.key !== 'Tab') return
  const items = focusableIn(top.root)
  const first = items[0]
  const last = items[items.length - 1]
  const active = document.activeElement
  if (!first || !last) {
    e.preventDefault()
    top.root.focus()
    return
  }
  const inside = active instanceof Node && top.root.contains(active)
  if (e.shiftKey && (!inside || active === first || active === top.root)) {
    e.preventDefault()
    last.focus()
  } else if (!e.shiftKey && (!inside || active === last)) {
    e.preventDefault()
    first.focus()
  }
}

/**
 * Traps focus in `root` until the returned function is called; `close` is what Escape does and
 * `trigger` (by default the focused element) gets focus back. Focus starts on the first form
 * field, else the first control, else the dialog itself.
 */
export function trapFocus(
  root: HTMLElement,
  close: () => void,
  trigger: HTMLElement | null = document.activeElement instanceof HTMLElement ? document.activeElement : null,
): () => void {
  const trap: Trap = { root, close }
  stack.push(trap)
  if (stack.length === 1) document.addEventListener('keydown', onKeyDown)
  if (!root.contains(document.activeElement)) {
    const items = focusableIn(root)
    const start = items.find((el) => el.matches('input, select, textarea')) ?? items[0]
    if (start) start.focus()
    else {
      if (!root.hasAttribute('tabindex')) root.setAttribute('tabindex', '-1')
      root.focus()
    }
  }
  return () => {
    const at = stack.indexOf(trap)
    if (at >= 0) stack.splice(at, 1)
    if (stack.length === 0) document.removeEventListener('keydown', onKeyDown)
    const active = document.activeElement
    const focusWasInside = !active || active === document.body || root.contains(active)
    if (trigger?.isConnected && focusWasInside) trigger.focus()
  }
}
