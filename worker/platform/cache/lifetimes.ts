/** How long a cached page is served fresh, then how long stale while one request re-renders it. */
export const FRESH_SECONDS = 300
export const STALE_SECONDS = 86_400
