import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import type { Product } from '../../../shared/schemas/catalog'
import { decodeEntities, titleOf } from '../../helpers/html'
import { islandProps as readIslandProps } from '../../helpers/islands'

interface Row {
  sku: string
  slug: string
  doc: string
}

/** A visible, enabled product of the given type from the seeded catalogue (with its document). */
async function pick(where: string, ...binds: unknown[]): Promise<Product> {
  const row = await env.DB.prepare(`SELECT sku, slug, doc FROM products WHERE ${where} ORDER BY id LIMIT 1`)
    .bind(...binds)
    .first<Row>()
  if (!row) throw new Error(`no product for ${where}`)
  return JSON.parse(row.doc) as Product
}

const visible = 'status = 1 AND visibility = 4'

async function page(path: string) {
  const res = await SELF.fetch(`https://shop.test${path}`, { redirect: 'manual' })
  return { res, html: await res.text() }
}

function islandProps(html: string, name: string): Record<string, unknown> {
  const props = readIslandProps(html, name)
  if (!props) throw new Error(`island ${name} not found`)
  return props
}

describe('product page renders every product type', () => {
  for (const type of ['configurable', 'simple', 'virtual', 'downloadable', 'bundle', 'grouped']) {
    it(`renders a ${type} product with its name, price, gallery and form`, async () => {
      const product = await pick(`${visible} AND type_id = ?`, type)
      const { res, html } = await page(`/p/${encodeURIComponent(product.sku)}/${product.slug}`)
      expect(res.status).toBe(200)
      expect(html).toContain(`data-type="${type}"`)
      expect(html).toContain('data-testid="product-name"')
      expect(decodeEntities(html)).toContain(product.name)
      expect(titleOf(html)).toBe(product.meta_title || product.name)
      expect(html).toMatch(/data-testid="price-final">[₹$£][\d,.]+</)
      expect(html).toContain('data-island="product-gallery"')
      expect(html).toContain('data-island="product-form"')
      expect(html).toContain('data-island="recently-viewed"')
      expect(html).toContain('id="product-reviews-form"')
      // The main image is eager, high priority, with explicit dimensions.
      expect(html).toMatch(/<img[^>]*fetchPriority="high"|<img[^>]*fetchpriority="high"/)
      expect(html).toMatch(/data-testid="gallery-main"/)
      expect(html).toMatch(/width="600" height="744"/)
      if (type === 'configurable') expect(html).toContain('data-testid="picker-color"')
      if (type === 'bundle') expect(html).toContain('data-testid="bundle-options"')
      if (type === 'grouped') expect(html).toContain('data-testid="grouped-links"')
    })
  }

  it('preselects the default bundle link (else the first) with its quantity', async () => {
    const product = await pick(`${visible} AND type_id = 'bundle'`)
    const { html } = await page(`/p/${encodeURIComponent(product.sku)}/${product.slug}`)
    for (const option of product.bundle_options) {
      const link = option.product_links.find((l) => l.is_default) ?? option.product_links[0]
      if (!link) continue
      const radio = html.match(
        new RegExp(`<input type="radio" name="bundle-${option.option_id}"[^>]*value="${link.id}"[^>]*>`),
      )
      expect(radio?.[0]).toContain('checked')
      const qty = html.match(new RegExp(`<input[^>]*data-testid="bundle-qty-${option.option_id}"[^>]*>`))
      expect(qty?.[0]).toContain(`value="${link.qty ?? 1}"`)
    }
  })

  it('renders custom options with their types and the grouped quantity (0 leaves a piece out)', async () => {
    const withOptions = await pick(`${visible} AND json_array_length(doc, '$.custom_options') > 0`)
    const { html } = await page(`/p/${encodeURIComponent(withOptions.sku)}/${withOptions.slug}`)
    expect(html).toContain('data-testid="custom-options"')
    for (const o of withOptions.custom_options) expect(decodeEntities(html)).toContain(o.title)
    const grouped = await pick(`${visible} AND type_id = 'grouped'`)
    const g = await page(`/p/${encodeURIComponent(grouped.sku)}/${grouped.slug}`)
    expect(g.html).toMatch(/data-testid="grouped-links"[\s\S]*type="number" min="0"/)
  })

  it('selects the URL childSku variant and shows its sku', async () => {
    const product = await pick(`${visible} AND type_id = 'configurable'`)
    const child = product.configurable_children.find((c) => c.status < 2) ?? product.configurable_children[0]
    if (!child) throw new Error('no child')
    const { res, html } = await page(
      `/p/${encodeURIComponent(product.sku)}/${product.slug}/${encodeURIComponent(child.sku)}`,
    )
    expect(res.status).toBe(200)
    expect(html).toContain(`SKU ${child.sku}`)
    expect(islandProps(html, 'product-form').childSku).toBe(child.sku)
  })

  it('sets description and og:image only when a meta description exists', async () => {
    const withMeta = await pick(
      `${visible} AND json_extract(doc, '$.meta_description') IS NOT NULL AND json_extract(doc, '$.meta_description') != ''`,
    )
    const a = await page(`/p/${encodeURIComponent(withMeta.sku)}/${withMeta.slug}`)
    expect(a.html).toMatch(/<meta name="description" content="[^"]+"/)
    expect(a.html).toContain(`<meta property="og:image" content="${new URL(env.PUBLIC_ORIGIN).origin}/img/`)
    const without = await pick(
      `${visible} AND (json_extract(doc, '$.meta_description') IS NULL OR json_extract(doc, '$.meta_description') = '')`,
    )
    const b = await page(`/p/${encodeURIComponent(without.sku)}/${without.slug}`)
    expect(b.html).not.toMatch(/<meta name="description"/)
    expect(b.html).not.toMatch(/og:image/)
  })

  it('shows custom attributes as label + value with the N/A placeholder for empty ones', async () => {
    const product = await pick(`${visible} AND type_id = 'configurable'`)
    const { html } = await page(`/p/${encodeURIComponent(product.sku)}/${product.slug}`)
    expect(html).toContain('data-testid="custom-attributes"')
    expect(html).toMatch(/<dt>[^<]+<\/dt><dd>[^<]+<\/dd>/)
  })
})

