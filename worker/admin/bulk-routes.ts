/**
 * The routes of changes to many products (./bulk.ts): the page, the catalogue's CSV download
 * (every operator may read it), and the dry run and apply of a file or of an action on picked
 * products (owners only: `bulk`). A dry run asked by a form is answered with the page showing it.
 */
import { type Context, Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { z } from 'zod'
import { fail, ok } from '../platform/http'
import { categoryChoices } from './authoring'
import { withSetsRefreshed } from './authoring-sets'
import { applyPlan, type BulkAction, MAX_CHANGED_PRODUCTS, type Plan, planAction, planFile } from './bulk'
import { catalogueCsv, exportName } from './bulk-csv'
import { searchProducts } from './catalogue'
import type { AdminEnv } from './env'
import { isFormPost, readInput } from './input'
import { bulkPage } from './pages/bulk'
import { allow } from './request'

const Confirmed = {
  apply: z.string().optional(),
  fingerprint: z
    .string()
    .regex(/^[0-9a-f]{64}$/, 'the confirmation is not one this page gave')
    .optional(),
}
const FileSchema = z.looseObject({
  csv: z
    .string()
    .max(1024 * 1024, 'the file is too large (at most 1 MB)')
    .optional(),
  ...Confirmed,
})
const ActionSchema = z.looseObject({
  action: z.enum(['publish', 'unpublish', 'category', 'percent'], { error: 'choose what to change' }),
  category_id: z.coerce.number().int().positive('choose a category').optional(),
  percent: z
    .union([
      z.number(),
      z
        .string()
        .trim()
        .regex(/^-?\d{1,3}(\.\d{1,2})?$/, 'percent: a number like 10 or -12.5'),
    ])
    .transform(Number)
    .pipe(
      z
        .number()
        .min(-90, 'percent: at least -90')
        .max(300, 'percent: at most 300')
        .refine((n) => n !== 0, 'percent: 0 changes nothing'),
    )
    .optional(),
  ids: z.array(z.number().int().positive()).optional(),
  ...Confirmed,
})

async function pageData(c: Context<AdminEnv>) {
  const q = (c.req.query('q') ?? '').trim().slice(0, 100)
  return { q, hits: await searchProducts(c.env.DB, q), categories: await categoryChoices(c.env.DB) }
}

/** The page: GET /admin/products/bulk. */
export const bulkPages = new Hono<AdminEnv>()
bulkPages.get('/products/bulk', async (c) => {
  const applied = Number(c.req.query('applied'))
  return bulkPage(c, {
    ...(await pageData(c)),
    applied: Number.isSafeInteger(applied) && applied >= 0 && c.req.query('applied') ? applied : undefined,
  })
})

/** The dry run's answer, or the applied change's (a form goes back to the page saying so). */
async function answerPlan(
  c: Context<AdminEnv>,
  plan: Plan,
  input: { apply?: string; fingerprint?: string },
  shown: (plan: Plan) => Promise<Response>,
) {
  if (input.apply) {
    const now = Date.now()
    const applied = await applyPlan(c.env, plan, input.fingerprint ?? '', c.var.operator.email, now)
    const done = await withSetsRefreshed(
      c.env,
      plan.changes.map((ch) => ch.sku),
      applied,
      now,
    )
    return isFormPost(c)
      ? c.redirect(`/admin/products/bulk?applied=${done.applied}`, 303)
      : ok(c as never, done)
  }
  if (isFormPost(c)) return shown(plan)
  return ok(c as never, {
    fingerprint: plan.fingerprint,
    rows: plan.rows,
    changes: plan.changes.map((ch) => ({ id: ch.id, sku: ch.sku, name: ch.name, changes: ch.words })),
    refused: plan.refused,
  })
}

/** The API: /admin/api/products.csv and /admin/api/products/bulk/*. */
export const bulkApi = new Hono<AdminEnv>()
bulkApi.get('/products.csv', async (c) =>
  c.body(await catalogueCsv(c.env.DB), 200, {
    'content-type': 'text/csv; charset=utf-8',
    'content-disposition': `attachment; filename="${exportName()}"`,
  }),
)
bulkApi.post('/products/bulk/csv', allow('bulk'), async (c) => {
  const input = await readInput(c, FileSchema, 'bulk change')
  const form = isFormPost(c) ? await c.req.parseBody() : {}
  const upload = form.file
  const csv = upload instanceof File && upload.size > 0 ? await upload.text() : (input.csv ?? '')
  if (!csv.trim()) fail(400, 'Invalid bulk change: choose a CSV file or paste its rows')
  const plan = await planFile(c.env.DB, csv, Date.now())
  return answerPlan(c, plan, input, async (p) =>
    bulkPage(c, { ...(await pageData(c)), filePlan: { plan: p, csv } }),
  )
})
bulkApi.post('/products/bulk/action', allow('bulk'), async (c) => {
  const input = await readInput(c, ActionSchema, 'bulk change')
  const picked = Object.keys(input)
    .map((k) => /^id_(\d{1,12})$/.exec(k)?.[1])
    .filter((id): id is string => id !== undefined)
    .map(Number)
  const ids = [...new Set([...(input.ids ?? []), ...picked])]
  const refuse = (field: string, why: string): never => {
    throw new HTTPException(400, {
      message: `Invalid bulk change: ${why}`,
      cause: { fields: { [field]: why } },
    })
  }
  if (ids.length === 0) refuse('ids', 'pick at least one product')
  if (ids.length > MAX_CHANGED_PRODUCTS)
    refuse('ids', `pick at most ${MAX_CHANGED_PRODUCTS} products at a time`)
  let action: BulkAction
  if (input.action === 'category') {
    if (!input.category_id) return refuse('category_id', 'choose a category')
    action = { kind: 'category', categoryId: input.category_id }
  } else if (input.action === 'percent') {
    if (input.percent === undefined) return refuse('percent', 'type a percentage, like 10 or -10')
    action = { kind: 'percent', percent: input.percent }
  } else action = { kind: input.action }
  const plan = await planAction(c.env, ids, action, Date.now())
  // The confirmation posts the same request again, with the fingerprint of what it showed.
  const fields: [string, string][] = [
    ...ids.map((id) => [`id_${id}`, 'on'] as [string, string]),
    ['action', input.action],
    ...(action.kind === 'category' ? [['category_id', String(action.categoryId)] as [string, string]] : []),
    ...(action.kind === 'percent' ? [['percent', String(action.percent)] as [string, string]] : []),
  ]
  return answerPlan(c, plan, input, async (p) =>
    bulkPage(c, { ...(await pageData(c)), actionPlan: { plan: p, fields } }),
  )
})
