// Curated product carousels on the home page (a home section of type 'products' with a SKU list):
// tiles follow the curated order, and products a listing would not show (disabled, or not visible
// individually) are left out — the section is a catalogue query like any listing.
import { env, SELF } from 'cloudflare:test'
import { expect, it } from 'vitest'

async function sku(where: string, order = 'ASC'): Promise<string> {
  const row = await env.DB.prepare(
    `SELECT sku FROM products WHERE ${where} ORDER BY id ${order} LIMIT 1`,
  ).first<{
    sku: string
  }>()
  if (!row) throw new Error(`no product where ${where}`)
  return row.sku
}

it('lists a curated section in its order, without disabled or individually invisible products', async () => {
  const listed = 'status IN (0,1) AND visibility IN (2,3,4)'
  // Curated order on purpose against id order.
  const first = await sku(listed, 'DESC')
  const second = await sku(listed)
  const disabled = await sku('status = 2')
  const hidden = await sku('visibility = 1')
  const row = await env.DB.prepare(
    "SELECT doc FROM content_docs WHERE kind = 'home' AND store_id = 0",
  ).first<{
    doc: string
  }>()
  const doc = JSON.parse(row?.doc ?? '{}') as { sections: { id: number; type: string; skus?: string[] }[] }
  const section = doc.sections.find((s) => s.type === 'products')
  if (!section) throw new Error('the demo home has no curated product section')
  section.skus = [disabled, first, hidden, second, first]
  await env.DB.prepare("UPDATE content_docs SET doc = ? WHERE kind = 'home' AND store_id = 0")
    .bind(JSON.stringify(doc))
    .run()

  const html = await (
    await SELF.fetch('https://shop.test/', { headers: { 'user-agent': 'Googlebot' } })
  ).text()
  const start = html.indexOf(`id="home-section-${section.id}"`)
  expect(start).toBeGreaterThan(0)
  const end = html.indexOf('</section>', start)
  const tiles = [...html.slice(start, end).matchAll(/<article class="tile" data-sku="([^"]+)"/g)].map(
    (m) => m[1],
  )
  expect(tiles).toEqual([first, second])
})
