// A back-office price edit on a configurable product reaches every surface on the next request:
// its variants carry the change (the cart sells a variant, never the parent), and the cached pages
// that show it are purged. Each surface is read once before the edit (so a cached copy exists) and
// once after: category tile, search tile, product page, AMP page, JSON-LD offer, cart line, order.
import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { formatMinor } from '../../../shared/domain/currency'
import { priceView } from '../../../shared/domain/price'
import type { Product } from '../../../shared/schemas/catalog'
import { decodeEntities, tilePrice } from '../../helpers/html'
import { deliverTo, newOrderId, testAddress } from '../../helpers/orders'
import { api } from '../../helpers/user'
import { admin, operator } from '../admin/operator'

const cookie = 'currency=INR; country=IN'

async function page(path: string) {
  const res = await SELF.fetch(`https://shop.test${path}`, { headers: { cookie } })
  expect(res.status, path).toBe(200)
  return decodeEntities(await res.text())
}

/** A configurable product with at least two variants (all in stock), listed on one of its category pages. */
async function listedConfigurable(): Promise<{ product: Product; category: string }> {
  const { results } = await env.DB.prepare(
    `SELECT doc FROM products WHERE type_id = 'configurable' AND status = 1 AND visibility = 4
       AND json_array_length(doc, '$.configurable_children') > 1 ORDER BY id LIMIT 20`,
  ).all<{ doc: string }>()
  for (const { doc } of results) {
    const product = JSON.parse(doc) as Product
    await env.DB.prepare('UPDATE inventory SET qty = 50, is_in_stock = 1 WHERE parent_sku = ?')
      .bind(product.sku)
      .run()
    for (const id of product.category_ids ?? []) {
      const row = await env.DB.prepare('SELECT slug FROM categories WHERE id = ?')
        .bind(Number(id))
        .first<{ slug: string }>()
      if (!row?.slug) continue
      if (tilePrice(await page(`/c/${row.slug}`), product.sku)) return { product, category: row.slug }
    }
  }
  throw new Error('no configurable product listed on a category page')
}

/** What every surface shows for the product, and what the cart and an order charge for its variant. */
async function surfaces(product: Product, category: string, lineSku: string) {
  const seen: Record<string, string | null> = {}
  seen.category = tilePrice(await page(`/c/${category}`), product.sku)
  seen.search = tilePrice(await page(`/search?q=${encodeURIComponent(product.name)}`), product.sku)
  const productHtml = await page(`/p/${encodeURIComponent(product.sku)}/${product.slug}`)
  seen.product = /data-testid="price-final">([^<]+)</.exec(productHtml)?.[1] ?? null
  const offer = /"priceCurrency":"INR","price":"([\d.]+)"/.exec(productHtml)?.[1]
  seen.jsonLd = offer ? formatMinor(Math.round(Number(offer) * 100), 'INR') : null
  const amp = await page(`/amp/p/${encodeURIComponent(product.sku)}/${product.slug}`)
  seen.amp = /<p class="price">(?:<span(?: class="sale")?>)([^<]+)</.exec(amp)?.[1] ?? null

  const cartId = (await api('/cart/create?token=', { method: 'POST', headers: { cookie } })).json.result
  await api(`/cart/update?token=&cartId=${cartId}`, {
    headers: { cookie },
    body: { cartItem: { sku: lineSku, qty: 1 } },
  })
  const address = testAddress('asha.catalogue@example.com')
  const shipped = await api(`/cart/shipping-information?token=&cartId=${cartId}`, {
    headers: { cookie },
    body: { addressInformation: { shippingAddress: address } },
  })
  const line = shipped.json.result.totals.items[0]
  seen.cart = formatMinor(Math.round(line.price_incl_tax * 100), 'INR')
  const placed = await api('/order', {
    headers: { cookie },
    body: {
      order_id: newOrderId('catalogue'),
      user_id: '',
      cart_id: cartId,
      products: [{ sku: lineSku, qty: 1, price: 1 }],
      // By card: some of these prices are above the most cash on delivery collects.
      addressInformation: deliverTo(address, 'card'),
    },
  })
  expect(placed.status, JSON.stringify(placed.json)).toBe(200)
  const order = (
    await api('/order/get', {
      body: { orderId: placed.json.result.orderNumber, accessKey: placed.json.result.accessKey },
    })
  ).json.result
  seen.order = formatMinor(Math.round(order.items[0].price_incl_tax * 100), 'INR')
  return seen
}

async function storedProduct(id: number): Promise<Product> {
  const row = await env.DB.prepare('SELECT doc FROM products WHERE id = ?').bind(id).first<{ doc: string }>()
  return JSON.parse(row?.doc as string) as Product
}

