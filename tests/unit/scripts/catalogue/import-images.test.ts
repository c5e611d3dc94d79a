import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { bucketOf, listImages } from '../../../../scripts/catalogue/import/images'
import { imagePathProblem } from '../../../../shared/domain/image-url'

describe('npm run import -- --images DIR: which files are uploaded', () => {
  it('keys are paths under DIR; only servable raster files are uploaded, the rest reported', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'media-'))
    const put = (rel: string, bytes: number | string = 10) => {
      mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true })
      writeFileSync(path.join(dir, rel), typeof bytes === 'string' ? bytes : Buffer.alloc(bytes))
    }
    put('w/t/wt06-blue_main.jpg')
    put('m/b/MB01.PNG')
    put('cache/a/b/x.webp')
    put('readme.txt', 'not an image')
    put('w/t/with space.jpg')
    put('w/t/ünicode.jpg')
    put(`${'d/'.repeat(130)}deep.jpg`)
    const { images, skipped } = listImages(dir)
    expect(images.map((i) => [i.key, i.contentType])).toEqual([
      ['cache/a/b/x.webp', 'image/webp'],
      ['m/b/MB01.PNG', 'image/png'],
      ['w/t/wt06-blue_main.jpg', 'image/jpeg'],
    ])
    expect(skipped.map((s) => path.basename(s.file)).sort()).toEqual([
      'deep.jpg',
      'with space.jpg',
      'ünicode.jpg',
    ])
    // Every uploaded key is a path the image route looks up.
    for (const i of images) expect(imagePathProblem(`/${i.key}`)).toBeNull()
  })

  it('finds the bucket of a deployed environment in wrangler.toml', () => {
    const toml = readFileSync(path.join(import.meta.dirname, '../../../../wrangler.toml'), 'utf8')
    expect(bucketOf(toml, 'production')).toBeTruthy()
    expect(bucketOf(toml, 'staging')).toBeTruthy()
    expect(bucketOf(toml, 'staging')).not.toBe(bucketOf(toml, 'production'))
    expect(bucketOf(toml, 'nowhere')).toBeNull()
  })
})

describe('imagePathProblem', () => {
  it.each([
    ['/w/t/wt06-blue_main.jpg', null],
    ['/a.avif', null],
    ['/w/../x.jpg', 'segments'],
    ['/w/./x.jpg', 'segments'],
    ['/w//x.jpg', 'segments'],
    ['w/x.jpg', 'segments'],
    ['/w/x%2e.jpg', 'segments'],
    ['/w/x.svg', 'must end in'],
    [`/${'a'.repeat(300)}.jpg`, 'longer than 256'],
  ])('%s', (p, problem) => {
    const got = imagePathProblem(p)
    if (problem === null) expect(got).toBeNull()
    else expect(got).toContain(problem)
  })
})
