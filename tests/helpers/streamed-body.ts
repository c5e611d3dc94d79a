// Request bodies sent in chunks, without a Content-Length (as `Transfer-Encoding: chunked` sends
// them): a body limit has to count such a body as it reads it, and stop reading at the limit.
import { SELF } from 'cloudflare:test'

/** The size of each chunk a streamed body arrives in. */
export const STREAM_CHUNK_BYTES = 64 * 1024

/**
 * A body of `total` bytes of `fill` in 64 KiB chunks, made as the reader pulls them;
 * `pulled.bytes` counts what was pulled, so a test can tell a stopped read from a full one.
 */
export function streamedBody(total: number, fill = 0x20) {
  const chunk = new Uint8Array(STREAM_CHUNK_BYTES).fill(fill)
  const pulled = { bytes: 0 }
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled.bytes >= total) return controller.close()
      pulled.bytes += chunk.byteLength
      controller.enqueue(chunk)
    },
  })
  return { body, pulled }
}

/** POSTs a streamed JSON body to the shop's `path` (a stream body needs a half-duplex request). */
export function postStreamed(
  path: string,
  body: ReadableStream<Uint8Array>,
  headers: Record<string, string> = {},
) {
  return SELF.fetch(`https://shop.test${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
    duplex: 'half',
  } as RequestInit)
}
