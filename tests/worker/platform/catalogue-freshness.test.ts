// One invalidation rule for the isolate's memos of catalogue data: the request after a catalogue
// write (which bumps the catalogue version in the same batch) reads afresh — the header menu, the
// category lookups and the other memoised Commerce reads alike, with no time window of stale data.
// Reference data (categories, attributes, tax rules, content documents, CMS blocks, size guides) has
// a version of its own, moved by triggers on every write of those tables: a write by any path is
// seen on the next request, and an import of products alone leaves those memoised reads in place.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { parseImportFile } from '../../../scripts/catalogue/import/transform'
import { importStatements } from '../../../scripts/catalogue/import/write'
import app from '../../../worker/app'
import { indexProductStatements } from '../../../worker/search/builds/index-products'
import { bumpIndexVersionStatement } from '../../../worker/search/held/index-version'
import catalogNdjson from '../../fixtures/import/catalog.ndjson?raw'
import { islandProps } from '../../helpers/islands'

/**
 * A page rendered afresh by this module's app, the output cache off for it (a page's cache key
 * leaves unknown query parameters out, so only the memos can be stale); `db` as the request sees it.
 */
async function page(
  path: string,
  init: RequestInit = {},
  db: D1Database = env.DB,
): Promise<{ status: number; body: string }> {
  const ctx = createExecutionContext()
  const res = await app.fetch(
    new Request(`https://shop.test${path}`, { redirect: 'manual', ...init }),
    { ...env, DB: db, OUTPUT_CACHE_ENABLED: 'false' },
    ctx,
  )
  const body = await res.text()
  await waitOnExecutionContext(ctx)
  return { status: res.status, body }
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

    const parsed = parseImportFile(catalogNdjson, 'catalog.ndjson', {})
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

describe('pages read memoised reference data ahead of their version read', () => {
  it('a page whose reference data moved while it was read is built again from fresh reads', async () => {
    const title = (html: string) => /<h1 class="category__title">([^<]*)<\/h1>/.exec(html)?.[1]
    const fresh = async (db: D1Database) => {
      const { status, body } = await page('/c/women', {}, db)
      return { status, html: body }
    }
    expect(title((await fresh(env.DB)).html)).toBe('Women')
    // The database as the next page sees it: its category is renamed by another writer just before
    // the page's first round trip (its version read, sent with its listing read) reaches it, after
    // the page took the category from this isolate's memo.
    let renamed = false
    const racing = (db: D1Database): D1Database =>
      new Proxy(db, {
        get(target, key) {
          const real = target as unknown as D1Database
          if (key === 'withSession') return (start?: string) => racing(real.withSession(start) as never)
          if (key === 'batch' && !renamed)
            return async (statements: D1PreparedStatement[]) => {
              renamed = true
              await env.DB.prepare(
                "UPDATE categories SET name = 'Womenswear', doc = json_set(doc, '$.name', 'Womenswear', '$.display_name', 'Womenswear') WHERE slug = 'women'",
              ).run()
              return real.batch(statements)
            }
          const v = Reflect.get(target, key)
          return typeof v === 'function' ? v.bind(target) : v
        },
      })
    const { status, html } = await fresh(racing(env.DB))
    expect(renamed).toBe(true)
    expect(status).toBe(200)
    expect(title(html)).toBe('Womenswear')
    await env.DB.prepare(
      "UPDATE categories SET name = 'Women', doc = json_set(doc, '$.name', 'Women', '$.display_name', 'Women') WHERE slug = 'women'",
    ).run()
  })
})

interface ListingProps {
  labels: { titles: Record<string, string> }
  pricing: { taxRules: { rates: { rate: number }[] }[] }
}

/** The category page's listing island props (filter titles, tax rules) for a shopper abroad. */
async function listing(slug: string): Promise<ListingProps> {
  const res = await page(`/c/${slug}`, { headers: { cookie: 'vs_country=US' } })
  expect(res.status).toBe(200)
  const props = islandProps<ListingProps>(res.body, 'category-listing')
  if (!props) throw new Error(`no listing on /c/${slug}`)
  return props
}

async function reference(): Promise<number> {
  const row = await env.DB.prepare("SELECT value FROM search_meta WHERE key = 'reference'").first<{
    value: number
  }>()
  if (!row) throw new Error('no reference version row')
  return row.value
}

/** Runs a hand-written write of reference data and checks that it moved the reference version. */
async function expectReferenceMoved(write: () => Promise<unknown>): Promise<void> {
  const before = await reference()
  await write()
  expect(await reference()).not.toBe(before)
}

describe('reference data: its own version, moved by any write of it', () => {
  it('a hand-written write of each reference table, with no version bump, is seen on the next request', async () => {
    const before = await listing('women')
    expect(before.labels.titles.color).toBe('Color')
    const version = await env.DB.prepare("SELECT value FROM search_meta WHERE key = 'version'").first()

    await expectReferenceMoved(() =>
      env.DB.prepare(
        "UPDATE attributes SET doc = json_set(doc, '$.frontend_label', 'Colour way') WHERE attribute_code = 'color'",
      ).run(),
    )
    expect((await listing('women')).labels.titles.color).toBe('Colour way')

    const ratesOf = (l: typeof before) => l.pricing.taxRules.flatMap((r) => r.rates.map((x) => x.rate))
    const rates = ratesOf(before)
    expect(rates.length).toBeGreaterThan(0)
    // Every rate of every rule doubled: the tax rules the page hands its tiles follow at once.
    const rules = await env.DB.prepare('SELECT id, doc FROM tax_rules').all<{ id: number; doc: string }>()
    await expectReferenceMoved(() =>
      env.DB.batch(
        rules.results.map((r) => {
          const doc = JSON.parse(r.doc) as { rates: { rate: number }[] }
          for (const rate of doc.rates) rate.rate *= 2
          return env.DB.prepare('UPDATE tax_rules SET doc = ?1 WHERE id = ?2').bind(JSON.stringify(doc), r.id)
        }),
      ),
    )
    const after = await listing('women')
    expect(ratesOf(after)).toEqual(rates.map((r) => r * 2))

    await expectReferenceMoved(() => env.DB.prepare("DELETE FROM categories WHERE slug = 'sale'").run())
    expect((await page('/c/sale')).status).toBe(302)
    expect(menuLabels((await page('/')).body)).not.toContain('Sale')

    await expectReferenceMoved(() =>
      env.DB.prepare(
        "UPDATE content_docs SET doc = json_set(doc, '$.sections[0].title', 'Written by hand') WHERE kind = 'home' AND store_id = 0",
      ).run(),
    )
    expect((await page('/')).body).toContain('Written by hand')

    // CMS blocks (the home page's story) and size guides (a configurable product's) too.
    await expectReferenceMoved(() =>
      env.DB.prepare(
        "UPDATE cms_blocks SET doc = json_set(doc, '$.content', '<p>A block edited by hand</p>') WHERE identifier = 'home-intro'",
      ).run(),
    )
    expect((await page('/')).body).toContain('A block edited by hand')
    const product = await env.DB.prepare(
      "SELECT sku, slug, json_extract(doc, '$.size_guide') AS guide FROM products WHERE type_id = 'configurable' AND json_extract(doc, '$.size_guide') IS NOT NULL AND status = 1 AND visibility = 4 LIMIT 1",
    ).first<{ sku: string; slug: string; guide: string }>()
    const productPath = `/p/${encodeURIComponent(product?.sku ?? '')}/${product?.slug}`
    expect((await page(productPath)).body).not.toContain('Measured by hand')
    await expectReferenceMoved(() =>
      env.DB.prepare(
        "UPDATE size_guides SET doc = json_set(doc, '$.title', 'Measured by hand') WHERE code = ?1",
      )
        .bind(product?.guide)
        .run(),
    )
    expect((await page(productPath)).body).toContain('Measured by hand')

    // None of these writes moved the catalogue version: only their own.
    expect(await env.DB.prepare("SELECT value FROM search_meta WHERE key = 'version'").first()).toEqual(
      version,
    )
  })

  it('an import of products alone keeps the memoised reference reads; a reference write drops them', async () => {
    const name = 'Kept Across Imports'
    const [first] = menuLabels((await page('/')).body)
    expect(first).toBeTruthy()
    // A rename the reference version does not see (its trigger set aside for the test), so a menu
    // showing the new name can only come from reading the categories again.
    await env.DB.prepare('DROP TRIGGER categories_update_moves_reference').run()
    try {
      await env.DB.prepare(
        "UPDATE categories SET name = ?1, doc = json_set(doc, '$.name', ?1) WHERE name = ?2",
      )
        .bind(name, first)
        .run()
      // The importer's write of one product: document, index rows, version bump.
      const row = await env.DB.prepare(
        "SELECT doc FROM products WHERE type_id = 'simple' AND status = 1 ORDER BY id LIMIT 1",
      ).first<{ doc: string }>()
      const doc = { ...JSON.parse(row?.doc ?? '{}'), name: 'Imported Alone' }
      await env.DB.batch([
        env.DB.prepare('UPDATE products SET doc = ?1 WHERE id = ?2').bind(JSON.stringify(doc), doc.id),
        ...indexProductStatements(env.DB, doc),
        bumpIndexVersionStatement(env.DB),
      ])
      const search = await page('/search?q=imported+alone')
      expect(search.body).toContain('Imported Alone')
      const labels = menuLabels(search.body)
      expect(labels).toContain(first)
      expect(labels).not.toContain(name)
    } finally {
      await env.DB.prepare(
        `CREATE TRIGGER categories_update_moves_reference AFTER UPDATE ON categories
         BEGIN UPDATE search_meta SET value = abs(random() % 9007199254740991) WHERE key = 'reference'; END`,
      ).run()
    }
    // Any write of the categories table moves the reference version: the rename shows.
    await env.DB.prepare('UPDATE categories SET position = position WHERE name = ?1').bind(name).run()
    expect(menuLabels((await page('/')).body)).toContain(name)
  })
})
