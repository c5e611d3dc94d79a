/**
 * Images of an imported catalogue through /img: originals from the R2 bucket, resized by the Images
 * binding (miniflare's local one), negotiated by Accept, kept in the edge cache, bad requests 4xx.
 */
import { createExecutionContext, env, SELF, waitOnExecutionContext } from 'cloudflare:test'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { IMAGE_SIZES } from '../../../shared/config/images'
import app from '../../../worker/app'
import { coldResizeLoad, MAX_COLD_RESIZES, MAX_WAITING_RESIZES } from '../../../worker/pages/images/originals'
import { pngHeaderOfSize, SAMPLE_JPEG } from '../../helpers/images'

const JPEG = SAMPLE_JPEG

const get = (path: string, accept?: string) =>
  SELF.fetch(`https://shop.test${path}`, accept ? { headers: { accept } } : {})

/** Answers `path` through the app and waits for the work it left running (the background encode). */
async function fetchAndWait(path: string, accept?: string) {
  const ctx = createExecutionContext()
  const init = accept ? { headers: { accept } } : {}
  const res = await app.fetch(new Request(`https://shop.test${path}`, init), env, ctx)
  const body = await res.arrayBuffer()
  await waitOnExecutionContext(ctx)
  return new Response(body, res)
}

async function dimensions(res: Response) {
  const info = await env.IMAGES.info(res.body as ReadableStream<Uint8Array>)
  return 'width' in info ? [info.width, info.height] : []
}

/** Resizes the original at `key` once to WebP through `path` (the edge cache keeps it), then deletes the original. */
async function resizedThenGone(key: string, path: string) {
  await env.CATALOGUE_IMAGES.put(key, JPEG)
  const first = await get(path, 'image/webp')
  expect(first.status).toBe(200)
  await first.arrayBuffer()
  await env.CATALOGUE_IMAGES.delete(key)
}

