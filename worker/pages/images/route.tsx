/**
 * Catalogue images. Endpoints:
 *   GET /img/:width/:height/<path>            e.g. /img/600/744/p/kurta-red.svg
 *   GET /img/:width/:height/:action/<path>    VSF form (action resize|crop|fit)
 * Only the catalogue image sizes (shared/config/images) are served (400 otherwise). Every spelling of
 * one image at one size is read as its canonical form before anything is looked up: the size as
 * plain decimals (`0600` is `600`) and no action as `resize`, so `/img/0600/744/resize/x.jpg` and
 * `/img/600/744/x.jpg` share one cache entry, one origin read and one resize. The demo's
 * drawings are generated here (image/svg+xml); a raster path (.jpg, .png, .webp, .gif, .avif) is an
 * imported catalogue's image, read from the operator's origin and resized (originals.ts). Unknown
 * images are 404. Both answer with a long immutable cache lifetime.
 */
import { IMAGE_SIZES } from '@shared/config/images'
import { isRasterPath } from '@shared/domain/image-url'
import type { RouteHandler, RouteHandlers } from '../../platform/router'
import { serveOriginal } from './originals'
import { renderImage } from './svg'

const ALLOWED_SIZES = new Set(Object.values(IMAGE_SIZES).map((s) => `${s.width}x${s.height}`))

const imagePage: RouteHandler<'image'> = (c) => {
  const { width, height } = c.req.param()
  const text = (status: 400 | 404, message: string) =>
    c.text(message, status, { 'cache-control': 'public, max-age=300' })
  if (
    !/^\d{1,4}$/.test(width) ||
    !/^\d{1,4}$/.test(height) ||
    !ALLOWED_SIZES.has(`${Number(width)}x${Number(height)}`)
  ) {
    return text(400, `Image size ${width}x${height} is not one of the catalogue image sizes`)
  }
  const prefix = `/img/${width}/${height}`
  let path = c.req.path.slice(prefix.length)
  const action = /^\/(resize|crop|fit)(?=\/)/.exec(path)?.[1] ?? 'resize'
  path = path.replace(/^\/(resize|crop|fit)(?=\/)/, '')
  const svg = renderImage(path, Number(width), Number(height))
  if (!svg) {
    if (isRasterPath(path)) return serveOriginal(c, path, action, Number(width), Number(height))
    return text(404, 'Image not found')
  }
  return c.body(svg, 200, {
    'content-type': 'image/svg+xml; charset=utf-8',
    'cache-control': 'public, max-age=31536000, immutable',
    'x-content-type-options': 'nosniff',
  })
}

export const imageResources = { image: imagePage } satisfies RouteHandlers