/** The variant the listed price comes from (what a shopper adds), and what it sells for. */
function listedVariant(product: Product) {
  const view = priceView(product, { now: Date.now(), currency: 'INR', country: 'IN' })
  const child = product.configurable_children.find((ch) => ch.sku === view.variantSku)
  if (!child) throw new Error(`${product.sku} lists no variant`)
  return child
}

const all = (seen: Record<string, string | null>, text: string) =>
  Object.fromEntries(Object.keys(seen).map((k) => [k, text]))

describe('a price edit on a configurable product', () => {
  it('moves every variant by the same amount and shows and charges the new price everywhere at once', async () => {
    const { product, category } = await listedConfigurable()
    const variant = listedVariant(product)
    const before = await surfaces(product, category, variant.sku)
    const shownBefore = formatMinor(Math.round((variant.special_price || variant.price) * 100), 'INR')
    expect(before).toEqual(all(before, shownBefore))

    const staff = await operator('staff')
    const price = product.price + 2300
    const res = await admin(staff, `/api/products/${product.id}`, { body: { price, special_price: null } })
    expect(res.status, res.text).toBe(200)

    const edited = await storedProduct(product.id)
    for (const [i, child] of edited.configurable_children.entries()) {
      const old = product.configurable_children[i]
      expect(child.price, child.sku).toBe((old?.price ?? product.price) + 2300)
      expect(child.special_price ?? null, child.sku).toBeNull()
    }
    const newVariant = listedVariant(edited)
    const shown = formatMinor(Math.round(newVariant.price * 100), 'INR')
    expect(shown).not.toBe(shownBefore)
    expect(await surfaces(edited, category, newVariant.sku)).toEqual(all(before, shown))
  })

  it('sets a special price on every variant and removes it again from the product form', async () => {
    const { product, category } = await listedConfigurable()
    const staff = await operator('staff')
    const off = await admin(staff, `/api/products/${product.id}`, {
      body: { special_price: product.price - 500, special_from_date: null, special_to_date: null },
    })
    expect(off.status, off.text).toBe(200)
    const onSale = await storedProduct(product.id)
    for (const child of onSale.configurable_children)
      expect(child.special_price, child.sku).toBe(child.price - 500)
    const saleVariant = listedVariant(onSale)
    const sale = formatMinor(Math.round((saleVariant.price - 500) * 100), 'INR')
    const during = await surfaces(onSale, category, saleVariant.sku)
    expect(during).toEqual(all(during, sale))

    // The back office's product form as a browser sends it: the special price field still holds
    // the current special price, and the "remove the special price" box is ticked.
    const removed = await SELF.fetch(`https://shop.test/admin/api/products/${product.id}/form`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: staff.cookie },
      body: new URLSearchParams([
        ['_csrf', staff.csrf],
        ['return_to', '/admin/products'],
        ['price', String(product.price)],
        ['special_price', String(product.price - 500)],
        ['remove_special_price', 'on'],
      ]),
    })
    expect(removed.status, await removed.text()).toBe(303)
    const regular = await storedProduct(product.id)
    expect(regular.special_price ?? null).toBeNull()
    for (const child of regular.configurable_children)
      expect(child.special_price ?? null, child.sku).toBeNull()
    const variant = listedVariant(regular)
    const shown = formatMinor(Math.round(variant.price * 100), 'INR')
    expect(shown).not.toBe(sale)
    expect(await surfaces(regular, category, variant.sku)).toEqual(all(during, shown))
  })
})

describe('a configurable change that would sell a variant for nothing', () => {
  it('is refused with a reason, and nothing is written', async () => {
    const { product } = await listedConfigurable()
    // A variant sold for less than the product's own price: lowering the product by more than
    // that variant's price would take it below nothing.
    const doc = { ...product, configurable_children: product.configurable_children.map((ch) => ({ ...ch })) }
    const cheap = doc.configurable_children[0] as Product['configurable_children'][number]
    cheap.price = 100
    cheap.special_price = null
    await env.DB.prepare('UPDATE products SET doc = ? WHERE id = ?')
      .bind(JSON.stringify(doc), product.id)
      .run()
    const staff = await operator('staff')
    const res = await admin(staff, `/api/products/${product.id}`, {
      body: { price: product.price - 150, special_price: null },
    })
    expect(res.status, res.text).toBe(400)
    expect(res.json.error ?? res.text).toContain(`variant ${cheap.sku} would cost nothing or less`)
    const stored = await storedProduct(product.id)
    expect(stored.price).toBe(product.price)
    expect(stored.configurable_children[0]?.price).toBe(100)
  })
})
