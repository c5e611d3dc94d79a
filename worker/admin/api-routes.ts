/**
 * The back office's JSON API (/admin/api/*), also the target of every page form: reads are open
 * to every operator, each change needs the permission its route names (./roles.ts) and answers
 * the envelope to a JSON caller or a redirect back to a form's page (./input.ts).
 */
import { type Context, Hono } from 'hono'
import { z } from 'zod'
import { runAfterAnswer } from '../api/mail/deliver'
import { mailRestocked } from '../api/stock-alerts/notify'
import { describeIssues, fail, ok } from '../platform/http'
import { vitalsP75 } from '../vitals/store'
import { listAudit } from './audit'
import { AuthoringSchema, saveAuthoredProduct } from './authoring'
import { withSetsRefreshed } from './authoring-sets'
import { bulkApi } from './bulk-routes'
import { ProductPatchSchema, StockSchema, searchProducts, setStock, updateProduct } from './catalogue'
import { categoryApi } from './category-routes'
import { contentApiRoutes } from './content-routes'
import { CouponPatchSchema, createCoupon, listCoupons, NewCouponSchema, updateCoupon } from './coupons'
import { CreditSchema, DisableSchema, findCustomer, moveCredit, setCustomerDisabled } from './customers'
import { dashboard } from './dashboard'
import type { AdminEnv } from './env'
import { fulfilmentApi } from './fulfilment-routes'
import { answer, isFormPost, readInput, rupeesTyped } from './input'
import { mailTemplateApi } from './mail-templates'
import {
  deleteMapping,
  MappingSchema,
  outboxSummary,
  PurgeSchema,
  purgeTags,
  putMapping,
  retryOutbox,
} from './operations'
import {
  createOperator,
  listOperators,
  NewOperatorSchema,
  OperatorPatchSchema,
  updateOperator,
} from './operators'
import { listOrders, ordersCsv } from './order-list'
import {
  addNote,
  moveOrder,
  NoteSchema,
  orderDetail,
  RefundSchema,
  refundPart,
  TransitionSchema,
} from './orders'
import { FIELD_DATA_DAYS } from './page-routes'
import { productDraft } from './product-description'
import { describePhoto, movePhoto, PhotoMoveSchema, PhotoSchema, removePhoto } from './product-gallery'
import { PickImageSchema, pickProductImage, uploadProductImage } from './product-images'
import { draftOnPage } from './replies'
import { actorOf, allow, orderFilter, orderNumber, positiveId } from './request'
import { decideReview, deleteReview, pendingReviews } from './reviews'

const EmailQuery = z.object({
  email: z.string().trim().toLowerCase().email('email is not an e-mail address').max(254),
})
const formNumber = z
  .string()
  .regex(/^\d{1,9}(\.\d{1,2})?$/, 'must be a number like 1299 or 1299.50')
  .transform(Number)
// An empty field means "unchanged"; the "remove the special price" box removes it and its window.
const ProductFormSchema = z
  .object({
    price: rupeesTyped('price').optional(),
    special_price: rupeesTyped('special price').optional(),
    special_from_date: z.string().optional(),
    special_to_date: z.string().optional(),
    remove_special_price: z.literal('on').optional(),
    status: formNumber.optional(),
    visibility: formNumber.optional(),
    hsn_code: z.string().trim().optional(),
  })
  .transform(({ remove_special_price, hsn_code, ...rest }) => ({
    ...(remove_special_price
      ? { ...rest, special_price: null, special_from_date: null, special_to_date: null }
      : rest),
    ...(hsn_code ? { hsn_code } : {}),
  }))
const RedirectFormSchema = z.object({
  path: z.string({ error: 'path is required' }),
  to: z.string({ error: 'to is required' }),
})