describe('imported catalogue images', () => {
  it('resizes an original from the bucket to the asked catalogue size, in the accepted format', async () => {
    await env.CATALOGUE_IMAGES.put('w/t/wt06-blue_main.jpg', JPEG)
    const { width, height } = IMAGE_SIZES.listing
    const cases: [string | undefined, string][] = [
      ['image/avif,image/webp,*/*', 'image/avif'],
      ['image/webp,*/*', 'image/webp'],
      ['*/*', 'image/jpeg'],
      [undefined, 'image/jpeg'],
    ]
    for (const [accept, type] of cases) {
      // The first AVIF answer is the quick JPEG (next test): the asked format once it is written.
      await fetchAndWait(`/img/${width}/${height}/crop/w/t/wt06-blue_main.jpg`, accept)
      const res = await get(`/img/${width}/${height}/crop/w/t/wt06-blue_main.jpg`, accept)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe(type)
      expect(res.headers.get('vary')).toBe('Accept')
      expect(res.headers.get('cache-control')).toContain('immutable')
      expect(await dimensions(res)).toEqual([width, height])
    }
  })

  it('answers a new size asked in AVIF with the quick JPEG first, then the AVIF written in the background', async () => {
    await env.CATALOGUE_IMAGES.put('q/u/quick.jpg', JPEG)
    const path = '/img/600/744/crop/q/u/quick.jpg'
    const avif = 'image/avif,image/webp,*/*'
    const first = await fetchAndWait(path, avif)
    expect(first.status).toBe(200)
    expect(first.headers.get('content-type')).toBe('image/jpeg')
    expect(first.headers.get('cache-control')).toBe('public, max-age=60')
    expect(first.headers.get('vary')).toBe('Accept')
    expect(await dimensions(first)).toEqual([600, 744])
    // Written meanwhile: the AVIF from the edge cache, with no original to read.
    await env.CATALOGUE_IMAGES.delete('q/u/quick.jpg')
    const then = await get(path, avif)
    expect(then.status).toBe(200)
    expect(then.headers.get('content-type')).toBe('image/avif')
    expect(then.headers.get('cache-control')).toContain('immutable')
    expect(await dimensions(then)).toEqual([600, 744])
    // A browser that asked for JPEG gets the same quick picture, kept as long as any other.
    const jpeg = await get(path, 'image/jpeg')
    expect(jpeg.headers.get('content-type')).toBe('image/jpeg')
    expect(jpeg.headers.get('cache-control')).toContain('immutable')
    await jpeg.arrayBuffer()
  })

  it('resize keeps the proportions and never enlarges; the path without an action works too', async () => {
    await env.CATALOGUE_IMAGES.put('m/b/mb01-black.jpg', JPEG)
    const resized = await get('/img/600/744/resize/m/b/mb01-black.jpg', 'image/webp')
    expect(resized.status).toBe(200)
    expect(await dimensions(resized)).toEqual([120, 180])
    const plain = await get('/img/150/150/m/b/mb01-black.jpg', 'image/webp')
    expect(plain.status).toBe(200)
    expect(await dimensions(plain)).toEqual([100, 150])
  })

  it('answers from the edge cache once resized (the original is not read again)', async () => {
    await resizedThenGone('c/a/cached.jpg', '/img/310/300/resize/c/a/cached.jpg')
    const again = await get('/img/310/300/resize/c/a/cached.jpg', 'image/webp')
    expect(again.status).toBe(200)
    expect(again.headers.get('content-type')).toBe('image/webp')
    // Another format is another entry: it needs the original, which is gone.
    expect((await get('/img/310/300/resize/c/a/cached.jpg', 'image/avif')).status).toBe(404)
  })

  it.each([
    ['an image no origin has', '/img/600/744/resize/x/y/missing.jpg', 404],
    ['a size that is not a catalogue size', '/img/601/744/resize/w/t/wt06-blue_main.jpg', 400],
    ['an oversized size', '/img/99999/744/resize/w/t/wt06-blue_main.jpg', 400],
    ['an encoded parent segment and slash', '/img/600/744/resize/w/%2e%2e%2fwt06-blue_main.jpg', 400],
    ['a NUL byte', '/img/600/744/resize/w/t/wt06-blue_main%00.jpg', 400],
    ['an encoded slash', '/img/600/744/resize/w%2ft/wt06-blue_main.jpg', 400],
    ['a doubled slash', '/img/600/744/resize/w//t/wt06-blue_main.jpg', 400],
    ['a path over 256 characters', `/img/600/744/resize/${'a/'.repeat(130)}x.jpg`, 400],
    ['a non-image extension', '/img/600/744/resize/w/t/wt06-blue_main.php', 404],
  ])('%s answers %i', async (_name, path, status) => {
    await env.CATALOGUE_IMAGES.put('w/t/wt06-blue_main.jpg', JPEG)
    const res = await get(path)
    expect(res.status).toBe(status)
    expect(res.headers.get('content-type')).toContain('text/plain')
  })

  it('an original over 20 MiB answers 413, one that is not an image 415', async () => {
    await env.CATALOGUE_IMAGES.put('h/u/huge.jpg', new Uint8Array(20 * 1024 * 1024 + 1))
    const huge = await get('/img/600/744/resize/h/u/huge.jpg')
    expect(huge.status).toBe(413)
    expect(await huge.text()).toContain('20 MiB')
    await env.CATALOGUE_IMAGES.put('n/o/not-an-image.jpg', new TextEncoder().encode('<?php echo 1;'))
    expect((await get('/img/600/744/resize/n/o/not-an-image.jpg')).status).toBe(415)
  })

  it('every spelling of one image at one size is one cache entry: one origin read, one resize', async () => {
    // The original is gone: whatever is answered now comes from the entry the first request made.
    await resizedThenGone('c/k/canonical.jpg', '/img/600/744/c/k/canonical.jpg')
    for (const spelling of [
      '/img/600/744/resize/c/k/canonical.jpg',
      '/img/0600/744/c/k/canonical.jpg',
      '/img/600/0744/resize/c/k/canonical.jpg',
      '/img/0600/0744/c/k/canonical.jpg',
      '/img/600/744/c/k/canonical.jpg?v=2',
    ]) {
      const res = await get(spelling, 'image/webp')
      expect(res.status, spelling).toBe(200)
      expect(res.headers.get('content-type'), spelling).toBe('image/webp')
      await res.arrayBuffer()
    }
    // Another Host is the same entry too (the key never carries the request's host).
    const ctx = createExecutionContext()
    const spoofed = await app.fetch(
      new Request('https://elsewhere.test/img/600/744/resize/c/k/canonical.jpg', {
        headers: { accept: 'image/webp' },
      }),
      env,
      ctx,
    )
    await waitOnExecutionContext(ctx)
    expect(spoofed.status).toBe(200)
    // fit and crop draw other pictures: they are entries of their own (and need the original).
    expect((await get('/img/600/744/crop/c/k/canonical.jpg', 'image/webp')).status).toBe(404)
  })

  it('an original larger than the resizer takes is a permanent 413 naming the limit, not a 503', async () => {
    await env.CATALOGUE_IMAGES.put('h/u/30k.png', pngHeaderOfSize(30_000, 30_000))
    const res = await get('/img/600/744/h/u/30k.png', 'image/webp')
    expect(res.status).toBe(413)
    expect(res.headers.get('retry-after')).toBeNull()
    expect(await res.text()).toContain('at most 12,000 pixels a side and 100 megapixels')
    // Asked again (any spelling), it is answered without reading the original.
    await env.CATALOGUE_IMAGES.delete('h/u/30k.png')
    const again = await get('/img/0600/744/resize/h/u/30k.png', 'image/webp')
    expect(again.status).toBe(413)
    // Within the resizer's area but over its longest side, as the header says.
    await env.CATALOGUE_IMAGES.put('h/u/wide.png', pngHeaderOfSize(12_001, 8))
    const wide = await get('/img/600/744/h/u/wide.png', 'image/webp')
    expect(wide.status).toBe(413)
    expect(await wide.text()).toContain('(this one is 12,001 × 8)')
  })

  it('the demo drawings keep coming from the same route', async () => {
    const res = await get('/img/600/744/resize/p/kurta-red.svg')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('image/svg+xml')
  })
})

