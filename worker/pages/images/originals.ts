/**
 * Images of an imported catalogue: `/img/{w}/{h}[/{action}]/{path}` for a path the demo does not
 * draw. The original comes from the operator's origin — the CATALOGUE_IMAGES R2 bucket (key = the
 * path without its leading slash, as `npm run import -- --images DIR` uploads it), else the
 * MEDIA_BASE_URL var (base + path) — and is resized by the Images binding to the asked catalogue
 * size, in the best format the browser accepts (AVIF, else WebP, else JPEG; `Vary: Accept`).
 * Answers are kept in the edge cache (Cache API) under the canonical key `/img/{w}/{h}/{action}
 * {path}` + format (numbers as plain decimals, the action always named, a fixed host: never the
 * request's spelling or Host), so an image is read and resized once per location, size, action
 * and format.
 *
 * Rules: only paths imagePathProblem accepts are looked up (400 otherwise); an original over
 * MAX_SOURCE_BYTES answers 413; one larger than the resizer takes (over MAX_SOURCE_SIDE pixels a
 * side or MAX_SOURCE_PIXELS in all, as its header says or as the resizer reports) answers 413
 * naming that limit; an original no origin has answers 404; an origin that does not answer
 * answers 503 with Retry-After; what the Images binding does not take for an image answers 415,
 * and a resizer that fails otherwise 503 with Retry-After. The two answers about the original
 * itself (413, 415) are permanent: they are kept in the edge cache for a day under the original's
 * path (for every size, action and format), so asking again does not read the original again.
 *
 * Cold resizes are bounded per isolate: at most MAX_COLD_RESIZES read an original and resize it at
 * once (each holds up to MAX_SOURCE_BYTES of original in the isolate's memory and a resizer's work).
 * A request past them waits for a free slot, in arrival order, holding nothing (it has read
 * nothing yet), and looks in the edge cache again once it has one (another request may have resized
 * the same image meanwhile): a page showing many new photos gets every one of them. At most
 * MAX_WAITING_RESIZES wait, each at most SLOT_WAIT_MS; a request past that queue, or still waiting
 * after that time, answers 503 with Retry-After, is not kept by any cache, and has read nothing.
 * Answers from the edge cache and kept refusals never count nor wait.
 *
 * The first request for a size in AVIF (the costliest format to write) is answered with the JPEG
 * (QUICK_FORMAT, kept a minute by the browser); the AVIF is written in the background when a slot is
 * free, without waiting for one, once per key at a time, and answered from then on.
 */
import { imagePathProblem, MAX_IMAGE_SOURCE_BYTES as MAX_SOURCE_BYTES } from '@shared/domain/image-url'
import type { Context } from 'hono'
import { fetchOutbound, OutboundError } from '../../platform/fetch'

/** Longest side of an original the resizer takes (Cloudflare Images: 12,000 pixels). */
const MAX_SOURCE_SIDE = 12_000
/** Largest area of an original the resizer takes (Cloudflare Images: 100 megapixels). */
const MAX_SOURCE_PIXELS = 100_000_000
/** How long a permanent refusal of an original (413, 415) is kept in the edge cache (seconds). */
const REFUSAL_SECONDS = 86_400
/** The host of the image cache's keys (never the request's Host, which a client chooses). */
const KEY_HOST = 'https://image-cache.internal'
/**
 * The status a kept refusal stands for. The Cache API stores only statuses HTTP caching
 * understands (413 and 415 are not among them), so a refusal is kept as a 200 carrying it.
 */
const REFUSAL_HEADER = 'x-refused-with'

/**
 * Cold resizes (an original read and resized) one isolate runs at once: four originals of at most
 * 20 MiB stay well inside an isolate's 128 MB, and a listing's first visit after an import (a
 * browser asks for about six images at a time per connection) is mostly served at once.
 */
export const MAX_COLD_RESIZES = 4
/**
 * Requests that may wait for a cold-resize slot: two listing pages of new photos (24 tiles each).
 * A waiting request holds no original, only its place in the queue.
 */
export const MAX_WAITING_RESIZES = 48
/** The longest a request waits for a slot: a resize takes well under a second, so 48 fit. */
const SLOT_WAIT_MS = 15_000
/** Cold resizes running in this isolate now. */
let coldResizes = 0
/** The requests waiting for a slot, first come first served; each is handed a freed slot. */
const waiting: (() => void)[] = []
/** The answer past the queue or its wait: the browser may ask again in a second. */
const BUSY_MESSAGE = `Too many images are being resized at once (at most ${MAX_COLD_RESIZES}); try again in a second`

