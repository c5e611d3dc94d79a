/**
 * UI panels (transactions spec §2 "UI panels"): microcart, sidebar, search, wishlist, slide-up and
 * size selector toggle together with one overlay: opening one closes the others.
 */
import { computed, signal } from '@preact/signals-core'

export type Panel = 'microcart' | 'sidebar' | 'search' | 'wishlist' | 'slideup' | 'sizeselector'

export const openPanel = signal<Panel | null>(null)
export const isOverlayVisible = computed(() => openPanel.value !== null)

/** Opens the panel, or closes it if it is the one already open. */
export function togglePanel(panel: Panel): void {
  openPanel.value = openPanel.value === panel ? null : panel
}

export function closePanels(): void {
  openPanel.value = null
}
