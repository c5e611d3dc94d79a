// Signing keys for the tests of tokens a provider signs with RS256 (Cloudflare Access assertions,
// Google ID tokens). Pure Web Crypto, so workerd and Node both run it.

/** A fresh RSA key pair for RS256 (2048-bit modulus, exponent 65537), exportable as JWK. */
export async function rs256KeyPair() {
  return (await crypto.subtle.generateKey(
    {
      name: 'RSASSA-PKCS1-v1_5',
      modulusLength: 2048,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: 'SHA-256',
    },
    true,
    ['sign', 'verify'],
  )) as CryptoKeyPair
}
