// One invalidation rule for the isolate's memos of catalogue data: the request after a catalogue
// write (which bumps the catalogue version in the same batch) reads afresh — the header menu, the
// category lookups and the other memoised Commerce reads alike, with no time window of stale data.
import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { parseImportFile } from '../../../scripts/catalogue/import/transform'
import { importStatements } from '../../../scripts/catalogue/import/write'
import catalogNdjson from '../../fixtures/import/catalog.ndjson?raw'
import { islandProps } from '../../helpers/islands'

let probe = 0
/** A page outside the output cache's copies (a query of its own), so the render is fresh. */
async function page(path: string): Promise<{ status: number; body: string }> {
  const res = await SELF.fetch(`https://shop.test${path}?probe=${++probe}`, { redirect: 'manual' })
  return { status: res.status, body: await res.text() }
}

interface MenuNode {
  name: string
  children: MenuNode[]
}

/** Every label of the header menu the page was rendered with. */
function menuLabels(html: string): string[] {
  const walk = (items: MenuNode[]): string[] => items.flatMap((i) => [i.name, ...walk(i.children)])
  return walk(islandProps<{ menu: MenuNode[] }>(html, 'header')?.menu ?? [])
}

describe('memoised catalogue reads after a catalogue write', () => {
  it('the next request sees the new category in the menu and on its own page', async () => {
    // Warm every memo this isolate has for the catalogue.
    const before = await page('/')
    expect(before.status).toBe(200)
    expect(menuLabels(before.body).length).toBeGreaterThan(0)
    expect(menuLabels(before.body)).not.toContain('Imported Shawls')
    expect((await page('/c/imported-shawls')).status).not.toBe(200)

    const parsed = parseImportFile(catalogNdjson, 'catalog.ndjson', { now: '2026-01-01 00:00:00' })
    expect(parsed.errors).toEqual([])
    await env.DB.batch(importStatements(env.DB, parsed.records))

    const after = await page('/')
    expect(menuLabels(after.body)).toContain('Imported Shawls')
    const category = await page('/c/imported-shawls')
    expect(category.status).toBe(200)
    expect(category.body).toContain('Imported Shawls')
  })

  it('a renamed category is renamed in the menu on the next request', async () => {
    const [first] = menuLabels((await page('/')).body)
    expect(first).toBeTruthy()
    await env.DB.batch([
      env.DB.prepare(
        "UPDATE categories SET name = ?1, doc = json_set(doc, '$.name', ?1) WHERE name = ?2",
      ).bind('Renamed Right Now', first),
      env.DB.prepare("UPDATE search_meta SET value = value + 1 WHERE key = 'version'"),
    ])
    const labels = menuLabels((await page('/')).body)
    expect(labels).toContain('Renamed Right Now')
    expect(labels).not.toContain(first)
  })
})
