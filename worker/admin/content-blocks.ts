/**
 * CMS content as structured blocks: a heading, text, an image from the media library, a button
 * (a link), a list of products, or formatted text kept from an import. The operator edits blocks,
 * never HTML; the blocks are turned into HTML here and that HTML is passed through the shop's one
 * sanitiser before it is stored, so what is stored is what the shop renders (the shop sanitises it
 * once more on the way out, which changes nothing). Text is escaped, never read as markup; a link
 * must be a path of the shop, an https address, mailto: or tel:; an image must be one of the media
 * library's. A bad block is refused with the reason beside its field.
 */

import { IMAGE_SIZES } from '@shared/config/images'
import { imageUrl } from '@shared/domain/image-url'
import { productUrl } from '@shared/domain/menu'
import { decodeEntities, isSafeUrl, sanitizeHtml } from '@shared/domain/sanitize-html'
import { HTTPException } from 'hono/http-exception'

/** Text as HTML text or an attribute value: every character that could start markup escaped. */
const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

export const BLOCK_TYPES = [
  ['heading', 'Heading'],
  ['text', 'Text'],
  ['image', 'Image'],
  ['button', 'Button (a link)'],
  ['products', 'Products'],
  ['html', 'Formatted text (imported)'],
] as const
type BlockType = (typeof BLOCK_TYPES)[number][0]

/** One block as the editor holds it: every field a string, as typed. */
export interface Block {
  type: BlockType
  text?: string
  level?: string
  src?: string
  alt?: string
  label?: string
  href?: string
  skus?: string
}

/** Most blocks one page holds. */
export const MAX_BLOCKS = 60
/** Most products one block lists. */
const MAX_BLOCK_SKUS = 24
/** The longest text of one field. */
const MAX_TEXT = 20_000

const isType = (t: unknown): t is BlockType => BLOCK_TYPES.some(([v]) => v === t)

/** The block's fields, each cut to its limit (what was typed is kept, never thrown away). */
function cleanBlock(raw: Record<string, unknown>): Block | null {
  if (!isType(raw.type)) return null
  const out: Block = { type: raw.type }
  for (const k of ['text', 'level', 'src', 'alt', 'label', 'href', 'skus'] as const) {
    const v = raw[k]
    if (typeof v === 'string') out[k] = v.slice(0, k === 'text' ? MAX_TEXT * 10 : MAX_TEXT)
    else if (Array.isArray(v) && k === 'skus') out.skus = v.map(String).join(', ')
  }
  return out
}

/** Blocks from a JSON body (an array of objects). */
export function blocksFromJson(value: unknown): Block[] {
  if (!Array.isArray(value)) return []
  return value
    .slice(0, MAX_BLOCKS + 1)
    .flatMap((b) => (b && typeof b === 'object' ? (cleanBlock(b as Record<string, unknown>) ?? []) : []))
}

/** Blocks from the editor's form: fields `b{n}.{field}` in the order of n. */
export function blocksFromForm(form: Record<string, unknown>): Block[] {
  const byIndex = new Map<number, Record<string, unknown>>()
  for (const [name, value] of Object.entries(form)) {
    const m = /^b(\d{1,3})\.([a-z]+)$/.exec(name)
    if (!m) continue
    const i = Number(m[1])
    const row = byIndex.get(i) ?? {}
    row[m[2] as string] = value
    byIndex.set(i, row)
  }
  return [...byIndex.entries()]
    .sort(([a], [b]) => a - b)
    .slice(0, MAX_BLOCKS + 1)
    .flatMap(([, raw]) => cleanBlock(raw) ?? [])
}

/** A top-level element of imported HTML the blocks can hold: a plain heading or paragraph. */
const PLAIN_ELEMENT = /^\s*<(h2|h3|p)>([^<]*)<\/\1>/i

/**
 * Imported HTML (content made before the block editor) as blocks: each plain heading (h2, h3) and
 * paragraph without markup inside becomes a heading or text block; everything else stays formatted
 * text, a block per run. The blocks render to the same sanitised HTML.
 */
