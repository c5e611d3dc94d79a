import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { generateCatalogue } from '../../../scripts/catalogue/seed/generate'
import { IMAGE_SIZES } from '../../../shared/config/images'
import { imageUrl } from '../../../shared/domain/image-url'

const get = (path: string) => SELF.fetch(`https://shop.test${path}`)

describe('generated images', () => {
  it('serves every spec size as an immutable SVG', async () => {
    for (const { width, height } of Object.values(IMAGE_SIZES)) {
      const res = await get(imageUrl('/p/kurta-red.svg', width, height))
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toContain('image/svg+xml')
      expect(res.headers.get('cache-control')).toContain('immutable')
      const svg = await res.text()
      expect(svg).toContain(`width="${width}" height="${height}"`)
      expect(svg).toContain('#c62828')
      expect(svg.length).toBeLessThan(8 * 1024)
    }
  })

  it('draws the garment in the colour named by the path, different per garment type', async () => {
    const saree = await (await get('/img/600/744/p/saree-teal.svg')).text()
    const tee = await (await get('/img/600/744/p/tee-teal.svg')).text()
    expect(saree).toContain('#00897b')
    expect(saree).not.toBe(tee)
    const back = await (await get('/img/600/744/p/saree-teal-b.svg')).text()
    expect(back).not.toBe(saree)
  })

  it('serves every view of a garment in its textile, and store maps', async () => {
    const views = await Promise.all(
      ['', '-b', '-d', '-f'].map(async (v) => {
        const res = await get(`/img/310/300/p/saree-maroon-zari${v}.svg`)
        expect(res.status, v).toBe(200)
        return res.text()
      }),
    )
    expect(new Set(views).size).toBe(4)
    for (const svg of views) expect(svg).toContain('#800000')
    const map = await get('/img/400/600/b/map-mumbai-colaba.svg')
    expect(map.status).toBe(200)
    expect(await map.text()).toContain('COLABA')
    expect((await get('/img/310/300/p/saree-maroon-zari-q.svg')).status).toBe(404)
  })

  it('accepts the VSF /resize form, banners and the placeholder', async () => {
    expect((await get('/img/310/300/resize/p/shirt-navy.svg')).status).toBe(200)
    const banner = await get('/img/800/1212/b/cat-sarees.svg')
    expect(banner.status).toBe(200)
    expect(await banner.text()).toContain('SAREES')
    expect(imageUrl('/m/no_selection', 150, 150)).toBe('/img/150/150/placeholder.svg')
    expect(imageUrl(null, 150, 150)).toBe('/img/150/150/placeholder.svg')
    expect((await get('/img/150/150/placeholder.svg')).status).toBe(200)
  })

  it('answers 400 for sizes not in the spec list and 404 for unknown images', async () => {
    expect((await get('/img/601/744/p/kurta-red.svg')).status).toBe(400)
    expect((await get('/img/abc/744/p/kurta-red.svg')).status).toBe(400)
    expect((await get('/img/600/744/p/kurta-plaid.svg')).status).toBe(404)
    expect((await get('/img/600/744/p/robot-red.svg')).status).toBe(404)
    expect((await get('/img/600/744/b/evil-x.svg')).status).toBe(404)
    expect((await get('/img/600/744/../../etc/passwd')).status).toBeGreaterThanOrEqual(400)
  })

  it('has an image for every image path the demo catalogue references', async () => {
    const cat = generateCatalogue()
    const paths = new Set<string>()
    for (const p of cat.products) {
      for (const v of [p.image, p.hover_image, p.product_banner, p.celeb_image]) if (v) paths.add(v)
      for (const m of p.media_gallery) paths.add(m.image)
      for (const ch of p.configurable_children) if (ch.image) paths.add(ch.image)
    }
    for (const c of cat.categories) {
      for (const v of [c.category_banner, c.custom_image, c.mobile_image, c.desktop_image])
        if (v) paths.add(v)
    }
    const home = JSON.stringify(cat.content)
    for (const m of home.matchAll(/"(\/b\/[a-z0-9-]+\.svg)"/g)) paths.add(m[1] as string)
    for (const s of cat.stores) if (typeof s.image === 'string') paths.add(s.image)
    for (const page of cat.cmsPages)
      for (const m of page.content.matchAll(/src="\/img\/\d+\/\d+(\/[bp]\/[a-z0-9-]+\.svg)"/g))
        paths.add(m[1] as string)
    for (const path of paths) {
      const res = await get(imageUrl(path, 310, 300))
      expect(res.status, path).toBe(200)
    }
  })
})
