import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { decodeEntities } from '../../helpers/html'

interface Child {
  sku: string
  color?: number | null
  image?: string | null
  status?: number
}
interface Doc {
  sku: string
  type_id: string
  category_ids: number[]
  color?: number | null
  color_options?: number[] | null
  configurable_children?: Child[]
}

async function docsBySku(): Promise<Map<string, Doc>> {
  const rows = await env.DB.prepare('SELECT doc FROM products').all<{ doc: string }>()
  const map = new Map<string, Doc>()
  for (const r of rows.results) {
    const d = JSON.parse(r.doc) as Doc
    map.set(d.sku, d)
  }
  return map
}

/** Each tile of a page: its sku, the link, the main picture and the colour it says it shows. */
function tiles(html: string) {
  return [...html.matchAll(/<article class="tile"[^>]*>[\s\S]*?<\/article>/g)].map((m) => {
    const t = m[0]
    const img = t.match(/<img class="tile__img"[^>]*?(?:data-src|src)="([^"]+)"[^>]*>/)
    const main = t.match(/<img class="tile__img" [^>]*>/)?.[0] ?? ''
    const src = main.match(/data-src="([^"]+)"/)?.[1] ?? main.match(/ src="([^"]+)"/)?.[1] ?? img?.[1]
    return {
      sku: decodeEntities(t.match(/data-sku="([^"]+)"/)?.[1] ?? ''),
      href: decodeEntities(t.match(/<a href="([^"]+)" class="tile__link"/)?.[1] ?? ''),
      src: decodeEntities(src ?? ''),
      shown: t.match(/data-shown-color="(\d+)"/)?.[1],
      swatches: [...t.matchAll(/class="tile__swatch[^"]*"/g)].length,
    }
  })
}

async function page(path: string): Promise<string> {
  const res = await SELF.fetch(`https://shop.test${path}`)
  expect(res.status).toBe(200)
  return res.text()
}

describe('a colour filter on a listing', () => {
  it('shows and links every configurable tile in the chosen colour', async () => {
    const docs = await docsBySku()
    // A colour that several multi-colour products of the women's tree come in, but not as their first colour.
    const html = await page('/c/women?color=49')
    const shown = tiles(html)
    expect(shown.length).toBeGreaterThan(0)
    let swapped = 0
    for (const tile of shown) {
      const doc = docs.get(tile.sku) as Doc
      if (doc.type_id !== 'configurable') continue
      const child = (doc.configurable_children ?? []).find((c) =>
        tile.href.endsWith(`/${encodeURIComponent(c.sku)}`),
      )
      expect(child, `${tile.sku} links to a variant: ${tile.href}`).toBeTruthy()
      expect(child?.color).toBe(49)
      expect(tile.shown).toBe('49')
      // The picture is that variant's (through the image route, so compare the path it carries).
      expect(tile.src).toContain(String(child?.image).replace(/^\//, ''))
      const firstColour = (doc.configurable_children ?? []).find((c) => c.status !== 2)?.color
      if (firstColour !== 49) swapped++
    }
    // The filter changed at least one tile away from its default colour, so the swap is exercised.
    expect(swapped).toBeGreaterThan(0)
  })

  it('leaves tiles on their default picture and plain product link without a colour filter', async () => {
    const html = await page('/c/women')
    for (const tile of tiles(html)) {
      expect(tile.shown).toBeUndefined()
      expect(tile.href.split('/').length).toBe(4) // /p/{sku}/{slug}
    }
  })

  it('shows colour swatches on multi-colour tiles', async () => {
    const docs = await docsBySku()
    const html = await page('/c/women')
    const list = tiles(html)
    const multi = list.filter((t) => {
      const colours = new Set(
        (docs.get(t.sku)?.configurable_children ?? []).filter((c) => c.status !== 2).map((c) => c.color),
      )
      return colours.size > 1
    })
    expect(multi.length).toBeGreaterThan(0)
    for (const t of multi) expect(t.swatches).toBeGreaterThan(1)
  })

  it('lists each applied filter as a chip whose link removes only that value', async () => {
    const html = await page('/c/women?color=49,50&sort=price-asc')
    const chips = [
      ...html.matchAll(
        /<a class="chip"[^>]*href="([^"]+)"[^>]*data-chip-attr="(\w+)" data-chip-id="([^"]+)"/g,
      ),
    ]
    expect(chips.map((c) => `${c[2]}:${c[3]}`).sort()).toEqual(['color:49', 'color:50'])
    const removeBlack = chips.find((c) => c[3] === '49')?.[1]
    expect(decodeEntities(removeBlack ?? '')).toBe('?color=50&sort=price-asc')
    const none = await page('/c/women')
    expect(none).not.toContain('data-testid="applied-filters"')
  })
})
