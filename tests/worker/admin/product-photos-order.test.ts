// A product's photographs are put in order, made the main picture, removed and re-described from
// its edit page: each change is stored with the one catalogue writer behind the page's revision
// (a stale page is refused and changes nothing), the gallery and the main image move together,
// and the product's page and its category tile show the change on the next request (each page is
// read once before, so a cached copy must be purged). Removing keeps the library's picture.
import { env, SELF } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Product } from '../../../shared/schemas/catalog'
import { freshJpeg, uploadPicture } from './media-helpers'
import { admin, operator, post, type Session } from './operator'

let staff: Session
let viewer: Session
/** Seeded simple products listed on the first page of one of their categories, each used by one test. */
const listed: { id: number; sku: string; url_path: string; category: string }[] = []

const docOf = async (id: number) =>
  JSON.parse(
    (await env.DB.prepare('SELECT doc FROM products WHERE id = ?').bind(id).first<{ doc: string }>())
      ?.doc as string,
  ) as Product
const revisionOf = async (id: number) =>
  Number(
    (await env.DB.prepare('SELECT revision FROM product_revisions WHERE product_id = ?')
      .bind(id)
      .first('revision')) ?? 0,
  )
const shop = async (path: string) => {
  const res = await SELF.fetch(`https://shop.test${path}`)
  expect(res.status, path).toBe(200)
  return res.text()
}
/** The first image of the tile of `sku` on a listing page (null: not listed). */
const tileImageOf = (html: string, sku: string) => {
  const at = html.indexOf(`data-sku="${sku}"`)
  if (at < 0) return null
  const start = html.lastIndexOf('<li', at)
  return /<img[^>]+src="([^"]+)"/.exec(html.slice(start, html.indexOf('</li>', at)))?.[1] ?? null
}
/** Where each of `paths` first appears in the product page's gallery (-1: absent). */
const placesOn = (html: string, paths: string[]) => paths.map((p) => html.indexOf(p))

/** A library picture (uploaded once), picked for product `id`; answers its path. */
async function addLibraryPhoto(id: number, alt: string) {
  expect((await uploadPicture(staff, { alt, file: freshJpeg() })).status).toBe(303)
  const path = (await env.DB.prepare('SELECT path FROM media WHERE alt = ?')
    .bind(alt)
    .first('path')) as string
  const picked = await post(staff, `/api/products/${id}/images/library`, `/admin/products/${id}/edit`, [
    ['path', path],
    ['revision', String(await revisionOf(id))],
  ])
  expect(picked.status, picked.text.slice(0, 300)).toBe(303)
  return path
}

const change = async (
  op: 'move' | 'remove' | 'alt',
  id: number,
  fields: [string, string][],
  revision?: number,
) =>
  post(staff, `/api/products/${id}/images/${op}`, `/admin/products/${id}/edit`, [
    // The form's key, as the page's row sends it: a refusal comes back to that form.
    ['_form', `${op}:${fields.find(([k]) => k === 'image')?.[1] ?? ''}`],
    ...fields,
    ['revision', String(revision ?? (await revisionOf(id)))],
  ])

beforeAll(async () => {
  staff = await operator('staff')
  viewer = await operator('viewer')
  const { results } = await env.DB.prepare(
    "SELECT id, sku, url_path, doc FROM products WHERE type_id = 'simple' AND status = 1 AND visibility = 4 ORDER BY id LIMIT 40",
  ).all<{ id: number; sku: string; url_path: string; doc: string }>()
  for (const row of results) {
    const first = (JSON.parse(row.doc) as Product).category_ids[0]
    const slug = (await env.DB.prepare('SELECT slug FROM categories WHERE id = ?')
      .bind(first)
      .first('slug')) as string | null
    if (slug && tileImageOf(await shop(`/c/${slug}`), row.sku))
      listed.push({ id: row.id, sku: row.sku, url_path: row.url_path, category: `/c/${slug}` })
    if (listed.length === 4) break
  }
  expect(listed.length).toBe(4)
})

