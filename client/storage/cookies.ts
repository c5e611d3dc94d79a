/** Cookies are set with path / and an optional expiry in days. */

/** Builds a Set-Cookie style string for document.cookie; pure so it can be tested. */
function cookieString(name: string, value: string, days?: number, now: number = Date.now()): string {
  let s = `${encodeURIComponent(name)}=${encodeURIComponent(value)}; path=/; samesite=lax`
  if (days !== undefined) s += `; expires=${new Date(now + days * 864e5).toUTCString()}`
  return s
}

export function setCookie(name: string, value: string, days?: number): void {
  // biome-ignore lint/suspicious/noDocumentCookie: the one place that writes cookies
  document.cookie = cookieString(name, value, days)
}
