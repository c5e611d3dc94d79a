/**
 * The routes of the content screens: CMS pages and blocks with their block editor, the media
 * library, the home page's sections and banners, and the cash-on-delivery rules. Pages (GET) are
 * mounted with the other pages, changes under /admin/api with the other API routes; each change
 * names the permission it needs.
 */
import { Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { z } from 'zod'
import { purgeCacheTags } from '../platform/cache/purge'
import { describeIssues, fail, MAX_API_BODY_BYTES, ok } from '../platform/http'
import { categoryChoices } from './authoring'
import { searchProducts } from './catalogue'
import {
  ContentSchema,
  composeContent,
  contentItem,
  createContent,
  deleteContent,
  listContent,
  NewContentSchema,
  previewContent,
  publishContent,
} from './content'
import { applyEdit, type Block, blocksFromForm, renderBlocks } from './content-blocks'
import type { AdminEnv } from './env'
import {
  addHeroBanner,
  deleteHeroBanner,
  deleteHomeSection,
  HeroBannerSchema,
  HomeSectionSchema,
  listHeroBanners,
  listHomeSections,
  saveHomeSection,
} from './home'
import { answer, isFormPost, readInput } from './input'
import { deleteMedia, listMedia, mediaAlts, mediaPath, setMediaAlt, uploadMedia } from './media'
import { contentEditPage, contentPage, type EditorView } from './pages/content'
import { homeSectionsPage } from './pages/home'
import { mediaPage } from './pages/media'
import { rulesPage } from './pages/rules'
import { allow, contentKind, positiveId } from './request'
import {
  addBlock,
  addMadeToOrder,
  BlockSchema,
  listRules,
  MadeToOrderSchema,
  PrepaidDiscountSchema,
  removeBlock,
  removeMadeToOrder,
  savePrepaidDiscount,
} from './rules'

export const contentPageRoutes = new Hono<AdminEnv>()
export const contentApiRoutes = new Hono<AdminEnv>()

contentPageRoutes.get('/content', async (c) =>
  contentPage(
    c,
    (await listContent(c.env.DB, 'page')) as Record<string, unknown>[],
    (await listContent(c.env.DB, 'block')) as Record<string, unknown>[],
  ),
)
contentPageRoutes.get('/content/:kind/:id', async (c) => {
  const kind = contentKind(c)
  const item = await contentItem(c.env.DB, kind, Number(c.req.param('id')))
  const media = await listMedia(c.env.DB)
  return contentEditPage(c, {
    kind,
    item,
    blocks: item.blocks,
    preview: previewContent(item.content).html,
    media,
  })
})
contentPageRoutes.get('/media', async (c) => mediaPage(c, await listMedia(c.env.DB)))
contentPageRoutes.get('/home', async (c) => {
  const db = c.env.DB
  const q = (c.req.query('q') ?? '').trim().slice(0, 100)
  const [sections, banners, categories, blocks, pages, media, found] = await Promise.all([
    listHomeSections(db),
    listHeroBanners(db),
    categoryChoices(db),
    listContent(db, 'block'),
    listContent(db, 'page'),
    listMedia(db),
    q ? searchProducts(db, q) : Promise.resolve([]),
  ])
  return homeSectionsPage(c, sections, banners, {
    categories,
    blocks: blocks as { identifier: string; title?: unknown }[],
    pages: (pages as { identifier: string; title?: unknown; is_active: number }[]).filter((p) => p.is_active),
    media,
    q,
    found: found.slice(0, 20).map((p) => ({ sku: p.sku, name: p.name })),
  })
})
contentPageRoutes.get('/rules', async (c) => rulesPage(c, await listRules(c.env.DB)))

// Content: create, publish (JSON: HTML or blocks), delete, preview.
contentApiRoutes.get('/content/:kind', async (c) =>
  ok(c as never, await listContent(c.env.DB, contentKind(c))),
)
const PreviewSchema = z.object({
  content: z.string().max(200_000, 'content is too long (at most 200,000 characters)').optional(),
  blocks: z.array(z.unknown()).optional(),
})
contentApiRoutes.post('/content/preview', allow('content'), async (c) => {
  const req = await readInput(c, PreviewSchema, 'preview')
  const composed = await composeContent(c.env.DB, req)
  return ok(c as never, previewContent(composed?.content ?? ''))
})
contentApiRoutes.post('/content/:kind', allow('content'), async (c) => {
  const kind = contentKind(c)
  const req = await readInput(c, NewContentSchema, 'content')
  const made = await createContent(c.env, kind, req, c.var.operator.email, Date.now())
  if (isFormPost(c)) return c.redirect(`/admin/content/${kind}/${made.id}`, 303)
  return answer(c, made)
})
contentApiRoutes.post('/content/:kind/:id/delete', allow('content'), async (c) => {
  const kind = contentKind(c)
  const id = positiveId(c, 'content')
  const gone = await deleteContent(c.env, kind, id, c.var.operator.email, Date.now())
  // Its own page is gone: a form returns to the list.
  if (isFormPost(c)) return c.redirect('/admin/content', 303)
  return answer(c, gone)
})
/**
 * The block editor's one form. Its buttons: preview, add, move or remove a block (the draft comes
 * back with its preview, nothing saved), or publish (saved when every block is good; otherwise
 * the draft comes back, 400, with each reason beside its field).
 */
contentApiRoutes.post('/content/:kind/:id/editor', allow('content'), async (c) => {
  const kind = contentKind(c)
  const id = positiveId(c, 'content')
  if (!isFormPost(c)) return fail(400, 'Invalid content: the editor sends a form; JSON callers post blocks')
  if (Number(c.req.header('content-length') ?? 0) > MAX_API_BODY_BYTES)
    return fail(400, `Request body is too large (at most ${MAX_API_BODY_BYTES} bytes)`)
  const form = await c.req.parseBody()
  const op = typeof form._op === 'string' ? form._op : 'publish'
  const title = typeof form.title === 'string' ? form.title : ''
  const isActive = form.is_active === 'true'
  const saved = await contentItem(c.env.DB, kind, id)
  const back = `/admin/content/${kind}/${id}`
  let blocks: Block[] = blocksFromForm(form)
  if (op === 'publish') {
    const input = ContentSchema.safeParse({ title, blocks, is_active: isActive })
    try {
      if (!input.success)
        throw new HTTPException(400, {
          message: `Invalid content: ${describeIssues(input.error)}`,
          cause: {
            fields: Object.fromEntries(input.error.issues.map((i) => [String(i.path[0]), i.message])),
          },
        })
      await publishContent(c.env, kind, id, input.data, c.var.operator.email, Date.now())
      return c.redirect(back, 303)
    } catch (err) {
      if (!(err instanceof HTTPException) || err.status !== 400) throw err
      c.set('formReply', {
        action: new URL(c.req.url).pathname,
        form: '',
        values: { title, is_active: String(isActive) },
        message: err.message,
        fields: (err.cause as { fields?: Record<string, string> } | undefined)?.fields ?? {},
      })
    }
  } else blocks = applyEdit(blocks, op, form.add_type)
  const { html } = await renderBlocks(c.env.DB, blocks, await mediaAlts(c.env.DB))
  const view: EditorView = {
    kind,
    item: { id, identifier: saved.identifier, title, is_active: isActive },
    blocks,
    preview: previewContent(html).html,
    media: await listMedia(c.env.DB),
    draft: true,
  }
  return contentEditPage(c, view, op === 'publish' ? 400 : 200)
})
contentApiRoutes.post('/content/:kind/:id', allow('content'), async (c) => {
  const kind = contentKind(c)
  const id = positiveId(c, 'content')
  const req = await readInput(c, ContentSchema, 'content')
  return answer(c, await publishContent(c.env, kind, id, req, c.var.operator.email, Date.now()))
})

// The media library.
contentApiRoutes.get('/media', async (c) => ok(c as never, await listMedia(c.env.DB)))
contentApiRoutes.post('/media', allow('content'), async (c) =>
  answer(c, await uploadMedia(c, Date.now()), '/admin/media'),
)
const MediaAltSchema = z.object({
  path: z.string({ error: 'path is required' }),
  alt: z.string().default(''),
})
contentApiRoutes.post('/media/alt', allow('content'), async (c) => {
  const req = await readInput(c, MediaAltSchema, 'picture')
  const result = await setMediaAlt(c.env.DB, mediaPath(req.path), req.alt, c.var.operator.email, Date.now())
  return answer(c, result, '/admin/media')
})
contentApiRoutes.post('/media/delete', allow('content'), async (c) => {
  const req = await readInput(c, z.object({ path: z.string({ error: 'path is required' }) }), 'picture')
  return answer(
    c,
    await deleteMedia(c.env, mediaPath(req.path), c.var.operator.email, Date.now()),
    '/admin/media',
  )
})

// The home page: sections and hero banners.
contentApiRoutes.get('/home/sections', async (c) => ok(c as never, await listHomeSections(c.env.DB)))
contentApiRoutes.post('/home/sections', allow('content'), async (c) => {
  const req = await readInput(c, HomeSectionSchema, 'home section')
  return answer(c, await saveHomeSection(c.env, req, c.var.operator.email, Date.now()), '/admin/home')
})
contentApiRoutes.post('/home/sections/:id', allow('content'), async (c) => {
  const id = positiveId(c, 'home section')
  const req = await readInput(c, HomeSectionSchema, 'home section')
  if (req.id !== undefined && req.id !== id)
    return fail(400, 'Invalid home section: id differs from the address')
  return answer(
    c,
    await saveHomeSection(c.env, { ...req, id }, c.var.operator.email, Date.now()),
    '/admin/home',
  )
})
contentApiRoutes.post('/home/sections/:id/delete', allow('content'), async (c) => {
  const id = positiveId(c, 'home section')
  return answer(c, await deleteHomeSection(c.env, id, c.var.operator.email, Date.now()), '/admin/home')
})
contentApiRoutes.post('/home/banners', allow('content'), async (c) => {
  const req = await readInput(c, HeroBannerSchema, 'home banner')
  return answer(c, await addHeroBanner(c.env, req, c.var.operator.email, Date.now()), '/admin/home')
})
contentApiRoutes.post('/home/banners/:id/delete', allow('content'), async (c) => {
  const id = positiveId(c, 'home banner')
  return answer(c, await deleteHeroBanner(c.env, id, c.var.operator.email, Date.now()), '/admin/home')
})

// Cash-on-delivery rules. A product's pages say whether it is made to order: a change purges them.
contentApiRoutes.get('/rules', async (c) => ok(c as never, await listRules(c.env.DB)))
contentApiRoutes.post('/rules/made-to-order', allow('catalogue'), async (c) => {
  const req = await readInput(c, MadeToOrderSchema, 'rule')
  const added = await addMadeToOrder(c.env.DB, req.sku, c.var.operator.email, Date.now())
  await purgeCacheTags(c.env, [`P${req.sku}`])
  return answer(c, added, '/admin/rules')
})
contentApiRoutes.post('/rules/made-to-order/delete', allow('catalogue'), async (c) => {
  const req = await readInput(c, MadeToOrderSchema, 'rule')
  const removed = await removeMadeToOrder(c.env.DB, req.sku, c.var.operator.email, Date.now())
  await purgeCacheTags(c.env, [`P${req.sku}`])
  return answer(c, removed, '/admin/rules')
})
contentApiRoutes.post('/rules/prepaid-discount', allow('orders'), async (c) => {
  const req = await readInput(c, PrepaidDiscountSchema, 'rule')
  return answer(c, await savePrepaidDiscount(c.env.DB, req, c.var.operator.email, Date.now()), '/admin/rules')
})
for (const kind of ['pin', 'phone'] as const) {
  contentApiRoutes.post(`/rules/${kind}`, allow('orders'), async (c) => {
    const req = await readInput(c, BlockSchema.omit({ kind: true }), 'rule')
    return answer(
      c,
      await addBlock(c.env.DB, { ...req, kind }, c.var.operator.email, Date.now()),
      '/admin/rules',
    )
  })
  contentApiRoutes.post(`/rules/${kind}/delete`, allow('orders'), async (c) => {
    const req = await readInput(
      c,
      z.object({ value: z.string({ error: 'value is required' }).max(30) }),
      'rule',
    )
    return answer(
      c,
      await removeBlock(c.env.DB, kind, req.value, c.var.operator.email, Date.now()),
      '/admin/rules',
    )
  })
}
