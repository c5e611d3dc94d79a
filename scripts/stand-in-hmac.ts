/**
 * The HMAC-SHA256 the local stand-ins sign with (hex, as Razorpay's and Meta's signature headers
 * carry it). Written against Web Crypto so the stand-ins run in Node and in the worker tests alike,
 * and kept apart from the shop's own verifier so a stand-in never mirrors a bug of the shop's.
 */
const enc = new TextEncoder()

export async function hmacHex(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    'raw',
    enc.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  )
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, enc.encode(message)))
  return [...mac].map((b) => b.toString(16).padStart(2, '0')).join('')
}
