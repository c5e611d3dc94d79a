// The media library on R2: a picture is checked before its body is read (its length) and by its
// first bytes, has alt text, is bounded per operator per hour (shared with product photographs),
// and is deleted only while nothing uses it, the refusal saying where it is used.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { freshJpeg, uploadPicture, usedUploadAllowance } from './media-helpers'
import { admin, operator, post } from './operator'

/** The library's picture with this alt text (alt texts are unique in these tests). */
const byAlt = async (alt: string) =>
  (await env.DB.prepare('SELECT path, alt, content_type FROM media WHERE alt = ?').bind(alt).first<{
    path: string
    alt: string
    content_type: string
  }>()) ?? undefined

const inBucket = async (path: string) => (await env.CATALOGUE_IMAGES.head(path.slice(1))) !== null

describe('the media library', () => {
  it('uploads into the bucket with alt text, changes the alt text, refuses what is not a picture', async () => {
    const staff = await operator('staff')
    const up = await uploadPicture(staff, { alt: 'Zari border, close up', file: freshJpeg() })
    expect(up.status, up.text.slice(0, 200)).toBe(303)
    const item = (await byAlt('Zari border, close up')) as { path: string }
    expect((await admin(staff, '/api/media')).json.result).toContainEqual(expect.objectContaining(item))
    expect(item).toMatchObject({ alt: 'Zari border, close up', content_type: 'image/jpeg' })
    expect(item.path).toMatch(/^\/m\/[0-9a-f]{24}\.jpg$/)
    expect(await inBucket(item.path)).toBe(true)
    const screen = await admin(staff, '/media')
    expect(screen.text).toContain(`/img/310/300${item.path}`)

    const alt = await post(staff, '/api/media/alt', '/admin/media', [
      ['path', item.path],
      ['alt', 'Zari border'],
    ])
    expect(alt.status).toBe(303)
    expect((await byAlt('Zari border'))?.path).toBe(item.path)

    const text = new TextEncoder().encode('<svg onload="alert(1)"></svg>')
    const notPicture = await uploadPicture(staff, { alt: 'x', file: text })
    expect(notPicture.status).toBe(415)
    expect(notPicture.text).toContain('the file is not a JPEG, PNG or WebP picture')
    const noAlt = await uploadPicture(staff, { file: freshJpeg() })
    expect(noAlt.status).toBe(400)
    expect(noAlt.text).toContain('describe the picture for people who cannot see it')
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM media WHERE alt = 'x'").first('n')).toBe(0)
    const viewer = await operator('viewer')
    expect((await uploadPicture(viewer, { alt: 'x', file: freshJpeg() })).status).toBe(403)
  })

  it('refuses a body without a declared length before reading it, and bounds uploads per hour', async () => {
    const staff = await operator('staff')
    const noLength = await admin(staff, '/api/media', {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=x', 'transfer-encoding': 'chunked' },
    })
    expect([400, 411]).toContain(noLength.status)
    // 120 uploads this hour (library and product photographs together): the next is refused.
    await usedUploadAllowance(staff.email, (i) => (i % 2 ? 'media.upload' : 'product.image'), 'media:x')
    const busy = await uploadPicture(staff, { alt: 'one more', file: freshJpeg() })
    expect(busy.status).toBe(429)
    expect(busy.text).toContain('at most 120 pictures an hour')
    expect(await byAlt('one more')).toBeUndefined()
  })

  it('is not deleted while a page or the home page uses it, and says where', async () => {
    const staff = await operator('staff')
    expect((await uploadPicture(staff, { alt: 'Loom', file: freshJpeg() })).status).toBe(303)
    const path = (await byAlt('Loom'))?.path as string
    const identifier = `loom-${Date.now()}`
    const page = await admin(staff, '/api/content/page', {
      body: { identifier, title: 'Loom', blocks: [{ type: 'image', src: path }], is_active: true },
    })
    expect(page.status, page.text).toBe(200)
    const banner = await post(staff, '/api/home/banners', '/admin/home', [
      ['image', path],
      ['title', 'The loom'],
      ['link', `/${identifier}`],
    ])
    expect(banner.status, banner.text.slice(0, 300)).toBe(303)
    const refused = await post(staff, '/api/media/delete', '/admin/media', [
      ['path', path],
      ['_form', path],
    ])
    expect(refused.status).toBe(409)
    expect(refused.text).toContain(
      `This picture cannot be deleted while it is used: the page ${identifier}, the home page. Remove it there first.`,
    )
    expect(await inBucket(path)).toBe(true)

    const bannerId =
      (await admin(staff, '/api/home/sections')).json &&
      (
        JSON.parse(
          (await env.DB.prepare("SELECT doc FROM content_docs WHERE kind = 'home'").first<{ doc: string }>())
            ?.doc ?? '{}',
        ).banners.main as { id: number; image: string }[]
      ).find((b) => b.image === path)?.id
    expect((await post(staff, `/api/home/banners/${bannerId}/delete`, '/admin/home', [])).status).toBe(303)
    expect((await admin(staff, `/api/content/page/${page.json.result.id}/delete`, { body: {} })).status).toBe(
      200,
    )
    const gone = await post(staff, '/api/media/delete', '/admin/media', [['path', path]])
    expect(gone.status).toBe(303)
    expect(await inBucket(path)).toBe(false)
    expect(await byAlt('Loom')).toBeUndefined()
  })
})
