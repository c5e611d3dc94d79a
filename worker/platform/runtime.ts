/**
 * Workers-only runtime APIs whose types collide with the DOM lib (the one tsconfig includes both,
 * because client components are rendered on the server): typed accessors in one place.
 */

/** The colo's default Cache API cache (`caches.default`). */
export function edgeCache(): Cache {
  return (caches as unknown as { default: Cache }).default
}

/** Constant-time comparison of two equal-length buffers (workerd's crypto.subtle.timingSafeEqual). */
export function timingSafeEqual(a: ArrayBuffer, b: ArrayBuffer): boolean {
  const subtle = crypto.subtle as unknown as { timingSafeEqual: (a: ArrayBuffer, b: ArrayBuffer) => boolean }
  return subtle.timingSafeEqual(a, b)
}
