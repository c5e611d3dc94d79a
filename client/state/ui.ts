/**
 * UI panels: microcart, sidebar, search, wishlist, slide-up and
 * size selector toggle together with one overlay: opening one closes the others. The submenu path
 * pops after 300 ms. Also the chat enquiry ('Show Interest' opens a chat-messaging enquiry with
 * the product link).
 *
 * Panel slots: an island that renders a panel's content (the wishlist, the microcart, the product
 * page's size selector) calls `registerPanel(name)` when it mounts and renders while
 * `openPanel.value === name`; the header's buttons then toggle the panel instead of navigating.
 */
import { signal } from '@preact/signals-core'
import { SUBMENU_POP_DELAY_MS } from '@shared/config/ui'

export type Panel = 'microcart' | 'sidebar' | 'search' | 'wishlist' | 'slideup' | 'sizeselector'

export const openPanel = signal<Panel | null>(null)

/** Panels whose content some island on this page renders (see the header comment). */
export const registeredPanels = signal<ReadonlySet<Panel>>(new Set())

/** Opens the panel, or closes it if it is the one already open. */
export function togglePanel(panel: Panel): void {
  openPanel.value = openPanel.value === panel ? null : panel
  if (openPanel.value !== 'sidebar') submenuPath.value = []
}

export function closePanels(): void {
  openPanel.value = null
  submenuPath.value = []
}

/** Declares that an island renders `panel`'s content; returns the unregister function. */
export function registerPanel(panel: Panel): () => void {
  registeredPanels.value = new Set([...registeredPanels.value, panel])
  return () => {
    const next = new Set(registeredPanels.value)
    next.delete(panel)
    registeredPanels.value = next
  }
}

/** The island that renders a panel a header link opens (its `data-island` name). */
const PANEL_ISLANDS: Partial<Record<Panel, string>> = { microcart: 'microcart' }

/**
 * Whether a header link may open `panel` instead of following its href: an island on this page
 * renders it (it registered), or that island is still hydrating. A click during hydration is
 * replayed on the header as soon as the header has hydrated, which may be before the panel's own
 * island has mounted; that island renders the panel open when it mounts (it reads openPanel). A
 * page without the island follows the link.
 */
export function panelOnPage(
  panel: Panel,
  registered: ReadonlySet<Panel>,
  root: Pick<ParentNode, 'querySelector'> = document,
): boolean {
  if (registered.has(panel)) return true
  const island = PANEL_ISLANDS[panel]
  return (
    island !== undefined &&
    root.querySelector(`[data-island="${island}"][data-hydrating]:not([data-hydrated])`) !== null
  )
}

/** The sidebar's open submenu path: category ids from the top level down. */
export const submenuPath = signal<number[]>([])

/** Opens the submenu of `id` below the current path. */
export function pushSubmenu(id: number): void {
  submenuPath.value = [...submenuPath.value, id]
}

/**
 * Closes the innermost submenu after 300 ms (the slide-out animation runs first).
 * Returns the timer handle; `setTimer` is injectable for tests.
 */
export function popSubmenu(
  setTimer: (fn: () => void, ms: number) => unknown = (fn, ms) => setTimeout(fn, ms),
): unknown {
  return setTimer(() => {
    submenuPath.value = submenuPath.value.slice(0, -1)
  }, SUBMENU_POP_DELAY_MS)
}

/** A chat enquiry to open in the support widget (null = closed). */
export interface ChatEnquiry {
  message: string
  productUrl?: string
}
export const chatEnquiry = signal<ChatEnquiry | null>(null)

/** Opens the support chat with a prefilled message. */
export function openChat(enquiry: ChatEnquiry = { message: '' }): void {
  chatEnquiry.value = enquiry
}

export function closeChat(): void {
  chatEnquiry.value = null
}

/** The prefilled 'Show Interest' message for an out-of-stock product (includes its link). */
export function showInterestMessage(productName: string, productUrl: string): string {
  return `Hello, I am interested in "${productName}" (${productUrl}). It is shown as out of stock — please let me know when it is available.`
}
