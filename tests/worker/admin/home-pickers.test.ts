// Home sections picked from lists: a category from the category list, products ticked in a
// search's results, a hero banner's picture from the media library linking a CMS page; an unknown
// SKU is refused in words beside its field with the form kept, and nothing is written.
import { env, SELF } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { SCARF, seedCartFixtures } from '../../helpers/cart-fixtures'
import { freshJpeg, uploadPicture } from './media-helpers'
import { admin, firstSubcategory, operator, post, type Session } from './operator'

beforeEach(seedCartFixtures)

const homeText = async () =>
  (await env.DB.prepare("SELECT doc FROM content_docs WHERE kind = 'home'").first<{ doc: string }>())?.doc ??
  ''

/** Posts the home page's banner form: a picture of the media library, its title and its link. */
const addBanner = (who: Session, image: string, title: string, link: string) =>
  post(who, '/api/home/banners', '/admin/home', [
    ['image', image],
    ['title', title],
    ['link', link],
  ])

describe('home sections picked from lists', () => {
  it('lists categories, finds products to tick, and refuses an unknown SKU with the form kept', async () => {
    const staff = await operator('staff')
    const screen = await admin(staff, '/home?q=Silk%20Scarf')
    expect(screen.status).toBe(200)
    const category = await firstSubcategory()
    expect(screen.text).toContain(`<option value="${category.id}">${category.name}`)
    expect(screen.text).toMatch(new RegExp(`name="pick_\\d+" value="${SCARF.sku}"`))

    const before = await homeText()
    const refused = await post(staff, '/api/home/sections', '/admin/home?q=Silk%20Scarf', [
      ['type', 'products'],
      ['title', 'Gifts typed here'],
      ['skus', 'NO-SUCH-SKU'],
      ['pick_0', SCARF.sku],
    ])
    expect(refused.status).toBe(400)
    expect(refused.text).toContain('Invalid home section: no product has the SKU NO-SUCH-SKU')
    expect(refused.text).toContain('value="Gifts typed here"')
    expect(refused.text).toMatch(/<textarea name="skus" rows="2" aria-invalid="true">NO-SUCH-SKU<\/textarea>/)
    expect(await homeText()).toBe(before)

    const picked = await post(staff, '/api/home/sections', '/admin/home', [
      ['type', 'products'],
      ['title', 'Gifts'],
      ['pick_0', SCARF.sku],
    ])
    expect(picked.status).toBe(303)
    const sections = JSON.parse(await homeText()).sections as { title: string; skus?: string[] }[]
    expect(sections.find((s) => s.title === 'Gifts')?.skus).toEqual([SCARF.sku])
  })

  it('adds a hero banner from the media library that links a CMS page, shown on the home page', async () => {
    const staff = await operator('staff')
    expect((await uploadPicture(staff, { alt: 'Festive banner', file: freshJpeg() })).status).toBe(303)
    const path = (
      await env.DB.prepare("SELECT path FROM media WHERE alt = 'Festive banner'").first<{ path: string }>()
    )?.path as string
    const notInLibrary = await addBanner(staff, '/m/000000000000000000000000.jpg', 'Typed words', '/about-us')
    expect(notInLibrary.status).toBe(400)
    expect(notInLibrary.text).toContain('pick a picture from the media library')
    expect(notInLibrary.text).toContain('value="Typed words"')
    const offsite = await addBanner(staff, path, 'x', '//evil.example/')
    expect(offsite.status).toBe(400)
    expect(offsite.text).toContain('link must be a path of the shop')
    const added = await addBanner(staff, path, 'Our atelier', '/about-us')
    expect(added.status).toBe(303)
    const home = await SELF.fetch('https://shop.test/').then((r) => r.text())
    expect(home).toContain(path)
    expect(home).toContain('/about-us')
  })
})
