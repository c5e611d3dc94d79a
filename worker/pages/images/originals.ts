/**
 * Images of an imported catalogue: `/img/{w}/{h}[/{action}]/{path}` for a path the demo does not
 * draw. The original comes from the operator's origin — the CATALOGUE_IMAGES R2 bucket (key = the
 * path without its leading slash, as `npm run import -- --images DIR` uploads it), else the
 * MEDIA_BASE_URL var (base + path) — and is resized by the Images binding to the asked catalogue
 * size, in the best format the browser accepts (AVIF, else WebP, else JPEG; `Vary: Accept`).
 * Answers are kept in the edge cache (Cache API) per URL and format, so an image is resized once
 * per location.
 *
 * Rules: only paths imagePathProblem accepts are looked up (400 otherwise); an original over MAX_SOURCE_BYTES answers
 * 413; an original no origin has answers 404; an origin that does not answer answers 503 with
 * Retry-After; what the Images binding does not take for an image answers 415, and a resizer
 * that fails otherwise 503 with Retry-After.
 */
import { imagePathProblem, MAX_IMAGE_SOURCE_BYTES as MAX_SOURCE_BYTES } from '@shared/domain/image-url'
import type { Context } from 'hono'
import { fetchOutbound, OutboundError } from '../../platform/fetch'

/** How each VSF image action fits the original into the box. */
const FIT: Readonly<Record<string, 'scale-down' | 'contain' | 'cover'>> = {
  resize: 'scale-down',
  fit: 'contain',
  crop: 'cover',
}

type OutputFormat = 'image/avif' | 'image/webp' | 'image/jpeg'

/** The best output format the Accept header names (JPEG when it names neither AVIF nor WebP). */
function negotiateFormat(accept: string | undefined): OutputFormat {
  const a = (accept ?? '').toLowerCase()
  if (a.includes('image/avif')) return 'image/avif'
  if (a.includes('image/webp')) return 'image/webp'
  return 'image/jpeg'
}

const text = (c: Context, status: 400 | 404 | 413 | 415 | 503, message: string, extra = {}) =>
  c.text(message, status, { 'cache-control': 'public, max-age=300', ...extra })

/** The original's bytes and type, or a status to answer. */
async function readOriginal(
  env: Env,
  path: string,
): Promise<{ bytes: ArrayBuffer } | { status: 404 | 413 | 503; message: string }> {
  const object = env.CATALOGUE_IMAGES ? await env.CATALOGUE_IMAGES.get(path.slice(1)) : null
  if (object) {
    if (object.size > MAX_SOURCE_BYTES) return tooLarge()
    return { bytes: await object.arrayBuffer() }
  }
  const base = (env.MEDIA_BASE_URL ?? '').trim().replace(/\/+$/, '')
  if (!/^https?:\/\//i.test(base)) return { status: 404, message: 'Image not found' }
  let res: Response
  try {
    res = await fetchOutbound('Media origin', `${base}${path}`)
  } catch (err) {
    if (err instanceof OutboundError) return { status: 503, message: err.message }
    throw err
  }
  if (res.status === 404 || res.status === 410) return { status: 404, message: 'Image not found' }
  if (!res.ok || !res.body) return { status: 503, message: `Media origin answered ${res.status}` }
  if (Number(res.headers.get('content-length') ?? 0) > MAX_SOURCE_BYTES) {
    await res.body.cancel()
    return tooLarge()
  }
  // Counted while read: a missing or false Content-Length does not get past the limit.
  const reader = res.body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > MAX_SOURCE_BYTES) {
      await reader.cancel()
      return tooLarge()
    }
    chunks.push(value)
  }
  const bytes = new Uint8Array(total)
  let at = 0
  for (const chunk of chunks) {
    bytes.set(chunk, at)
    at += chunk.byteLength
  }
  return { bytes: bytes.buffer }
}

/**
 * Whether the Images binding refused the bytes as no (supported) image: codes 9412 and 9520, or,
 * from the local simulation, its image library's "unsupported image format" (it answers 9523).
 */
function notAnImage(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code
  if (code === 9412 || code === 9520) return true
  return /\b(9412|9520)\b|unsupported image format/i.test(String((err as Error)?.message ?? ''))
}

function tooLarge() {
  return {
    status: 413 as const,
    message: `The original image is larger than ${MAX_SOURCE_BYTES / 1048576} MiB`,
  }
}

function streamOf(bytes: ArrayBuffer): ReadableStream<Uint8Array> {
  return new Response(bytes).body as ReadableStream<Uint8Array>
}

/** Serves an imported catalogue image at width × height (see the file comment for the rules). */
export async function serveOriginal(
  c: Context,
  path: string,
  action: string,
  width: number,
  height: number,
): Promise<Response> {
  const problem = imagePathProblem(path)
  if (problem) return text(c, 400, problem)
  const format = negotiateFormat(c.req.header('accept'))
  const url = new URL(c.req.url)
  const cacheKey = new Request(`${url.origin}${url.pathname}?format=${encodeURIComponent(format)}`)
  const cache = (caches as unknown as { default: Cache }).default
  const hit = await cache.match(cacheKey)
  if (hit) return hit
  const original = await readOriginal(c.env as Env, path)
  if ('status' in original)
    return text(c, original.status, original.message, original.status === 503 ? { 'retry-after': '2' } : {})
  const images = (c.env as Env).IMAGES
  const unavailable = () =>
    text(c, 503, 'Image resizing is unavailable; try again shortly', { 'retry-after': '2' })
  try {
    await images.info(streamOf(original.bytes))
  } catch (err) {
    return notAnImage(err) ? text(c, 415, 'The original is not an image the resizer can read') : unavailable()
  }
  let body: ReadableStream<Uint8Array>
  try {
    const result = await images
      .input(streamOf(original.bytes))
      .transform({ width, height, fit: FIT[action] ?? 'scale-down' })
      .output({ format, quality: 82 })
    body = result.image()
  } catch {
    return unavailable()
  }
  const res = new Response(body, {
    headers: {
      'content-type': format,
      'cache-control': 'public, max-age=31536000, immutable',
      vary: 'Accept',
      'x-content-type-options': 'nosniff',
    },
  })
  c.executionCtx.waitUntil(cache.put(cacheKey, res.clone()))
  return res
}
