// The catalogue search folds each product's quick forms (price, status, stock per SKU) under one
// closed disclosure, so a long search is a list of products; a refused quick form comes back with
// its product's disclosure open and the reason in it; a viewer sees the stock in words, no forms.
import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { admin, operator, post, type Session } from './operator'

let staff: Session
let viewer: Session

beforeAll(async () => {
  staff = await operator('staff')
  viewer = await operator('viewer')
})

/** The HTML of each product's card on the catalogue page. */
const cards = (html: string) => html.split('<section class="card"').slice(1)

/** The catalogue searched for "kurta" as `who`: the page and its cards (more than five). */
async function kurtaSearch(who: Session) {
  const page = await admin(who, '/products?q=kurta')
  expect(page.status).toBe(200)
  const found = cards(page.text)
  expect(found.length).toBeGreaterThan(5)
  return { page, found }
}

describe('the catalogue search', () => {
  it("folds every product's quick forms under a closed disclosure", async () => {
    const { page, found } = await kurtaSearch(staff)
    for (const card of found) {
      const folded = card.indexOf('<details><summary>Change price, status or stock')
      expect(folded).toBeGreaterThan(0)
      // Every form of the card is inside it.
      expect(card.indexOf('<form')).toBeGreaterThan(folded)
    }
    expect(page.text).not.toContain('<details open')
  })

  it('opens the disclosure of the product whose form was refused, with the reason', async () => {
    const p = (await env.DB.prepare(
      "SELECT id FROM products WHERE sku LIKE 'KUR%' ORDER BY sku LIMIT 1",
    ).first('id')) as number
    const res = await post(staff, `/api/products/${p}/form`, '/admin/products?q=kurta', [
      ['price', '8,71,99,9x'],
    ])
    expect(res.status).toBe(400)
    const open = cards(res.text).filter((c) => c.includes('<details open'))
    expect(open).toHaveLength(1)
    expect(open[0]).toContain(`id="p-${p}"`)
    expect(open[0]).toMatch(/role="alert"/)
  })

  it('shows a viewer the stock in words and no forms', async () => {
    const { found } = await kurtaSearch(viewer)
    for (const card of found) {
      expect(card).not.toContain('<form')
      expect(card).toMatch(/Stock: [A-Z0-9]/)
    }
  })
})
