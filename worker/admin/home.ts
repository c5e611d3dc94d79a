/**
 * The home page's sections, edited from the back office: a banner heading, a category's products,
 * a hand-picked list of SKUs, or a CMS block, each with a title and a position; and the hero's
 * banners (a picture of the media library, its words and the address it opens), shown where the
 * banner section stands. Every reference is checked before anything is written (the category, the
 * block, each SKU, the picture and the link), each refusal beside its field, and a save
 * is a compare-and-set on the document as it was read, so two operators editing at once never
 * silently overwrite each other. The document, its audit row and the catalogue-version bump go in
 * one batch; the home pages are then purged.
 */
import { isSafeUrl } from '@shared/domain/sanitize-html'
import { HTTPException } from 'hono/http-exception'
import { z } from 'zod'
import { purgeCacheTags, purgedCount } from '../platform/cache/purge'
import { fail } from '../platform/http'
import { bumpIndexVersionStatement } from '../search'
import { auditStatement } from './audit'
import { requiredText } from './input'

export const HOME_SECTION_TYPES = ['banner', 'category_products', 'products', 'cms_block'] as const
/** Most SKUs one hand-picked section lists (a carousel shows 8). */
const MAX_SECTION_SKUS = 24
/** Most sections the home page holds. */
const MAX_SECTIONS = 30

const wholeNumber = (what: string, max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' && /^\d{1,9}$/.test(v.trim()) ? Number(v) : v),
    z
      .number({ error: `${what} must be a whole number` })
      .int(`${what} must be a whole number`)
      .min(0)
      .max(max),
  )
const skuList = z.preprocess(
  (v) =>
    typeof v === 'string'
      ? v
          .split(/[\n,]/)
          .map((s) => s.trim())
          .filter(Boolean)
      : v,
  z
    .array(z.string().trim().min(1).max(64, 'a SKU has at most 64 characters'))
    .min(1, 'list at least one SKU')
    .max(MAX_SECTION_SKUS, `at most ${MAX_SECTION_SKUS} SKUs`)
    .refine((a) => new Set(a).size === a.length, 'a SKU is listed twice'),
)

const base = {
  id: wholeNumber('id', 1_000_000).optional(),
  title: z.string().trim().min(1, 'title is required').max(120, 'title is too long'),
  position: wholeNumber('position', 999).default(0),
}
/** Products ticked in the search results (`pick_0`, `pick_1`, … = SKU) join the SKUs typed. */
function withPicks(v: unknown): unknown {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return v
  const form = v as Record<string, unknown>
  const picks = Object.entries(form)
    .filter(([k, x]) => /^pick_\d{1,3}$/.test(k) && typeof x === 'string')
    .map(([, x]) => x as string)
  if (!picks.length) return v
  const typed =
    typeof form.skus === 'string' ? form.skus : Array.isArray(form.skus) ? form.skus.join(',') : ''
  const skus = [...new Set([...typed.split(/[\n,]/), ...picks].map((s) => s.trim()).filter(Boolean))]
  return { ...form, skus: skus.join(',') }
}

const SectionUnion = z.discriminatedUnion(
  'type',
  [
    z.object({ ...base, type: z.literal('banner') }),
    z.object({ ...base, type: z.literal('category_products'), category_id: wholeNumber('category_id', 1e9) }),
    z.object({ ...base, type: z.literal('products'), skus: skuList }),
    z.object({
      ...base,
      type: z.literal('cms_block'),
      block_identifier: z
        .string()
        .trim()
        .regex(/^[A-Za-z0-9_-]{1,100}$/, 'block_identifier is letters, digits, _ or -'),
    }),
  ],
  { error: `type must be one of ${HOME_SECTION_TYPES.join(', ')}` },
)
export const HomeSectionSchema = z.preprocess(withPicks, SectionUnion)
type HomeSectionInput = z.infer<typeof SectionUnion>

/** A hero banner: a picture of the media library, its words and where it leads. */
export const HeroBannerSchema = z.object({
  title: requiredText('title', 120),
  image: z.string({ error: 'pick a picture from the media library' }).trim(),
  link: z
    .string({ error: 'link is required' })
    .trim()
    .max(500, 'link is too long')
    .refine(
      (l) => /^\/(?!\/)/.test(l) && isSafeUrl(l),
      'link must be a path of the shop, like /about-us or /c/sarees',
    ),
})
type HeroBannerInput = z.infer<typeof HeroBannerSchema>

