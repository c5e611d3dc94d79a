/**
 * `npm run import -- --images DIR`: uploads an imported catalogue's original images into the
 * CATALOGUE_IMAGES R2 bucket, where the image route reads them. DIR is the folder the catalogue's
 * image paths are relative to (Magento's pub/media/catalog/product): DIR/w/t/wt06-blue_main.jpg is
 * stored under the key w/t/wt06-blue_main.jpg and served as /img/{w}/{h}/resize/w/t/wt06-blue_main.jpg.
 *
 * Only files the image route can serve are uploaded: raster images whose path passes the route's
 * path rule and that are at most MAX_IMAGE_SOURCE_BYTES; every other file is listed as skipped with
 * the reason. An upload of the same file again overwrites the same key (running it twice changes
 * nothing). Locally the objects go into wrangler's local state (the one `npm start` serves); for a
 * deployed shop through `wrangler r2 object put --remote`, a few at a time.
 */
import { spawn } from 'node:child_process'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { imagePathProblem, isRasterPath, MAX_IMAGE_SOURCE_BYTES } from '../../../shared/domain/image-url'

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  avif: 'image/avif',
}

interface ImageFile {
  /** The R2 key: the path under DIR with '/' separators, no leading slash. */
  key: string
  file: string
  bytes: number
  contentType: string
}

/** The images under `dir` to upload, and the files left out with the reason. */
export function listImages(dir: string): {
  images: ImageFile[]
  skipped: { file: string; reason: string }[]
} {
  const images: ImageFile[] = []
  const skipped: { file: string; reason: string }[] = []
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const file = path.join(folder, entry.name)
      if (entry.isDirectory()) {
        walk(file)
        continue
      }
      if (!entry.isFile()) continue
      const key = path.relative(dir, file).split(path.sep).join('/')
      if (!isRasterPath(key)) continue
      const problem = imagePathProblem(`/${key}`)
      if (problem) {
        skipped.push({ file, reason: problem })
        continue
      }
      const bytes = statSync(file).size
      if (bytes > MAX_IMAGE_SOURCE_BYTES) {
        skipped.push({ file, reason: `larger than ${MAX_IMAGE_SOURCE_BYTES / 1048576} MiB` })
        continue
      }
      const ext = key.slice(key.lastIndexOf('.') + 1).toLowerCase()
      images.push({ key, file, bytes, contentType: CONTENT_TYPES[ext] ?? 'application/octet-stream' })
    }
  }
  walk(dir)
  images.sort((a, b) => (a.key < b.key ? -1 : 1))
  return { images, skipped }
}

/** The bucket name of CATALOGUE_IMAGES in wrangler.toml's [env.NAME] (a deployed shop). */
export function bucketOf(wranglerToml: string, envName: string): string | null {
  const header = `[[env.${envName}.r2_buckets]]`
  for (const block of wranglerToml.split(header).slice(1)) {
    const body = block.split(/\n\[/)[0] ?? ''
    if (/binding\s*=\s*"CATALOGUE_IMAGES"/.test(body))
      return /bucket_name\s*=\s*"([^"]+)"/.exec(body)?.[1] ?? null
  }
  return null
}

interface Target {
  root: string
  /** A deployed environment of wrangler.toml; absent = local state. */
  env?: string
  /** Local state directory (wrangler's --persist-to); default .wrangler/state. */
  persist?: string
}

/** Uploads the images; `onProgress(done, total)` after each one. Resolves with the count uploaded. */
export async function uploadImages(
  images: ImageFile[],
  target: Target,
  onProgress: (done: number, total: number) => void = () => {},
): Promise<number> {
  if (target.env) return uploadRemote(images, target as Target & { env: string }, onProgress)
  // Named at run time so the bundler leaves wrangler to Node (it is not bundled into the script).
  const wranglerModule = 'wrangler'
  const { getPlatformProxy } = (await import(wranglerModule)) as typeof import('wrangler')
  const state = path.resolve(target.root, target.persist ?? '.wrangler/state', 'v3')
  const proxy = await getPlatformProxy<{ CATALOGUE_IMAGES: R2Bucket }>({
    configPath: path.join(target.root, 'wrangler.toml'),
    persist: { path: state },
    remoteBindings: false,
  })
  try {
    let done = 0
    for (const image of images) {
      await proxy.env.CATALOGUE_IMAGES.put(image.key, readFileSync(image.file), {
        httpMetadata: { contentType: image.contentType },
      })
      onProgress(++done, images.length)
    }
    return done
  } finally {
    await proxy.dispose()
  }
}

/** How many `wrangler r2 object put` run at once for a deployed shop. */
const REMOTE_PARALLEL = 4

async function uploadRemote(
  images: ImageFile[],
  target: Target & { env: string },
  onProgress: (done: number, total: number) => void,
): Promise<number> {
  const bucket = bucketOf(readFileSync(path.join(target.root, 'wrangler.toml'), 'utf8'), target.env)
  if (!bucket) throw new Error(`wrangler.toml has no CATALOGUE_IMAGES bucket in [env.${target.env}]`)
  const wrangler = path.join(target.root, 'node_modules/.bin/wrangler')
  let next = 0
  let done = 0
  const put = (image: ImageFile) =>
    new Promise<void>((resolve, reject) => {
      const args = ['r2', 'object', 'put', `${bucket}/${image.key}`, '--file', image.file]
      args.push('--content-type', image.contentType, '--remote', '--env', target.env)
      const child = spawn(wrangler, args, { cwd: target.root, stdio: ['ignore', 'ignore', 'pipe'] })
      let err = ''
      child.stderr.on('data', (d) => {
        err += d
      })
      child.on('close', (code) =>
        code === 0 ? resolve() : reject(new Error(`${image.key}: ${err.trim().split('\n').at(-1)}`)),
      )
    })
  const worker = async () => {
    while (next < images.length) {
      const image = images[next++] as ImageFile
      await put(image)
      onProgress(++done, images.length)
    }
  }
  await Promise.all(Array.from({ length: Math.min(REMOTE_PARALLEL, images.length) }, worker))
  return done
}