describe('variant URL, rejection and unknown products', () => {
  it('redirects a variant sku used as parentSku to the parent sku + variant childSku + parent slug (301)', async () => {
    const product = await pick(`${visible} AND type_id = 'configurable'`)
    const child = product.configurable_children[0]
    if (!child) throw new Error('no child')
    const { res } = await page(`/p/${encodeURIComponent(child.sku)}/whatever-slug`)
    expect(res.status).toBe(301)
    expect(res.headers.get('location')).toBe(
      `/p/${encodeURIComponent(product.sku)}/${encodeURIComponent(product.slug)}/${encodeURIComponent(child.sku)}`,
    )
  })

  it("gives a disabled product the spec's status/visibility message (404)", async () => {
    const product = await pick('status >= 2')
    const { res, html } = await page(`/p/${encodeURIComponent(product.sku)}/${product.slug}`)
    expect(res.status).toBe(404)
    expect(decodeEntities(html)).toContain(
      `Product query returned empty result product status = ${product.status} or visibility = ${product.visibility}`,
    )
    expect(html).toContain('noindex')
  })

  it("gives a product not visible individually (visibility 1) the spec's message", async () => {
    const product = await pick('status = 1 AND visibility = 1')
    const { res, html } = await page(`/p/${encodeURIComponent(product.sku)}/${product.slug}`)
    expect(res.status).toBe(404)
    expect(decodeEntities(html)).toContain(
      `Product query returned empty result product status = 1 or visibility = 1`,
    )
  })

  it("answers an unknown product with 404 and 'Product query returned empty result'", async () => {
    const { res, html } = await page('/p/NO-SUCH-SKU/nothing')
    expect(res.status).toBe(404)
    expect(html).toContain('<p data-testid="product-error">Product query returned empty result</p>')
  })
})

describe('the product form reload (client) against the catalogue API', () => {
  it('finds an enabled product by sku and reports a disabled one as gone', async () => {
    const { CATALOG_PRODUCT_SEARCH, productFromSearch, productReloadQuery } = await import(
      '../../../client/islands/product/reload'
    )
    const search = async (sku: string) => {
      const qs = new URLSearchParams(Object.entries(productReloadQuery(sku)).map(([k, v]) => [k, String(v)]))
      const res = await SELF.fetch(`https://shop.test/api/${CATALOG_PRODUCT_SEARCH}?${qs}`)
      expect(res.status).toBe(200)
      return productFromSearch(await res.json(), sku)
    }
    const product = await pick(`${visible} AND type_id = 'configurable'`)
    expect((await search(product.sku))?.sku).toBe(product.sku)
    const disabled = await pick('status >= 2')
    expect(await search(disabled.sku)).toBeNull()
    expect(await search('NO-SUCH-SKU')).toBeNull()
  })
})

describe('size guide', () => {
  it("gives a sized configurable its garment's size guide (panel rows from the size guide table)", async () => {
    const product = await pick(
      `${visible} AND type_id = 'configurable' AND json_extract(doc, '$.size_guide') IS NOT NULL`,
    )
    const code = (product as Record<string, unknown>).size_guide as string
    const guide = await env.DB.prepare('SELECT doc FROM size_guides WHERE code = ?')
      .bind(code)
      .first<{ doc: string }>()
    const doc = JSON.parse(guide?.doc ?? '{}') as { title: string; columns: string[]; rows: string[][] }
    const { html } = await page(`/p/${encodeURIComponent(product.sku)}/${product.slug}`)
    const props = islandProps(html, 'product-form') as {
      sizeGuide: { title: string; rows: string[][] } | null
    }
    expect(props.sizeGuide?.title).toBe(doc.title)
    expect(props.sizeGuide?.rows[0]).toEqual(doc.columns)
    expect(props.sizeGuide?.rows.slice(1)).toEqual(doc.rows)
    expect(html).toContain('data-testid="size-guide-button"')
  })
})

describe('URL dispatcher', () => {
  it('serves the product page at /{url_path}', async () => {
    const product = await pick(`${visible} AND type_id = 'simple'`)
    const { res, html } = await page(`/${product.url_path}`)
    expect(res.status).toBe(200)
    expect(html).toContain(`data-sku="${product.sku}"`)
  })
})
