// A set shows its members as they are now: when the back office changes a member's name or price
// (the authoring form, or the price change of the product API), the grouped and bundle sets that
// list it follow at once: the set's page, its tile and the bag's subtotal show and charge the
// member's current figures.
import { env, SELF } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { decodeEntities } from '../../helpers/html'
import { api } from '../../helpers/user'
import {
  admin,
  firstSubcategory,
  operator,
  post,
  productBySku,
  type Session,
  simpleProductForm,
} from '../admin/operator'

let owner: Session
let category: number
const run = `${Date.now() % 100000}`

beforeAll(async () => {
  owner = await operator('staff')
  category = (await firstSubcategory()).id
})

const simpleFields = (sku: string, name: string, price: string) =>
  simpleProductForm({ sku, name, category, price, qty: '5' }, [['status', 'published']])

async function authored(type: string, fields: [string, string][], id?: number) {
  const path = id ? `/api/products/${id}/authoring` : '/api/products/authoring'
  const res = await post(owner, path, `/admin/products/new?type=${type}`, fields)
  expect(res.status, res.text.slice(0, 300)).toBe(303)
}

async function html(path: string): Promise<string> {
  const res = await SELF.fetch(`https://shop.test${path.startsWith('/') ? path : `/${path}`}`)
  expect(res.status, path).toBe(200)
  return decodeEntities(await res.text())
}

/** The text of the tile of `sku` in the search results for `q`. */
async function tileText(q: string, sku: string): Promise<string> {
  const page = await html(`/search?q=${encodeURIComponent(q)}`)
  const at = page.indexOf(`class="tile" data-sku="${sku}"`)
  expect(at, `${sku} is found by "${q}"`).toBeGreaterThan(-1)
  const tile = page.slice(at, page.indexOf('</article>', at))
  return (/<p class="tile__price"[^>]*>([\s\S]*?)<\/p>/.exec(tile)?.[1] ?? '').replace(/<[^>]+>/g, '')
}

/** A new guest cart holding `cartItem`; the subtotal the server charges, in paise. */
async function subtotal(cartItem: Record<string, unknown>): Promise<number> {
  const cartId = (await api('/cart/create?token=', { method: 'POST' })).json.result as string
  const res = await api(`/cart/update?token=&cartId=${cartId}`, { body: { cartItem } })
  expect(res.status, JSON.stringify(res.json)).toBe(200)
  const totals = await api(`/cart/totals?cartId=${cartId}`)
  return totals.json.result.extension_attributes.subtotal_minor as number
}

describe('a set shows its members as they are now', () => {
  it("a member's new name and price: the set's page, its tile and the bag follow", async () => {
    const a = `SMA${run}`
    const b = `SMB${run}`
    await authored('simple', simpleFields(a, `Kundan Jhumka ${a}`, '2,000'))
    await authored('simple', simpleFields(b, `Zardozi Potli ${b}`, '3,000'))
    const grouped = `SMG${run}`
    const bundle = `SMU${run}`
    const setFields = (type: string, sku: string): [string, string][] => [
      ['type_id', type],
      ['sku', sku],
      ['name', `Shaadi Set ${sku}`],
      ['category_id', String(category)],
      ['status', 'published'],
    ]
    await authored('grouped', [...setFields('grouped', grouped), ['member_1_sku', a], ['member_2_sku', b]])
    await authored('bundle', [
      ...setFields('bundle', bundle),
      ['opt_1_title', 'Piece'],
      ['opt_1_required', 'on'],
      ['opt_1_skus', `${a}, ${b}`],
      ['opt_1_default', a],
    ])
    expect(await tileText(`Shaadi Set ${grouped}`, grouped)).toBe('from ₹2,000')

    // The member is renamed and made cheaper on its authoring form.
    const member = await productBySku(a)
    if (!member) throw new Error('the member was created')
    await authored(
      'simple',
      [...simpleFields(a, `Polki Jhumka ${a}`, '1,500'), ['revision', String(member.revision)]],
      member.id,
    )
    // The other member's price moves through the product API.
    const other = await productBySku(b)
    const moved = await admin(owner, `/api/products/${other?.id}`, { body: { price: 2800 } })
    expect(moved.status, moved.text).toBe(200)

    const groupedPage = await html((await productBySku(grouped))?.url_path ?? '')
    const piece = (sku: string) =>
      new RegExp(`<tr[^>]*data-testid="grouped-piece" data-sku="${sku}"[^>]*>[\\s\\S]*?</tr>`).exec(
        groupedPage,
      )?.[0] ?? ''
    expect(piece(a)).toContain(`Polki Jhumka ${a}`)
    expect(piece(a)).toContain('₹1,500')
    expect(piece(b)).toContain('₹2,800')
    expect(await tileText(`Shaadi Set ${grouped}`, grouped)).toBe('from ₹1,500')
    // The set as one line: one of each member, at their prices now.
    expect(await subtotal({ sku: grouped, qty: 1 })).toBe(150_000 + 280_000)

    const bundlePage = await html((await productBySku(bundle))?.url_path ?? '')
    expect(/data-testid="price-final">([^<]+)</.exec(bundlePage)?.[1]).toBe('₹1,500')
    expect(bundlePage).toContain(`Polki Jhumka ${a}`)
    expect(bundlePage).not.toContain(`Kundan Jhumka ${a}`)
    expect(await tileText(`Shaadi Set ${bundle}`, bundle)).toBe('₹1,500')
    const doc = JSON.parse(
      (await env.DB.prepare('SELECT doc FROM products WHERE sku = ?').bind(bundle).first<{ doc: string }>())
        ?.doc ?? '{}',
    ) as { bundle_options: Array<{ option_id: number; product_links: Array<{ id: number; sku: string }> }> }
    const option = doc.bundle_options[0]
    const chosen = (sku: string) => ({
      sku: bundle,
      qty: 1,
      product_option: {
        extension_attributes: {
          bundle_options: [
            {
              option_id: option?.option_id,
              option_qty: 1,
              option_selections: [option?.product_links.find((l) => l.sku === sku)?.id],
            },
          ],
        },
      },
    })
    expect(await subtotal(chosen(a))).toBe(150_000)
    expect(await subtotal(chosen(b))).toBe(280_000)
  })
})