describe('imported catalogue images from the upstream media base URL', () => {
  afterEach(() => vi.restoreAllMocks())

  /** One request through the app with MEDIA_BASE_URL set and the media origin answering `origin`. */
  async function viaMedia(path: string, origin: (url: string) => Response | Promise<Response>) {
    const asked: string[] = []
    const real = globalThis.fetch
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const url = input instanceof Request ? input.url : String(input)
      if (!url.startsWith('https://media.test/')) return real(input, init)
      asked.push(url)
      return origin(url)
    })
    const ctx = createExecutionContext()
    const res = await app.fetch(
      new Request(`https://shop.test${path}`, { headers: { accept: 'image/webp' } }),
      { ...env, MEDIA_BASE_URL: 'https://media.test/media/catalog/product/' },
      ctx,
    )
    await waitOnExecutionContext(ctx)
    return { res, asked }
  }

  it('reads an image the bucket lacks from the media base URL and resizes it', async () => {
    const { res, asked } = await viaMedia('/img/400/600/resize/w/s/ws01-media.jpg', () => new Response(JPEG))
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/webp')
    expect(asked).toEqual(['https://media.test/media/catalog/product/w/s/ws01-media.jpg'])
  })

  it.each([
    ['an image the origin lacks', () => new Response('nope', { status: 404 }), 404],
    ['an origin error', () => new Response('down', { status: 500 }), 503],
    [
      'an origin that does not answer',
      () => {
        throw new TypeError('connection refused')
      },
      503,
    ],
    [
      'an original announced over 20 MiB',
      () => new Response(JPEG, { headers: { 'content-length': String(21 * 1024 * 1024) } }),
      413,
    ],
    [
      'an original streamed past 20 MiB without a length',
      () =>
        new Response(
          new ReadableStream({
            start(controller) {
              for (let i = 0; i < 21; i++) controller.enqueue(new Uint8Array(1024 * 1024))
              controller.close()
            },
          }),
        ),
      413,
    ],
  ] as [string, () => Response, number][])('%s answers %i', async (_name, origin, status) => {
    const { res } = await viaMedia(`/img/400/600/resize/o/r/${status}-${_name.length}.jpg`, origin)
    expect(res.status).toBe(status)
    if (status === 503) expect(res.headers.get('retry-after')).toBe('2')
  })
})

