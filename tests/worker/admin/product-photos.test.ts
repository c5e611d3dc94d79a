// Product photographs are pictures of the media library: uploaded from a product's form they are
// listed in the library with the product that uses them, and cannot be deleted while it does (the
// refusal names the product); a library picture can be picked for a product with its alt text; and
// one upload check (length, type read from the first bytes, alt text, uploads an hour) answers the
// same on both upload routes.
import { env, SELF } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { SAMPLE_JPEG } from '../../helpers/images'
import { freshJpeg, uploadForm, uploadPicture, usedUploadAllowance } from './media-helpers'
import { admin, type Json, operator, post, type Session } from './operator'

let staff: Session
/** Seeded published simple products, each taken by one test. */
let products: { id: number; sku: string; name: string; url_path: string }[]

beforeAll(async () => {
  staff = await operator('owner')
  products = (
    await env.DB.prepare(
      "SELECT id, sku, name, url_path FROM products WHERE type_id = 'simple' AND status = 1 AND visibility = 4 ORDER BY id DESC LIMIT 4",
    ).all<{ id: number; sku: string; name: string; url_path: string }>()
  ).results
  expect(products.length).toBe(4)
})

const revisionOf = async (id: number) =>
  Number(
    (await env.DB.prepare('SELECT revision FROM product_revisions WHERE product_id = ?')
      .bind(id)
      .first('revision')) ?? 0,
  )
const gallery = async (id: number) =>
  JSON.parse(
    (await env.DB.prepare('SELECT doc FROM products WHERE id = ?').bind(id).first<{ doc: string }>())
      ?.doc as string,
  ).media_gallery as { image: string; lab: string }[]
const libraryItem = async (path: string) =>
  ((await admin(staff, '/api/media')).json.result as Json[]).find((m) => m.path === path)

const uploadPhoto = async (id: number, fields: { alt?: string; file?: Uint8Array }, who = staff) =>
  uploadForm(who, `/api/products/${id}/images`, `/admin/products/${id}/edit`, {
    ...fields,
    more: [['revision', String(await revisionOf(id))]],
  })