interface StoredSection {
  id: number
  type: string
  title?: string
  position?: number
  [key: string]: unknown
}

async function readHome(db: D1Database): Promise<{ text: string | null; doc: Record<string, unknown> }> {
  const row = await db
    .prepare("SELECT doc FROM content_docs WHERE kind = 'home' AND store_id = 0")
    .first<{ doc: string }>()
  const doc = row ? (JSON.parse(row.doc) as Record<string, unknown>) : {}
  return { text: row?.doc ?? null, doc }
}

const sectionsOf = (doc: Record<string, unknown>): StoredSection[] =>
  (Array.isArray(doc.sections) ? (doc.sections as StoredSection[]) : []).filter(
    (s) => s && typeof s === 'object' && Number.isSafeInteger(s.id),
  )

/** The home sections in the order the page shows them. */
export async function listHomeSections(db: D1Database): Promise<StoredSection[]> {
  return sectionsOf((await readHome(db)).doc).sort((a, b) => (a.position ?? 0) - (b.position ?? 0))
}

/** What in a section points at nothing (unknown category, block or SKUs): [field, reason], or null. */
async function brokenReference(db: D1Database, s: HomeSectionInput): Promise<[string, string] | null> {
  if (s.type === 'category_products') {
    const hit = await db.prepare('SELECT id FROM categories WHERE id = ?').bind(s.category_id).first()
    return hit ? null : ['category_id', `category ${s.category_id} does not exist`]
  }
  if (s.type === 'cms_block') {
    const hit = await db
      .prepare('SELECT id FROM cms_blocks WHERE identifier = ?')
      .bind(s.block_identifier)
      .first()
    return hit ? null : ['block_identifier', `CMS block ${s.block_identifier} does not exist`]
  }
  if (s.type === 'products') {
    const { results } = await db
      .prepare('SELECT sku FROM products WHERE sku IN (SELECT value FROM json_each(?))')
      .bind(JSON.stringify(s.skus))
      .all<{ sku: string }>()
    const known = new Set(results.map((r) => r.sku))
    const missing = s.skus.filter((sku) => !known.has(sku))
    return missing.length
      ? ['skus', `no product has the SKU${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`]
      : null
  }
  return null
}

/** A refused home change: the reason beside its field (the form keeps what was typed). */
const refuseField = (field: string, why: string): never => {
  throw new HTTPException(400, {
    message: `Invalid home section: ${why}`,
    cause: { fields: { [field]: why } },
  })
}

/** Writes the changed parts over the document as it was read (409 when it changed meanwhile). */
async function writeHome(
  env: Env,
  read: { text: string | null; doc: Record<string, unknown> },
  change: Record<string, unknown>,
  audit: { actor: string; action: string; target: string; before?: unknown; after?: unknown },
  now: number,
) {
  const db = env.DB
  const text = JSON.stringify({ ...read.doc, ...change })
  const write =
    read.text === null
      ? db
          .prepare(
            "INSERT INTO content_docs (kind, store_id, doc) VALUES ('home', 0, ?) ON CONFLICT DO NOTHING RETURNING kind",
          )
          .bind(text)
      : db
          .prepare(
            "UPDATE content_docs SET doc = ?1 WHERE kind = 'home' AND store_id = 0 AND doc = ?2 RETURNING kind",
          )
          .bind(text, read.text)
  const [written] = await db.batch([
    write,
    auditStatement(db, audit, now, { onlyIfChanged: true }),
    bumpIndexVersionStatement(db),
  ])
  // Written or not is the row the statement returns: D1's change count also counts the rows its
  // triggers write (the reference-data version), so it is not one for one written document.
  if (written?.results.length !== 1)
    fail(409, 'The home page was changed by someone else meanwhile: reload it and make your change again.')
  return purgedCount(await purgeCacheTags(env, ['home']))
}