export function blocksFromHtml(html: string): Block[] {
  const out: Block[] = []
  let rest = sanitizeHtml(html)
  let other = ''
  const flush = () => {
    if (other.trim()) out.push({ type: 'html', text: other.trim() })
    other = ''
  }
  while (rest.length && out.length < MAX_BLOCKS - 1) {
    const m = PLAIN_ELEMENT.exec(rest)
    if (m) {
      flush()
      const tag = (m[1] as string).toLowerCase()
      const text = decodeEntities(m[2] as string)
        .replace(/\s+/g, ' ')
        .trim()
      out.push(tag === 'p' ? { type: 'text', text } : { type: 'heading', text, level: tag.slice(1) })
      rest = rest.slice(m[0].length)
      continue
    }
    // Up to the next plain element, or the whole rest, stays formatted text.
    const next = rest.slice(1).search(/<(h2|h3|p)>[^<]*<\/\1>/i)
    const cut = next < 0 ? rest.length : next + 1
    other += rest.slice(0, cut)
    rest = rest.slice(cut)
  }
  other += rest
  flush()
  return out
}

/** The editor's moves: add a block of a type, move one up or down, remove one. */
export function applyEdit(blocks: Block[], op: string, addType: unknown): Block[] {
  const m = /^(up|down|remove):(\d{1,3})$/.exec(op)
  if (op === 'add' && isType(addType) && blocks.length < MAX_BLOCKS)
    return [...blocks, { type: addType, ...(addType === 'heading' ? { level: '2' } : {}) }]
  if (!m) return blocks
  const i = Number(m[2])
  const next = [...blocks]
  if (m[1] === 'remove') next.splice(i, 1)
  const j = m[1] === 'up' ? i - 1 : i + 1
  if (m[1] !== 'remove' && i < next.length && j >= 0 && j < next.length)
    [next[i], next[j]] = [next[j] as Block, next[i] as Block]
  return next
}

const skuListOf = (text: string | undefined) =>
  (text ?? '')
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean)

/** What a link may be: a path of the shop, or an https, mailto or tel address. */
function linkProblem(href: string): string | null {
  if (!href) return 'give the address the button opens, like /about-us'
  if (href.length > 500) return 'the address is too long (at most 500 characters)'
  if (href.startsWith('//') || !isSafeUrl(href) || /^http:/i.test(href))
    return 'the address must be a path of the shop (/about-us) or start with https://, mailto: or tel:'
  if (!/^(\/|https:\/\/|mailto:|tel:)/i.test(href)) return 'a path of the shop starts with /'
  return null
}

/** A product a products block shows: its name, address and picture. */
interface ListedProduct {
  sku: string
  name: string
  slug: string
  url_path: string
  image: string | null
}

/**
 * Checks every block (the reason keyed by its field, `b{n}.{field}`) and renders the blocks that
 * pass: the sanitised HTML the shop shows. `media` holds the media library's paths and alt texts.
 */
