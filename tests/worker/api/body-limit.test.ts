// The /api-wide body limit (1 MiB) and an area's smaller one nest: a streamed body (no
// Content-Length) is counted as it is read, so the smallest limit stops the read, and the
// /api-wide limit reads nothing of its own before the area's.
import { describe, expect, it } from 'vitest'
import { MAX_API_BODY_BYTES } from '../../../worker/platform/http'
import { postStreamed, STREAM_CHUNK_BYTES, streamedBody } from '../../helpers/streamed-body'

async function post(path: string, body: ReadableStream<Uint8Array>, address: string) {
  const res = await postStreamed(path, body, { 'cf-connecting-ip': address })
  return { status: res.status, json: (await res.json()) as { code: number; result: unknown } }
}

describe('streamed request bodies', () => {
  it("stop at the area's own limit (4 KiB for payment calls), not after the /api-wide megabyte", async () => {
    const { body, pulled } = streamedBody(4 * 1024 * 1024)
    const res = await post('/api/payment/order', body, '198.18.40.1')
    expect(res.status).toBe(400)
    expect(res.json.result).toBe('Request body is too large (at most 4096 bytes)')
    // The stream may run a chunk or two ahead of the reader; nowhere near the megabyte.
    expect(pulled.bytes).toBeLessThanOrEqual(4 * STREAM_CHUNK_BYTES)
  })

  it('stop at the /api-wide limit where the area sets none, with the same readable 400', async () => {
    const { body, pulled } = streamedBody(3 * 1024 * 1024)
    const res = await post('/api/order', body, '198.18.40.2')
    expect(res.status).toBe(400)
    expect(res.json.result).toBe(`Request body is too large (at most ${MAX_API_BODY_BYTES} bytes)`)
    expect(pulled.bytes).toBeLessThanOrEqual(MAX_API_BODY_BYTES + 4 * STREAM_CHUNK_BYTES)
  })

  it('of ordinary size still reach the handler whole', async () => {
    const text = JSON.stringify({ orderNumber: '999999999', accessKey: 'nothing' })
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(text))
        controller.close()
      },
    })
    const res = await post('/api/payment/order', body, '198.18.40.3')
    // Read and validated: no such order for that key (a 403, as for someone else's order), which
    // only a parsed body can say.
    expect(res.status).toBe(403)
  })
})