export const apiRoutes = new Hono<AdminEnv>()
apiRoutes.get('/me', (c) =>
  ok(c as never, { email: c.var.operator.email, role: c.var.operator.role, csrf: c.var.csrf }),
)
apiRoutes.get('/dashboard', async (c) => ok(c as never, await dashboard(c.env.DB, Date.now())))
apiRoutes.get('/orders', async (c) => {
  const f = orderFilter(c)
  const list = await listOrders(c.env.DB, f)
  return ok(c as never, list.rows, { total: list.total, page: f.page })
})
apiRoutes.get('/orders.csv', async (c) => {
  const csv = await ordersCsv(c.env.DB, orderFilter(c))
  return c.body(csv, 200, {
    'content-type': 'text/csv; charset=utf-8',
    'content-disposition': 'attachment; filename="orders.csv"',
  })
})
apiRoutes.get('/orders/:number', async (c) => ok(c as never, await orderDetail(c.env.DB, orderNumber(c))))
apiRoutes.post('/orders/:number/transition', allow('orders'), async (c) => {
  const number = orderNumber(c)
  const req = await readInput(c, TransitionSchema, 'order change')
  return answer(c, await moveOrder(actorOf(c), number, req, Date.now()), `/admin/orders/${number}`)
})
apiRoutes.post('/orders/:number/refund', allow('orders'), async (c) => {
  const number = orderNumber(c)
  const req = await readInput(c, RefundSchema, 'refund')
  return answer(c, await refundPart(actorOf(c), number, req, Date.now()), `/admin/orders/${number}`)
})
apiRoutes.post('/orders/:number/note', allow('orders'), async (c) => {
  const number = orderNumber(c)
  const req = await readInput(c, NoteSchema, 'note')
  return answer(c, await addNote(actorOf(c), number, req.text, Date.now()), `/admin/orders/${number}`)
})
apiRoutes.get('/reviews', async (c) => ok(c as never, await pendingReviews(c.env.DB)))
apiRoutes.post('/reviews/:id/:decision{approve|reject}', allow('reviews'), async (c) => {
  const decision = c.req.param('decision') as 'approve' | 'reject'
  const result = await decideReview(
    c.env,
    positiveId(c, 'review'),
    decision,
    c.var.operator.email,
    Date.now(),
  )
  return answer(c, result, '/admin/reviews')
})
apiRoutes.post('/reviews/:id/delete', allow('reviews'), async (c) =>
  answer(
    c,
    await deleteReview(c.env, positiveId(c, 'review'), c.var.operator.email, Date.now()),
    '/admin/reviews',
  ),
)
apiRoutes.get('/customers', allow('read'), async (c) => {
  const q = EmailQuery.safeParse(c.req.query())
  if (!q.success) return fail(400, 'Invalid customer lookup: email is not an e-mail address')
  return ok(c as never, await findCustomer(c.env.DB, q.data.email))
})
apiRoutes.post('/customers/:id/credit', allow('money'), async (c) => {
  const id = positiveId(c, 'customer')
  const req = await readInput(c, CreditSchema, 'store credit change')
  return answer(c, await moveCredit(c.env.DB, id, req, c.var.operator.email, Date.now()))
})
apiRoutes.post('/customers/:id/disabled', allow('customers'), async (c) => {
  const id = positiveId(c, 'customer')
  const req = await readInput(c, DisableSchema, 'account change')
  return answer(c, await setCustomerDisabled(c.env.DB, id, req.disabled, c.var.operator.email, Date.now()))
})
apiRoutes.get('/audit', async (c) =>
  ok(c as never, await listAudit(c.env.DB, { target: c.req.query('target') || undefined })),
)
apiRoutes.get('/operators', async (c) => ok(c as never, await listOperators(c.env.DB)))
apiRoutes.post('/operators', allow('operators'), async (c) => {
  const req = await readInput(c, NewOperatorSchema, 'operator')
  return answer(c, await createOperator(c.env.DB, req, c.var.operator.email, Date.now()), '/admin/operators')
})
apiRoutes.post('/operators/:id', allow('operators'), async (c) => {
  const id = positiveId(c, 'operator')
  const req = await readInput(c, OperatorPatchSchema, 'operator change')
  return answer(c, await updateOperator(c.env.DB, id, req, c.var.operator, Date.now()), '/admin/operators')
})
apiRoutes.get('/field-data', async (c) => ok(c as never, await vitalsP75(c.env, FIELD_DATA_DAYS, Date.now())))
apiRoutes.get('/products', async (c) => {
  const q = (c.req.query('q') ?? '').trim()
  if (!q || q.length > 100) return fail(400, 'Invalid product search: q: between 1 and 100 characters')
  return ok(c as never, await searchProducts(c.env.DB, q))
})
// Authoring: create a product, or edit one from the revision the form was opened at.
apiRoutes.post('/products/authoring', allow('catalogue'), async (c) => {
  const draft = await productDraft(c)
  if (draft) return draftOnPage(c, draft)
  const req = await readInput(c, AuthoringSchema, 'product')
  const saved = await saveAuthoredProduct(c.env, null, req, c.var.operator.email, Date.now())
  if (isFormPost(c)) return c.redirect(`/admin/products/${saved.id}/edit`, 303)
  return answer(c, saved)
})
apiRoutes.post('/products/:id/authoring', allow('catalogue'), async (c) => {
  const id = positiveId(c, 'product')
  const draft = await productDraft(c)
  if (draft) return draftOnPage(c, draft)
  const req = await readInput(c, AuthoringSchema, 'product')
  return answer(c, await saveAuthoredProduct(c.env, id, req, c.var.operator.email, Date.now()))
})
apiRoutes.post('/products/:id/images', allow('catalogue'), async (c) =>
  answer(c, await uploadProductImage(c, positiveId(c, 'product'), Date.now())),
)
/**
 * A change of a product's photographs: the product's id from the path, the image form read with
 * `schema`, and `change` made by the operator now.
 */
const photoChange =
  <S extends z.ZodType>(
    schema: S,
    change: (env: Env, id: number, req: z.output<S>, actor: string, now: number) => Promise<unknown>,
  ) =>
  async (c: Context<AdminEnv>) => {
    const id = positiveId(c, 'product')
    const req = await readInput(c, schema, 'image')
    return answer(c, await change(c.env, id, req, c.var.operator.email, Date.now()))
  }
