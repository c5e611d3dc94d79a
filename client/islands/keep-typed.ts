/**
 * What a shopper typed, ticked or chose in an island's server-rendered fields before the island
 * hydrated. Hydration keeps such a value on the page, but the island's state still holds the value
 * the server rendered: a submit would send the server's value, and the next render would put it
 * back. After hydration, every field whose value differs from the one the server rendered (the
 * field's default) is handed to the island as the shopper's own change, so the state takes it:
 * - a text field: an `input` event, so onChange reads the shopper's value;
 * - a checkbox, or the radio the shopper picked: set back to the rendered state, then clicked;
 * - a select whose chosen option moved: a `change` event.
 * Hidden and button fields always equal their default; a file field is left alone. A part of an
 * island that loads later (a lazy chunk) hydrates on its own: the product page fetches those
 * before its form hydrates (client/entries/product.ts).
 */
export function keepEnteredBeforeHydration(root: HTMLElement): void {
  for (const el of root.querySelectorAll<HTMLInputElement>('input, textarea, select')) {
    const checkable = el.type === 'checkbox' || el.type === 'radio'
    if (el instanceof HTMLSelectElement) {
      if ([...el.options].some((o) => o.selected !== o.defaultSelected))
        el.dispatchEvent(new Event('change', { bubbles: true }))
    } else if (checkable) {
      if (el.checked !== el.defaultChecked && (el.checked || el.type === 'checkbox')) {
        el.checked = !el.checked
        el.click()
      }
    } else if (el.type !== 'file' && el.value !== el.defaultValue) {
      el.dispatchEvent(new Event('input', { bubbles: true }))
    }
  }
}