describe('product photographs in the media library', () => {
  it('an uploaded photograph is a library picture, used by its product, not deleted while it is', async () => {
    const p = products[0] as (typeof products)[0]
    const up = await uploadPhoto(p.id, { alt: 'Block-printed cuff, close up', file: freshJpeg() })
    expect(up.status, up.text.slice(0, 300)).toBe(303)
    const photo = (await gallery(p.id)).at(-1) as { image: string }
    const item = await libraryItem(photo.image)
    expect(item).toMatchObject({
      alt: 'Block-printed cuff, close up',
      content_type: 'image/jpeg',
      used: [`the product ${p.name} (${p.sku})`],
    })
    expect((await admin(staff, '/media')).text).toContain(`/img/310/300${photo.image}`)
    const refused = await post(staff, '/api/media/delete', '/admin/media', [['path', photo.image]])
    expect(refused.status).toBe(409)
    expect(refused.text).toContain(`the product ${p.name} (${p.sku})`)
    expect(await env.CATALOGUE_IMAGES.head(photo.image.slice(1))).not.toBeNull()
    expect(
      await env.DB.prepare('SELECT 1 FROM media WHERE path = ?').bind(photo.image).first(),
    ).not.toBeNull()
  })

  it('a library picture is picked for a product with its alt text, or alt text of its own', async () => {
    const [a, b] = products.slice(1, 3) as [(typeof products)[0], (typeof products)[0]]
    expect((await uploadPicture(staff, { alt: 'Indigo dabu print', file: freshJpeg() })).status).toBe(303)
    const path = (await env.DB.prepare("SELECT path FROM media WHERE alt = 'Indigo dabu print'").first(
      'path',
    )) as string
    const form = await admin(staff, `/products/${a.id}/edit`)
    expect(form.text).toContain(`action="/admin/api/products/${a.id}/images/library"`)
    expect(form.text).toContain(`value="${path}"`)
    const pick = (id: number, fields: [string, string][]) =>
      post(staff, `/api/products/${id}/images/library`, `/admin/products/${id}/edit`, fields)
    const picked = await pick(a.id, [
      ['path', path],
      ['revision', String(await revisionOf(a.id))],
    ])
    expect(picked.status, picked.text.slice(0, 300)).toBe(303)
    expect((await gallery(a.id)).at(-1)).toMatchObject({ image: path, lab: 'Indigo dabu print' })
    const own = await pick(b.id, [
      ['path', path],
      ['alt', 'Indigo dabu print on a cotton kurta'],
      ['revision', String(await revisionOf(b.id))],
    ])
    expect(own.status).toBe(303)
    expect((await gallery(b.id)).at(-1)).toMatchObject({
      image: path,
      lab: 'Indigo dabu print on a cotton kurta',
    })
    // Nothing is uploaded again: the product's page shows the library's picture.
    const html = await (await SELF.fetch(`https://shop.test/${a.url_path}`)).text()
    expect(html).toContain(path)
    expect((await libraryItem(path))?.used).toEqual(
      expect.arrayContaining([`the product ${a.name} (${a.sku})`, `the product ${b.name} (${b.sku})`]),
    )
    // A stale page, a path outside the library, a picture not in it: refused, nothing written.
    const before = await gallery(a.id)
    expect(
      (
        await pick(a.id, [
          ['path', path],
          ['revision', String((await revisionOf(a.id)) - 1)],
        ])
      ).status,
    ).toBe(409)
    expect(
      (
        await pick(a.id, [
          ['path', '/../etc/passwd'],
          ['revision', String(await revisionOf(a.id))],
        ])
      ).status,
    ).toBe(400)
    const absent = `/m/${'a'.repeat(24)}.jpg`
    expect(
      (
        await pick(a.id, [
          ['path', absent],
          ['revision', String(await revisionOf(a.id))],
        ])
      ).status,
    ).toBe(404)
    expect(await gallery(a.id)).toEqual(before)
  })

  it('the one upload check answers the same on the library and on a product', async () => {
    const p = products[3] as (typeof products)[0]
    const routes = [
      { send: (f: { alt?: string; file?: Uint8Array }) => uploadPicture(staff, f), noun: 'picture' },
      { send: (f: { alt?: string; file?: Uint8Array }) => uploadPhoto(p.id, f), noun: 'photograph' },
    ]
    const big = new Uint8Array(8 * 1024 * 1024 + 1)
    big.set(SAMPLE_JPEG.subarray(0, 3))
    const script = new TextEncoder().encode('<svg onload="alert(1)"></svg>')
    const mediaRows = async () => Number(await env.DB.prepare('SELECT COUNT(*) AS n FROM media').first('n'))
    const rows = await mediaRows()
    for (const { send, noun } of routes) {
      const oversize = await send({ alt: 'big', file: big })
      expect(oversize.status).toBe(413)
      expect(oversize.text).toContain(`the ${noun} is larger than 8 MB`)
      const wrongType = await send({ alt: 'script', file: script })
      expect(wrongType.status).toBe(415)
      expect(wrongType.text).toContain(`the file is not a JPEG, PNG or WebP ${noun}`)
      const noAlt = await send({ file: freshJpeg() })
      expect(noAlt.status).toBe(400)
      expect(noAlt.text).toContain(`describe the ${noun} for people who cannot see it`)
    }
    expect(await mediaRows()).toBe(rows)
    expect(await env.CATALOGUE_IMAGES.list({ prefix: `u/${p.id}/` })).toMatchObject({ objects: [] })
  })

  it('counts library and product uploads together, an hour at a time, on both routes', async () => {
    const p = products[3] as (typeof products)[0]
    const busy = await operator('staff')
    await usedUploadAllowance(busy.email, () => 'media.upload', 'media:x')
    const photo = await uploadPhoto(p.id, { alt: 'one more', file: freshJpeg() }, busy)
    expect(photo.status).toBe(429)
    expect(photo.text).toContain('at most 120 photographs an hour')
    expect((await uploadPicture(busy, { alt: 'one more', file: freshJpeg() })).status).toBe(429)
  })
})
