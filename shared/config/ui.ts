/** UI timings and scroll thresholds. */

/** "Notification default lifetime 5 s" */
export const NOTIFICATION_TTL_MS = 5000
/** "submenu pop delay 300 ms" */
export const SUBMENU_POP_DELAY_MS = 300

/** "Back-to-top at 1000px scroll." */
export const BACK_TO_TOP_SCROLL_PX = 1000
/** "Scroll restore delay 100ms, offset 150px." */
export const SCROLL_RESTORE_DELAY_MS = 100
export const SCROLL_RESTORE_OFFSET_PX = 150
/** "On mobile, filter actions show on scroll up over 50px and hide on scroll down." */
export const MOBILE_FILTER_ACTIONS_SCROLL_PX = 50
/** "Viewport intersection threshold 0.25." ("The visibility threshold is 25%.") */
export const INTERSECTION_THRESHOLD = 0.25
/** "Gallery widget: slideshow interval 5000ms, transition 300ms, preload range 2, swipe threshold 20px." */
export const GALLERY = { intervalMs: 5000, transitionMs: 300, preloadRange: 2, swipeThresholdPx: 20 } as const
/** "Lazy image retries 3, pre-load factor 1.3, throttle 200ms." */
export const LAZY_IMAGE = { retries: 3, preLoadFactor: 1.3, throttleMs: 200 } as const
/** "Carousel defaults: 2 per page, speed 500 ms, autoplay 2000 ms." */
export const CAROUSEL = { perPage: 2, speedMs: 500, autoplayMs: 2000 } as const
