/**
 * Message signatures the providers use: HMAC-SHA256 as lower-case hex, compared in constant time
 * so the time an answer takes says nothing about how much of a forged signature was right.
 */
import { constantTimeEqual } from '../auth/crypto'

const encoder = new TextEncoder()

async function hmacSha256Hex(secret: string, message: string | Uint8Array): Promise<string> {
  const key = await crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  )
  const mac = new Uint8Array(
    await crypto.subtle.sign(
      'HMAC',
      key,
      typeof message === 'string' ? encoder.encode(message) : (message as BufferSource),
    ),
  )
  return [...mac].map((b) => b.toString(16).padStart(2, '0')).join('')
}

/** True when `given` is exactly the HMAC-SHA256 hex of `message` under `secret`. */
export async function hmacMatches(
  secret: string,
  message: string | Uint8Array,
  given: string | null | undefined,
) {
  if (typeof given !== 'string' || !/^[0-9a-f]{64}$/.test(given)) return false
  const expected = await hmacSha256Hex(secret, message)
  return constantTimeEqual(encoder.encode(expected), encoder.encode(given))
}