export async function renderBlocks(
  db: D1Database,
  blocks: Block[],
  media: ReadonlyMap<string, string>,
): Promise<{ html: string; fields: Record<string, string> }> {
  const fields: Record<string, string> = {}
  const refuse = (i: number, field: string, why: string) => {
    fields[`b${i}.${field}`] ??= why
  }
  if (blocks.length > MAX_BLOCKS) fields.blocks = `a page holds at most ${MAX_BLOCKS} blocks`
  const skus = [...new Set(blocks.flatMap((b) => (b.type === 'products' ? skuListOf(b.skus) : [])))]
  const products = new Map<string, ListedProduct>()
  if (skus.length) {
    const { results } = await db
      .prepare(
        `SELECT sku, name, slug, url_path, json_extract(doc, '$.image') AS image FROM products
         WHERE sku IN (SELECT value FROM json_each(?1)) AND status = 1`,
      )
      .bind(JSON.stringify(skus.slice(0, MAX_BLOCKS * MAX_BLOCK_SKUS)))
      .all<ListedProduct>()
    for (const p of results) products.set(p.sku, p)
  }
  const tile = IMAGE_SIZES.tile
  const parts = blocks.slice(0, MAX_BLOCKS).map((b, i) => {
    const text = (b.text ?? '').trim()
    switch (b.type) {
      case 'heading': {
        if (!text) refuse(i, 'text', 'type the heading')
        if (text.length > 200) refuse(i, 'text', 'a heading has at most 200 characters')
        const level = b.level === '3' ? 3 : 2
        return `<h${level}>${escapeHtml(text)}</h${level}>`
      }
      case 'text': {
        if (!text) refuse(i, 'text', 'type the text, or remove the block')
        if (text.length > MAX_TEXT) refuse(i, 'text', `a text block has at most ${MAX_TEXT} characters`)
        return text
          .split(/\n\s*\n/)
          .map((p) => `<p>${escapeHtml(p.trim()).replace(/\n/g, '<br>')}</p>`)
          .join('')
      }
      case 'image': {
        const src = (b.src ?? '').trim()
        const alt = (b.alt ?? '').trim() || media.get(src) || ''
        if (!src) refuse(i, 'src', 'pick an image from the media library')
        else if (!media.has(src)) refuse(i, 'src', 'this image is not in the media library')
        if (!alt) refuse(i, 'alt', 'describe the image for people who cannot see it (alt text)')
        const caption = text ? `<figcaption>${escapeHtml(text)}</figcaption>` : ''
        const size = IMAGE_SIZES.policy
        return `<figure><img src="${escapeHtml(imageUrl(src, size.width, size.height))}" alt="${escapeHtml(alt)}" width="${size.width}" height="${size.height}" loading="lazy">${caption}</figure>`
      }
      case 'button': {
        const label = (b.label ?? '').trim()
        const href = (b.href ?? '').trim()
        if (!label) refuse(i, 'label', 'type the words on the button')
        if (label.length > 100) refuse(i, 'label', 'a button says at most 100 characters')
        const problem = linkProblem(href)
        if (problem) refuse(i, 'href', problem)
        return `<p><a class="btn" href="${escapeHtml(href)}">${escapeHtml(label)}</a></p>`
      }
      case 'products': {
        const list = skuListOf(b.skus)
        if (!list.length) refuse(i, 'skus', 'list at least one SKU')
        if (list.length > MAX_BLOCK_SKUS) refuse(i, 'skus', `at most ${MAX_BLOCK_SKUS} products a block`)
        const missing = list.filter((s) => !products.has(s))
        if (missing.length)
          refuse(i, 'skus', `no product on sale has the SKU ${missing.slice(0, 5).join(', ')}`)
        const items = list.flatMap((s) => {
          const p = products.get(s)
          if (!p) return []
          const img = `<img src="${escapeHtml(imageUrl(p.image, tile.width, tile.height))}" alt="" width="${tile.width}" height="${tile.height}" loading="lazy">`
          return `<li><a href="${escapeHtml(productUrl(p))}">${img}<span>${escapeHtml(p.name)}</span></a></li>`
        })
        return `<ul class="cms-products">${items.join('')}</ul>`
      }
      case 'html': {
        if (text.length > MAX_TEXT * 10) refuse(i, 'text', 'formatted text has at most 200,000 characters')
        return text
      }
    }
    return ''
  })
  return { html: sanitizeHtml(parts.join('\n')), fields }
}

/** A 400 for refused blocks: the reasons by field, as every refused form carries them. */
export function refuseBlocks(fields: Record<string, string>): never {
  const first = Object.entries(fields)[0]
  const where = first ? /^b(\d+)\./.exec(first[0]) : null
  const at = where ? `block ${Number(where[1]) + 1}: ` : ''
  throw new HTTPException(400, {
    message: `Invalid content: ${at}${first?.[1] ?? 'check the blocks'}`,
    cause: { fields },
  })
}
