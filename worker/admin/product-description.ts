/**
 * A product's description, written with the content pages' block editor (./content-blocks.ts).
 * The rules:
 * - The blocks are checked (each refusal beside its field, `b{n}.{field}`) and turned into HTML
 *   that passes through the shop's sanitiser; that HTML is the document's `description`, what the
 *   shop reads. The blocks are kept beside it (`description_blocks`), so the editor opens them again.
 * - A description without blocks (imported, or HTML from an API caller) opens as one "Formatted
 *   text (imported)" block; saved without an edit, it is stored exactly as it was.
 * - A JSON caller may still send `description` as HTML (sanitised the same way) or
 *   `description_blocks` as an array.
 * - The editor's buttons (preview, add, move, remove) answer the form again with the draft, its
 *   preview and every value typed; nothing is saved.
 */
import { sanitizeHtml } from '@shared/domain/sanitize-html'
import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { MAX_API_BODY_BYTES } from '../platform/http'
import { applyEdit, type Block, blocksFromForm, blocksFromJson, renderBlocks } from './content-blocks'
import type { AdminEnv } from './env'
import { isFormPost } from './input'
import { mediaAlts } from './media'
import type { LibraryPicture } from './pages/block-editor'

/** The longest description stored (its sanitised HTML). */
const MAX_DESCRIPTION = 20_000
/** The form field saying the post comes from the editor (its blocks, possibly none, are the description). */
export const EDITOR_MARK = 'description_editor'
const BLOCK_FIELD = /^b\d{1,3}\./

/** The description's blocks as the editor opens them: its own, or its HTML as one imported block. */
function descriptionBlocks(doc: Record<string, unknown> | null): Block[] {
  if (Array.isArray(doc?.description_blocks)) return blocksFromJson(doc.description_blocks)
  const html = typeof doc?.description === 'string' ? doc.description : ''
  return html.trim() ? [{ type: 'html', text: html }] : []
}

/** Text as a browser sends it back from a textarea (CRLF line ends) compares equal to the stored text. */
const sameText = (a: string, b: string) =>
  a.replace(/\r\n?/g, '\n').trim() === b.replace(/\r\n?/g, '\n').trim()

export interface Described {
  description: string | null
  /** The blocks to keep beside it; undefined keeps none (HTML from an import or an API caller). */
  blocks?: Block[]
}

/** What the form or the JSON body says the description is, checked; a bad block is a 400 beside its field. */
export async function productDescription(
  db: D1Database,
  input: Record<string, unknown>,
  before: Record<string, unknown> | null,
): Promise<Described> {
  let blocks: Block[]
  if (input[EDITOR_MARK] !== undefined) blocks = blocksFromForm(input)
  else if (Array.isArray(input.description_blocks)) blocks = blocksFromJson(input.description_blocks)
  else {
    const html = typeof input.description === 'string' ? input.description : ''
    return { description: html.trim() ? sanitizeHtml(html) : null }
  }
  // The imported description opened as its one block and not edited: stored as it was.
  const was = typeof before?.description === 'string' ? before.description : null
  const only = blocks[0]
  if (
    was !== null &&
    !Array.isArray(before?.description_blocks) &&
    blocks.length === 1 &&
    only?.type === 'html' &&
    sameText(only.text ?? '', was)
  )
    return { description: was }
  const { html, fields } = await renderBlocks(db, blocks, await mediaAlts(db))
  if (html.length > MAX_DESCRIPTION && !Object.keys(fields).length)
    fields.description = `the description is too long (at most ${MAX_DESCRIPTION.toLocaleString('en-IN')} characters of HTML); shorten a block`
  const first = Object.entries(fields)[0]
  if (first) {
    const at = /^b(\d+)\./.exec(first[0])
    throw new HTTPException(400, {
      message: `Invalid product: description${at ? `, block ${Number(at[1]) + 1}` : ''}: ${first[1]}`,
      cause: { fields },
    })
  }
  return { description: html.trim() ? html : null, blocks }
}

/** What the product form's editor shows: the blocks (saved, or the draft sent back), their preview and the library. */
export async function descriptionEditor(
  c: Context<AdminEnv>,
  doc: Record<string, unknown> | null,
  action: string,
): Promise<{ blocks: Block[]; preview: string; media: LibraryPicture[]; draft: boolean }> {
  const reply = c.var.formReply
  const mine = reply && reply.action === action && reply.form === '' ? reply : null
  const blocks = mine ? blocksFromForm(mine.values) : descriptionBlocks(doc)
  const library = await mediaAlts(c.env.DB)
  const { html } = await renderBlocks(c.env.DB, blocks, library)
  return {
    blocks,
    preview: html,
    media: [...library].map(([path, alt]) => ({ path, alt })),
    draft: mine !== null && mine.message === '',
  }
}

/**
 * A post of the product form by one of the editor's buttons (`_op` other than save): the values
 * the form is shown again with (./replies.ts `draftOnPage`), the blocks moved, added or removed
 * and every other value as typed; nothing is saved. Null for a save (and for a body too large to
 * read, which the save refuses).
 */
export async function productDraft(c: Context<AdminEnv>): Promise<Record<string, string> | null> {
  if (!isFormPost(c) || Number(c.req.header('content-length') ?? 0) > MAX_API_BODY_BYTES) return null
  const form = await c.req.parseBody()
  const op = typeof form._op === 'string' ? form._op : ''
  if (!op || op === 'save') return null
  const blocks = applyEdit(blocksFromForm(form), op, form.add_type)
  const values: Record<string, string> = {}
  for (const [k, v] of Object.entries(form))
    if (typeof v === 'string' && !k.startsWith('_') && k !== 'return_to' && !BLOCK_FIELD.test(k))
      values[k] = v
  blocks.forEach((b, i) => {
    for (const [field, v] of Object.entries(b)) if (typeof v === 'string') values[`b${i}.${field}`] = v
  })
  return values
}
