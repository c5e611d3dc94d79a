/**
 * Message signatures the providers use: HMAC-SHA256 as lower-case hex, compared in constant time
 * so the time an answer takes says nothing about how much of a forged signature was right.
 */
import { constantTimeEqual, hmacSha256, toHex } from '../auth/crypto'

const encoder = new TextEncoder()

/** True when `given` is exactly the HMAC-SHA256 hex of `message` under `secret`. */
export async function hmacMatches(
  secret: string,
  message: string | Uint8Array,
  given: string | null | undefined,
) {
  if (typeof given !== 'string' || !/^[0-9a-f]{64}$/.test(given)) return false
  const expected = toHex(await hmacSha256(secret, message))
  return constantTimeEqual(encoder.encode(expected), encoder.encode(given))
}