apiRoutes.post(
  '/products/:id/images/library',
  allow('catalogue'),
  photoChange(PickImageSchema, pickProductImage),
)
// A product's photographs: moved (position 1 is the main picture), removed, re-described.
apiRoutes.post('/products/:id/images/move', allow('catalogue'), photoChange(PhotoMoveSchema, movePhoto))
apiRoutes.post('/products/:id/images/remove', allow('catalogue'), photoChange(PhotoSchema, removePhoto))
apiRoutes.post('/products/:id/images/alt', allow('catalogue'), photoChange(PhotoSchema, describePhoto))
apiRoutes.post('/products/:id', allow('catalogue'), async (c) => {
  const id = positiveId(c, 'product')
  const patch = await readInput(c, ProductPatchSchema, 'product change')
  const now = Date.now()
  const saved = await updateProduct(c.env, id, patch, c.var.operator.email, now)
  return answer(c, await withSetsRefreshed(c.env, [saved.sku], saved, now))
})
// The product form sends text: numbers are read as numbers, and only fields given are changed.
apiRoutes.post('/products/:id/form', allow('catalogue'), async (c) => {
  const id = positiveId(c, 'product')
  const form = await readInput(c, ProductFormSchema, 'product change')
  const patch = ProductPatchSchema.safeParse(form)
  if (!patch.success) return fail(400, `Invalid product change: ${describeIssues(patch.error)}`)
  const now = Date.now()
  const saved = await updateProduct(c.env, id, patch.data, c.var.operator.email, now)
  return answer(c, await withSetsRefreshed(c.env, [saved.sku], saved, now))
})
apiRoutes.post('/stock/:sku', allow('catalogue'), async (c) => {
  const sku = c.req.param('sku')
  if (!sku || sku.length > 128) return fail(400, 'Invalid sku: between 1 and 128 characters')
  const req = await readInput(c, StockSchema, 'stock change')
  const result = await setStock(c.env, sku, req, c.var.operator.email, Date.now())
  // Stock put back: shoppers waiting for this sku hear at once, not on the next scheduled run.
  runAfterAnswer(c, () => mailRestocked(c.env, [sku], Date.now()), 'back-in-stock mail')
  return answer(c, result)
})
apiRoutes.get('/outbox', async (c) => ok(c as never, await outboxSummary(c.env.DB)))
apiRoutes.post('/outbox/:box/:id/retry', allow('operations'), async (c) => {
  const box = c.req.param('box')
  if (box !== 'mail' && box !== 'analytics') return fail(404, `There is no ${box} outbox.`)
  const id = positiveId(c, box === 'mail' ? 'mail' : 'event')
  return answer(c, await retryOutbox(c.env, box, id, c.var.operator.email, Date.now()))
})
apiRoutes.post('/cache/purge', allow('operations'), async (c) => {
  const req = await readInput(c, PurgeSchema, 'cache purge')
  return answer(c, await purgeTags(c.env, req.tags, c.var.operator.email, Date.now()))
})
apiRoutes.post('/urls', allow('operations'), async (c) => {
  const req = await readInput(c, MappingSchema, 'URL mapping')
  return answer(c, await putMapping(c.env, req, c.var.operator.email, Date.now()))
})
apiRoutes.post('/urls/form', allow('operations'), async (c) => {
  const form = await readInput(c, RedirectFormSchema, 'URL mapping')
  const req = MappingSchema.safeParse({
    path: form.path,
    value: { type: 'redirect', to: form.to, status: 301 },
  })
  if (!req.success) return fail(400, `Invalid URL mapping: ${describeIssues(req.error)}`)
  return answer(c, await putMapping(c.env, req.data, c.var.operator.email, Date.now()))
})
apiRoutes.post('/urls/delete', allow('operations'), async (c) => {
  const form = await readInput(
    c,
    z.object({ path: z.string({ error: 'path is required' }).max(512) }),
    'URL mapping',
  )
  return answer(c, await deleteMapping(c.env, form.path, c.var.operator.email, Date.now()))
})
apiRoutes.delete('/urls', allow('operations'), async (c) => {
  const path = c.req.query('path') ?? ''
  if (!path || path.length > 512) return fail(400, 'Invalid URL mapping: path: between 1 and 512 characters')
  return ok(c as never, await deleteMapping(c.env, path, c.var.operator.email, Date.now()))
})
apiRoutes.get('/coupons', async (c) => ok(c as never, await listCoupons(c.env.DB)))
apiRoutes.post('/coupons', allow('money'), async (c) => {
  const req = await readInput(c, NewCouponSchema, 'coupon')
  return answer(c, await createCoupon(c.env.DB, req, c.var.operator.email, Date.now()))
})
apiRoutes.post('/coupons/:code', allow('money'), async (c) => {
  const code = c.req.param('code')
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(code)) return fail(400, 'Invalid coupon code: letters, digits, _ or -')
  const req = await readInput(c, CouponPatchSchema, 'coupon change')
  return answer(c, await updateCoupon(c.env.DB, code, req, c.var.operator.email, Date.now()))
})
apiRoutes.route('/', fulfilmentApi)
apiRoutes.route('/', contentApiRoutes)
apiRoutes.route('/', mailTemplateApi)
apiRoutes.route('/', bulkApi)
apiRoutes.route('/', categoryApi)
