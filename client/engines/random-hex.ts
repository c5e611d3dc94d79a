/** Random hex of `bytes` bytes (the browser's cryptographic random source). */
export function randomHex(bytes = 8): string {
  const a = new Uint8Array(bytes)
  crypto.getRandomValues(a)
  return [...a].map((b) => b.toString(16).padStart(2, '0')).join('')
}