/** How many cold resizes run in this isolate now, and how many requests wait for a slot. */
export const coldResizeLoad = () => ({ running: coldResizes, waiting: waiting.length })

/** Takes a cold-resize slot, waiting for one in the queue; false past the queue or its wait. */
function takeSlot(): Promise<boolean> {
  if (coldResizes < MAX_COLD_RESIZES) {
    coldResizes++
    return Promise.resolve(true)
  }
  if (waiting.length >= MAX_WAITING_RESIZES) return Promise.resolve(false)
  return new Promise((resolve) => {
    const handOver = () => {
      clearTimeout(timer)
      resolve(true)
    }
    const timer = setTimeout(() => {
      const at = waiting.indexOf(handOver)
      if (at >= 0) waiting.splice(at, 1)
      resolve(false)
    }, SLOT_WAIT_MS)
    waiting.push(handOver)
  })
}

/**
 * Frees a slot: handed to the longest-waiting request, if any (so the count stays the same). The
 * waiter's promise is settled from this request; the runtime runs its continuation in the waiting
 * request, which is still open (it is waiting).
 */
function freeSlot(): void {
  const next = waiting.shift()
  if (next) next()
  else coldResizes--
}

/** How each VSF image action fits the original into the box. */
const FIT: Readonly<Record<string, 'scale-down' | 'contain' | 'cover'>> = {
  resize: 'scale-down',
  fit: 'contain',
  crop: 'cover',
}

type OutputFormat = 'image/avif' | 'image/webp' | 'image/jpeg'

/**
 * The format of the first answer for a new size asked in AVIF: JPEG, which every browser takes and
 * which takes tens of milliseconds to write whatever the picture, where AVIF takes from half a
 * second (a plain photograph) to many seconds (a noisy one), measured with the local resizer. The
 * AVIF is written in the background and answered from then on.
 */
const QUICK_FORMAT: OutputFormat = 'image/jpeg'
/** How long a browser keeps a quick first answer: it gets the asked format once that is written. */
const QUICK_ANSWER_SECONDS = 60
/** The background encodes this isolate has started and not finished (by cache key). */
const encoding = new Set<string>()

/** The image cache's key of one picture at one size, action and format. */
function imageKey(width: number, height: number, action: string, path: string, format: OutputFormat) {
  return new Request(
    `${KEY_HOST}/img/${width}/${height}/${action}${path}?format=${encodeURIComponent(format)}`,
  )
}

/** A quick first answer (the JPEG of a size whose asked format is not written yet), kept briefly. */
function quickAnswer(res: Response): Response {
  const headers = new Headers(res.headers)
  headers.set('cache-control', `public, max-age=${QUICK_ANSWER_SECONDS}`)
  return new Response(res.body, { status: res.status, headers })
}

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

const grouped = (n: number) => n.toLocaleString('en-US')

/** The answer for an original with more pixels than the resizer takes (its size, when known). */
function tooManyPixels(size?: { width: number; height: number }): string {
  const was = size ? ` (this one is ${grouped(size.width)} × ${grouped(size.height)})` : ''
  return `The original image is larger than the resizer takes: at most ${grouped(MAX_SOURCE_SIDE)} pixels a side and ${MAX_SOURCE_PIXELS / 1_000_000} megapixels${was}`
}

/** Whether the original's dimensions are within what the resizer takes. */
function withinPixelLimits(size: { width: number; height: number }): boolean {
  return (
    size.width <= MAX_SOURCE_SIDE &&
    size.height <= MAX_SOURCE_SIDE &&
    size.width * size.height <= MAX_SOURCE_PIXELS
  )
}

/**
 * Whether the Images binding refused the original for its dimensions: code 9413 (over 100
 * megapixels) or, from the local simulation, its image library's "exceeds pixel limit".
 */
function overPixelLimit(err: unknown): boolean {
  if ((err as { code?: unknown })?.code === 9413) return true
  return /\b9413\b|exceeds (the )?(pixel limit|maximum image area)/i.test(
    String((err as Error)?.message ?? ''),
  )
}