describe("a product's photographs, edited", () => {
  it('are moved and made the main picture: the page and the category tile follow, caches purged', async () => {
    const p = listed[0] as (typeof listed)[0]
    const seeded = (await docOf(p.id)).media_gallery.map((m) => m.image)
    const main = seeded[0] as string
    const a = await addLibraryPhoto(p.id, `Chanderi yoke ${p.id}`)
    const b = await addLibraryPhoto(p.id, `Gota border ${p.id}`)
    // Read once, so the cached copies must be purged for the change to show.
    expect(tileImageOf(await shop(p.category), p.sku)).toContain(main)
    await shop(`/${p.url_path}`)
    const version = await env.DB.prepare("SELECT value FROM search_meta WHERE key = 'version'").first('value')

    const moved = await change('move', p.id, [
      ['image', b],
      ['position', '1'],
    ])
    expect(moved.status, moved.text.slice(0, 300)).toBe(303)
    let doc = await docOf(p.id)
    expect(doc.media_gallery.map((m) => [m.image, m.pos])).toEqual(
      [b, ...seeded, a].map((image, i) => [image, i + 1]),
    )
    expect([doc.image, doc.thumbnail, doc.small_image]).toEqual([b, b, b])
    expect(
      await env.DB.prepare("SELECT value FROM search_meta WHERE key = 'version'").first('value'),
    ).not.toBe(version)
    expect(tileImageOf(await shop(p.category), p.sku)).toContain(b)
    const [pb, ps, pa] = placesOn(await shop(`/${p.url_path}`), [b, main, a])
    expect(pb).toBeGreaterThan(-1)
    expect(pb).toBeLessThan(ps as number)
    expect(ps).toBeLessThan(pa as number)

    // Set a position in the middle: the last photograph goes second.
    expect(
      (
        await change('move', p.id, [
          ['image', a],
          ['position', '2'],
        ])
      ).status,
    ).toBe(303)
    doc = await docOf(p.id)
    expect(doc.media_gallery.map((m) => m.image)).toEqual([b, a, ...seeded])
    expect(doc.image).toBe(b)
  })

  it('is removed from the product, gone from its page and gallery; the library keeps it', async () => {
    const p = listed[1] as (typeof listed)[0]
    const seeded = (await docOf(p.id)).media_gallery.map((m) => m.image)
    const a = await addLibraryPhoto(p.id, `Mirror work ${p.id}`)
    expect((await shop(`/${p.url_path}`)).includes(a)).toBe(true)
    expect((await change('remove', p.id, [['image', a]])).status).toBe(303)
    expect((await docOf(p.id)).media_gallery.map((m) => m.image)).not.toContain(a)
    expect(await shop(`/${p.url_path}`)).not.toContain(a)
    expect(await env.DB.prepare('SELECT 1 FROM media WHERE path = ?').bind(a).first()).not.toBeNull()
    expect(await env.CATALOGUE_IMAGES.head(a.slice(1))).not.toBeNull()
    // The main picture removed: the next one is the main picture, on the page and the tile.
    expect(tileImageOf(await shop(p.category), p.sku)).toContain(seeded[0])
    expect((await change('remove', p.id, [['image', seeded[0] as string]])).status).toBe(303)
    const doc = await docOf(p.id)
    expect(doc.media_gallery.map((m) => [m.image, m.pos])).toEqual(seeded.slice(1).map((m, i) => [m, i + 1]))
    expect(doc.image).toBe(seeded[1])
    expect(tileImageOf(await shop(p.category), p.sku)).toContain(seeded[1])
    expect(await shop(`/${p.url_path}`)).not.toContain(`${seeded[0]}"`)
  })

  it('has its alt text changed, escaped on the page; empty or too long is refused beside the field', async () => {
    const p = listed[2] as (typeof listed)[0]
    const a = await addLibraryPhoto(p.id, `Plain alt ${p.id}`)
    const alt = '<b>Zari & "gota"</b> border'
    expect(await shop(`/${p.url_path}`)).toContain(`alt="Plain alt ${p.id}"`)
    expect(
      (
        await change('alt', p.id, [
          ['image', a],
          ['alt', alt],
        ])
      ).status,
    ).toBe(303)
    expect((await docOf(p.id)).media_gallery.find((m) => m.image === a)?.lab).toBe(alt)
    const html = await shop(`/${p.url_path}`)
    expect(html).toContain('alt="&lt;b&gt;Zari &amp; &quot;gota&quot;&lt;/b&gt; border"')
    expect(html).not.toContain('<b>Zari')
    // The library's own alt text is the library's: this product's is its own.
    expect(await env.DB.prepare('SELECT alt FROM media WHERE path = ?').bind(a).first('alt')).toBe(
      `Plain alt ${p.id}`,
    )
    const before = await docOf(p.id)
    const empty = await change('alt', p.id, [
      ['image', a],
      ['alt', '  '],
    ])
    expect(empty.status).toBe(400)
    expect(empty.text).toContain('describe the photograph for people who cannot see it')
    const long = await change('alt', p.id, [
      ['image', a],
      ['alt', 'x'.repeat(201)],
    ])
    expect(long.status).toBe(400)
    expect(long.text).toContain('the alt text is too long (at most 200 characters)')
    // The page comes back with the value typed and the reason beside the field.
    expect(long.text).toContain(
      `aria-invalid="true" name="alt" value="${'x'.repeat(201)}"/><strong role="alert">the alt text is too long`,
    )
    expect(await docOf(p.id)).toEqual(before)
  })

  it('refuses a stale page, another product’s photograph and a junk position, in words, changing nothing', async () => {
    const p = listed[3] as (typeof listed)[0]
    const other = listed[0] as (typeof listed)[0]
    const a = await addLibraryPhoto(p.id, `Kalamkari panel ${p.id}`)
    const opened = await revisionOf(p.id)
    // Two pages opened at the same revision: the first change wins, the second is refused.
    expect(
      (
        await change(
          'move',
          p.id,
          [
            ['image', a],
            ['position', '1'],
          ],
          opened,
        )
      ).status,
    ).toBe(303)
    const before = { doc: await docOf(p.id), revision: await revisionOf(p.id) }
    for (const [op, fields] of [
      ['remove', [['image', a]]],
      [
        'alt',
        [
          ['image', a],
          ['alt', 'lost update'],
        ],
      ],
      [
        'move',
        [
          ['image', a],
          ['position', '2'],
        ],
      ],
    ] as const) {
      const stale = await change(op, p.id, fields as unknown as [string, string][], opened)
      expect(stale.status, op).toBe(409)
      expect(stale.text).toContain('this product was saved by someone else after you opened it')
    }
    const foreign = (await docOf(other.id)).image as string
    const notOurs = await change('remove', p.id, [['image', foreign]])
    expect(notOurs.status).toBe(400)
    expect(notOurs.text).toContain('that is not one of this product’s photographs')
    const count = before.doc.media_gallery.length
    for (const [position, why] of [
      ['0', `give a position from 1 to ${count}`],
      [String(count + 1), `give a position from 1 to ${count}`],
      ['-1', 'give the position as a number like 1 or 2'],
      ['1.5', 'give the position as a number like 1 or 2'],
      ['abc', 'give the position as a number like 1 or 2'],
      ['', 'give the position as a number like 1 or 2'],
    ] as const) {
      const junk = await change('move', p.id, [
        ['image', a],
        ['position', position],
      ])
      expect(junk.status, position).toBe(400)
      // The reason beside the position field of that photograph's row, with what was typed.
      expect(junk.text, position).toMatch(
        new RegExp(`aria-invalid="true" name="position" value="${position}"/><strong role="alert">${why}<`),
      )
    }
    expect(await docOf(p.id)).toEqual(before.doc)
    expect(await revisionOf(p.id)).toBe(before.revision)
  })

  it('shows its forms to the catalogue, with a confirmation before removing; a viewer sees only the photographs', async () => {
    const p = listed[0] as (typeof listed)[0]
    const page = (await admin(staff, `/products/${p.id}/edit`)).text
    expect(page).toContain(`action="/admin/api/products/${p.id}/images/move"`)
    expect(page).toContain(`action="/admin/api/products/${p.id}/images/alt"`)
    expect(page).toMatch(/<details><summary aria-label="Remove photograph 1">Remove…<\/summary>/)
    // The main picture has no ↑ and no "Make main picture"; the others have both.
    expect(page).not.toContain('aria-label="Move photograph 1 up"')
    expect(page).not.toContain('aria-label="Make photograph 1 the main picture"')
    expect(page).toContain('aria-label="Make photograph 2 the main picture"')
    // The ↓ of the second photograph, sent as the page's form: it becomes the third.
    const order = (await docOf(p.id)).media_gallery.map((m) => m.image)
    const button = page.indexOf('aria-label="Move photograph 2 down"')
    const form = page.slice(page.lastIndexOf('<form', button), button)
    const fields = [...form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)]
      .map(([, k, v]) => [k, v] as [string, string])
      .filter(([k]) => k !== '_csrf' && k !== 'return_to')
    expect(Object.fromEntries(fields)).toMatchObject({ image: order[1], position: '3' })
    const down = await post(
      staff,
      `/api/products/${p.id}/images/move`,
      `/admin/products/${p.id}/edit`,
      fields,
    )
    expect(down.status).toBe(303)
    expect((await docOf(p.id)).media_gallery.map((m) => m.image)).toEqual([
      order[0],
      order[2],
      order[1],
      ...order.slice(3),
    ])
    const seen = (await admin(viewer, `/products/${p.id}/edit`)).text
    expect(seen).toContain('Photographs')
    expect(seen).toContain(`/img/310/300${(await docOf(p.id)).image}`)
    expect(seen).not.toMatch(/action="\/admin\/api\/products\/\d+\/images/)
    const refused = await change('alt', p.id, [])
    expect(refused.status).toBe(400)
    const asViewer = await post(
      viewer,
      `/api/products/${p.id}/images/remove`,
      `/admin/products/${p.id}/edit`,
      [
        ['image', (await docOf(p.id)).image as string],
        ['revision', String(await revisionOf(p.id))],
      ],
    )
    expect(asViewer.status).toBe(403)
  })
})