describe('a resizer that fails', () => {
  it('answers 503 with Retry-After (transient), not 4xx or 500', async () => {
    await env.CATALOGUE_IMAGES.put('f/a/failing.jpg', JPEG)
    const failing = {
      info: () => Promise.reject(Object.assign(new Error('ERROR 9523: internal'), { code: 9523 })),
    } as unknown as ImagesBinding
    const ctx = createExecutionContext()
    const res = await app.fetch(
      new Request('https://shop.test/img/600/744/resize/f/a/failing.jpg'),
      { ...env, IMAGES: failing },
      ctx,
    )
    await waitOnExecutionContext(ctx)
    expect(res.status).toBe(503)
    expect(res.headers.get('retry-after')).toBe('2')
  })
})

describe('cold resizes at once', () => {
  it(`at most ${MAX_COLD_RESIZES} per isolate: the next wait their turn and are answered; past the queue 503 at once`, async () => {
    // A resizer that holds every image it is asked about until released, counting who reached it.
    let reached = 0
    let release = () => {}
    const gate = new Promise<void>((r) => {
      release = r
    })
    const held = {
      info: async (s: ReadableStream<Uint8Array>) => {
        reached++
        await gate
        return env.IMAGES.info(s)
      },
      input: (s: ReadableStream<Uint8Array>) => env.IMAGES.input(s),
    } as unknown as ImagesBinding
    const fetchCold = async (name: string) => {
      const ctx = createExecutionContext()
      const res = await app.fetch(
        new Request(`https://shop.test/img/600/744/resize/b/u/${name}.jpg`),
        { ...env, IMAGES: held },
        ctx,
      )
      await waitOnExecutionContext(ctx)
      return res
    }
    for (let i = 0; i <= MAX_COLD_RESIZES; i++) await env.CATALOGUE_IMAGES.put(`b/u/busy-${i}.jpg`, JPEG)
    const running = Array.from({ length: MAX_COLD_RESIZES }, (_, i) => fetchCold(`busy-${i}`))
    await vi.waitFor(() => expect(reached).toBe(MAX_COLD_RESIZES))
    // The next photo waits for a slot instead of failing; the rest of the queue asks for originals
    // no origin has (answered 404 once their turn comes, without the resizer).
    const queued = [
      fetchCold(`busy-${MAX_COLD_RESIZES}`),
      ...Array.from({ length: MAX_WAITING_RESIZES - 1 }, (_, i) => fetchCold(`absent-${i}`)),
    ]
    await vi.waitFor(() =>
      expect(coldResizeLoad()).toEqual({ running: MAX_COLD_RESIZES, waiting: MAX_WAITING_RESIZES }),
    )
    // Past the queue: 503 with Retry-After at once, before reading anything.
    const busy = await fetchCold('absent-past-the-queue')
    expect(busy.status).toBe(503)
    expect(busy.headers.get('retry-after')).toBe('1')
    expect(busy.headers.get('cache-control')).toBe('no-store')
    expect(await busy.text()).toContain(`at most ${MAX_COLD_RESIZES}`)
    expect(reached).toBe(MAX_COLD_RESIZES)
    release()
    for (const res of await Promise.all(running)) {
      expect(res.status).toBe(200)
      await res.arrayBuffer()
    }
    const [waited, ...absent] = await Promise.all(queued)
    expect(waited?.status).toBe(200)
    expect(waited?.headers.get('content-type')).toBe('image/jpeg')
    expect(await dimensions(waited as Response)).toEqual([120, 180])
    expect(new Set(absent.map((r) => r.status))).toEqual(new Set([404]))
    // Every slot is free again and nobody waits.
    expect(coldResizeLoad()).toEqual({ running: 0, waiting: 0 })
  })
})