/** A permanent refusal of the original (413, 415): browsers and caches may keep it for a day. */
function refuseFor(c: Context, status: 413 | 415, message: string) {
  return text(c, status, message, { 'cache-control': `public, max-age=${REFUSAL_SECONDS}` })
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
  const cacheKey = imageKey(width, height, action, path, format)
  const cache = (caches as unknown as { default: Cache }).default
  const hit = await cache.match(cacheKey)
  if (hit) return hit
  const refusalKey = new Request(`${KEY_HOST}/refused${path}`)
  const refused = await cache.match(refusalKey)
  const keptStatus = Number(refused?.headers.get(REFUSAL_HEADER))
  if (refused && (keptStatus === 413 || keptStatus === 415))
    return refuseFor(c, keptStatus, await refused.text())
  /** A refusal that holds for this original whoever asks again: answered and kept for a day. */
  const refuse = (status: 413 | 415, message: string) => {
    const kept = new Response(message, {
      headers: { [REFUSAL_HEADER]: String(status), 'cache-control': `public, max-age=${REFUSAL_SECONDS}` },
    })
    c.executionCtx.waitUntil(cache.put(refusalKey, kept))
    return refuseFor(c, status, message)
  }
  const job = { path, action, width, height, format, cacheKey, refuse }
  // AVIF not written yet: the quick JPEG now (the kept one, or written in a slot), the AVIF in the
  // background.
  const quickKey = format === 'image/avif' ? imageKey(width, height, action, path, QUICK_FORMAT) : null
  const kept = quickKey ? await cache.match(quickKey) : undefined
  if (kept) {
    encodeLater(c, job)
    return quickAnswer(kept)
  }
  if (!(await takeSlot()))
    return c.text(BUSY_MESSAGE, 503, { 'cache-control': 'no-store', 'retry-after': '1' })
  let quick: Response | undefined
  try {
    // Resized by another request while this one waited: answered from the edge cache.
    const resized = await cache.match(cacheKey)
    if (resized) return resized
    if (!quickKey) return await resizeOriginal(c, job)
    quick =
      (await cache.match(quickKey)) ??
      (await resizeOriginal(c, { ...job, format: QUICK_FORMAT, cacheKey: quickKey }))
    if (quick.status !== 200) return quick
  } finally {
    freeSlot()
  }
  encodeLater(c, job)
  return quickAnswer(quick)
}

/**
 * Writes the asked format of a size in the background, after its quick answer: only with a free
 * cold-resize slot (never waiting for one), once per key at a time. One that does not run or
 * fails leaves the quick answer in place; the next request for that format starts it again.
 */
function encodeLater(c: Context, job: Parameters<typeof resizeOriginal>[1]): void {
  const key = job.cacheKey.url
  if (encoding.has(key) || encoding.size >= MAX_WAITING_RESIZES) return
  encoding.add(key)
  const cache = (caches as unknown as { default: Cache }).default
  const work = async () => {
    if (await cache.match(job.cacheKey)) return
    if (coldResizes >= MAX_COLD_RESIZES) return
    coldResizes++
    try {
      await (await resizeOriginal(c, job)).arrayBuffer()
    } finally {
      freeSlot()
    }
  }
  c.executionCtx.waitUntil(
    work()
      .catch(() => undefined)
      .finally(() => encoding.delete(key)),
  )
}

/** The cold path: reads the original, checks it, resizes it and keeps the answer. */
async function resizeOriginal(
  c: Context,
  job: {
    path: string
    action: string
    width: number
    height: number
    format: OutputFormat
    cacheKey: Request
    refuse: (status: 413 | 415, message: string) => Response
  },
): Promise<Response> {
  const { path, action, width, height, format, cacheKey, refuse } = job
  const cache = (caches as unknown as { default: Cache }).default
  const original = await readOriginal(c.env as Env, path)
  if ('status' in original) {
    if (original.status === 413) return refuse(413, original.message)
    return text(c, original.status, original.message, original.status === 503 ? { 'retry-after': '2' } : {})
  }
  const images = (c.env as Env).IMAGES
  const unavailable = () =>
    text(c, 503, 'Image resizing is unavailable; try again shortly', { 'retry-after': '2' })
  try {
    const info = await images.info(streamOf(original.bytes))
    if ('width' in info && !withinPixelLimits(info)) return refuse(413, tooManyPixels(info))
  } catch (err) {
    if (overPixelLimit(err)) return refuse(413, tooManyPixels())
    return notAnImage(err) ? refuse(415, 'The original is not an image the resizer can read') : unavailable()
  }
  let body: ReadableStream<Uint8Array>
  try {
    const result = await images
      .input(streamOf(original.bytes))
      .transform({ width, height, fit: FIT[action] ?? 'scale-down' })
      .output({ format, quality: 82 })
    body = result.image()
  } catch (err) {
    if (overPixelLimit(err)) return refuse(413, tooManyPixels())
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
