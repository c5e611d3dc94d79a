/**
 * WebCrypto primitives for accounts: PBKDF2-SHA256 password hashes (100,000 iterations, the most
 * workerd allows, per-user random salt), constant-time comparison, SHA-256 digests for tokens
 * stored at rest, random opaque tokens, base64url.
 */

const PBKDF2_ITERATIONS = 100_000
const encoder = new TextEncoder()

export function toBase64Url(bytes: Uint8Array): string {
  let s = ''
  for (const b of bytes) s += String.fromCharCode(b)
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

export function fromBase64Url(text: string): Uint8Array {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/')
  const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4))
  const out = new Uint8Array(bin.length)
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i)
  return out
}

function randomBytes(n: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(n))
}

export function randomHex(bytes: number): string {
  return toHex(randomBytes(bytes))
}

/** Opaque bearer secret (256 bits, base64url). */
export function randomToken(): string {
  return toBase64Url(randomBytes(32))
}

/** Lower-case hex of bytes. */
export function toHex(bytes: Uint8Array): string {
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')
}

/** Hex SHA-256 of a string: how bearer secrets are stored at rest. */
export async function sha256Hex(text: string): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text))))
}

/** HMAC-SHA256 of a message (text as UTF-8, or raw bytes) under a text secret. */
export async function hmacSha256(secret: string, message: string | Uint8Array): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey(
    'raw',
    encoder.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  )
  const data = typeof message === 'string' ? encoder.encode(message) : message
  return new Uint8Array(await crypto.subtle.sign('HMAC', key, data as BufferSource))
}

/** Compares two byte strings in time independent of where they differ. */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length
  const n = Math.max(a.length, b.length)
  for (let i = 0; i < n; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0)
  return diff === 0
}

async function pbkdf2(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(password), 'PBKDF2', false, ['deriveBits'])
  const bits = await crypto.subtle.deriveBits(
    { name: 'PBKDF2', hash: 'SHA-256', salt: salt as BufferSource, iterations },
    key,
    256,
  )
  return new Uint8Array(bits)
}

/** Hashes a password as `pbkdf2-sha256$<iterations>$<salt>$<hash>` (base64url parts). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const hash = await pbkdf2(password, salt, PBKDF2_ITERATIONS)
  return `pbkdf2-sha256$${PBKDF2_ITERATIONS}$${toBase64Url(salt)}$${toBase64Url(hash)}`
}

/** Checks a password against a stored hash in constant time; malformed hashes never match. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parts = (stored ?? '').split('$')
  if (parts.length !== 4 || parts[0] !== 'pbkdf2-sha256') {
    // Same work as a real check, so unknown accounts cost as much time as known ones.
    await pbkdf2(password, randomBytes(16), PBKDF2_ITERATIONS)
    return false
  }
  const iterations = Number(parts[1])
  if (!Number.isInteger(iterations) || iterations < 1 || iterations > PBKDF2_ITERATIONS) return false
  const actual = await pbkdf2(password, fromBase64Url(parts[2] as string), iterations)
  return constantTimeEqual(actual, fromBase64Url(parts[3] as string))
}