/** Adds a section (no id) or replaces the section with that id. */
export async function saveHomeSection(env: Env, input: HomeSectionInput, actor: string, now: number) {
  const problem = await brokenReference(env.DB, input)
  if (problem) refuseField(...problem)
  const read = await readHome(env.DB)
  const sections = sectionsOf(read.doc)
  const { id: given, ...fields } = input
  const index = given === undefined ? -1 : sections.findIndex((s) => s.id === given)
  if (given !== undefined && index < 0) return fail(404, `Home section ${given} does not exist.`)
  if (index < 0 && sections.length >= MAX_SECTIONS)
    return fail(400, `Invalid home section: the home page holds at most ${MAX_SECTIONS} sections`)
  const id = given ?? Math.max(0, ...sections.map((s) => s.id)) + 1
  const before = index >= 0 ? sections[index] : undefined
  // A section keeps nothing of its old type: switching type drops the old fields.
  const section: StoredSection = { id, ...fields }
  if (input.type === 'category_products') {
    const cat = await env.DB.prepare('SELECT name FROM categories WHERE id = ?')
      .bind(input.category_id)
      .first<{ name: string | null }>()
    section.category_name = cat?.name ?? input.title
  }
  const next = index >= 0 ? sections.map((s, i) => (i === index ? section : s)) : [...sections, section]
  const purged = await writeHome(
    env,
    read,
    { sections: next },
    { actor, action: 'home.section.save', target: `home-section:${id}`, before, after: section },
    now,
  )
  return { section, purged }
}

/** Removes a section. */
export async function deleteHomeSection(env: Env, id: number, actor: string, now: number) {
  const read = await readHome(env.DB)
  const sections = sectionsOf(read.doc)
  const before = sections.find((s) => s.id === id)
  if (!before) return fail(404, `Home section ${id} does not exist.`)
  const purged = await writeHome(
    env,
    read,
    { sections: sections.filter((s) => s.id !== id) },
    { actor, action: 'home.section.delete', target: `home-section:${id}`, before },
    now,
  )
  return { deleted: id, purged }
}

interface StoredBanner {
  id: number
  title?: string
  image?: string
  link?: string
  [key: string]: unknown
}

const bannersOf = (doc: Record<string, unknown>) => {
  const banners = (doc.banners && typeof doc.banners === 'object' ? doc.banners : {}) as Record<
    string,
    unknown
  >
  const main = (Array.isArray(banners.main) ? banners.main : []) as StoredBanner[]
  return { banners, main }
}

/** The hero's banners in the order they show. */
export async function listHeroBanners(db: D1Database): Promise<StoredBanner[]> {
  return bannersOf((await readHome(db)).doc).main
}

/** Most banners the hero shows. */
const MAX_BANNERS = 10

/** Adds a hero banner (its picture must be in the media library). */
export async function addHeroBanner(env: Env, input: HeroBannerInput, actor: string, now: number) {
  const pic = await env.DB.prepare('SELECT path FROM media WHERE path = ?1').bind(input.image).first()
  if (!pic) refuseField('image', 'pick a picture from the media library')
  const read = await readHome(env.DB)
  const { banners, main } = bannersOf(read.doc)
  if (main.length >= MAX_BANNERS) refuseField('title', `the hero shows at most ${MAX_BANNERS} banners`)
  const id = Math.max(0, ...main.map((b) => Number(b.id) || 0)) + 1
  const banner: StoredBanner = { id, ...input }
  const purged = await writeHome(
    env,
    read,
    { banners: { ...banners, main: [...main, banner] } },
    { actor, action: 'home.banner.add', target: `home-banner:${id}`, after: banner },
    now,
  )
  return { banner, purged }
}

/** Removes a hero banner. */
export async function deleteHeroBanner(env: Env, id: number, actor: string, now: number) {
  const read = await readHome(env.DB)
  const { banners, main } = bannersOf(read.doc)
  const before = main.find((b) => Number(b.id) === id)
  if (!before) return fail(404, `Hero banner ${id} does not exist.`)
  const purged = await writeHome(
    env,
    read,
    { banners: { ...banners, main: main.filter((b) => b !== before) } },
    { actor, action: 'home.banner.delete', target: `home-banner:${id}`, before },
    now,
  )
  return { deleted: id, purged }
}
