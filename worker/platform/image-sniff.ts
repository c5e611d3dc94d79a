/**
 * What an uploaded picture is, read from its first bytes (the file name and the declared type are
 * not trusted): JPEG, PNG or WebP, the raster formats the image route resizes; anything else is
 * none.
 */
export type ImageKind = 'jpg' | 'png' | 'webp'

/** The picture's format from its first bytes, or null when it is none the shop serves. */
export function sniffImage(bytes: Uint8Array): ImageKind | null {
  const at = (i: number, ...b: number[]) => b.every((v, k) => bytes[i + k] === v)
  if (at(0, 0xff, 0xd8, 0xff)) return 'jpg'
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png'
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return 'webp'
  return null
}

export const IMAGE_CONTENT_TYPES: Record<ImageKind, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
}

/** The first 12 bytes of the content's SHA-256 in hex: a stored picture's name (new bytes, new name). */
export async function contentName(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  return [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))]
    .slice(0, 12)
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('')
}
