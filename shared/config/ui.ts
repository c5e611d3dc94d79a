/** UI timings and breakpoints (catalogue spec §9 "Display behaviour", transactions spec §9). */

/** "Notification default lifetime 5 s" */
export const NOTIFICATION_TTL_MS = 5000
/** "submenu pop delay 300 ms" */
export const SUBMENU_POP_DELAY_MS = 300
/** "Mobile breakpoint is under 768 px." */
export const MOBILE_BREAKPOINT_PX = 768
