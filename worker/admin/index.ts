/**
 * The back office, mounted at /admin: pages (/admin, /admin/orders, …) and JSON (/admin/api/*).
 * Every answer is private (never stored by any cache), not for search engines, and carries its own
 * Content-Security-Policy (no script at all; its one stylesheet by nonce). Everything but the
 * sign-in form needs an operator (see session.ts), and each change needs the role that allows it.
 */
import { type Context, Hono, type MiddlewareHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { secureHeaders } from 'hono/secure-headers'
import { z } from 'zod'
import { runAfterAnswer } from '../api/mail/deliver'
import { mailRestocked } from '../api/stock-alerts/notify'
import { describeIssues, fail, noStore, ok } from '../platform/http'
import {
  handleError,
  isTransientError,
  MSG_TEMPORARILY_UNAVAILABLE,
  RETRY_AFTER_SECONDS,
} from '../platform/middleware/errors'
import { vitalsP75 } from '../vitals/store'
import { listAudit } from './audit'
import { ProductPatchSchema, StockSchema, searchProducts, setStock, updateProduct } from './catalogue'
import {
  ContentSchema,
  contentItem,
  listContent,
  PreviewSchema,
  previewContent,
  publishContent,
} from './content'
import { CouponPatchSchema, createCoupon, listCoupons, NewCouponSchema, updateCoupon } from './coupons'
import { CreditSchema, DisableSchema, findCustomer, moveCredit, setCustomerDisabled } from './customers'
import { dashboard } from './dashboard'
import type { AdminEnv } from './env'
import { deleteHomeSection, HomeSectionSchema, listHomeSections, saveHomeSection } from './home'
import { answer, isFormPost, readInput } from './input'
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
import { listOrders, OrderFilterSchema, ordersCsv } from './order-list'
import {
  addNote,
  moveOrder,
  NoteSchema,
  orderDetail,
  RefundSchema,
  refundPart,
  TransitionSchema,
} from './orders'
import { contentEditPage, contentPage, homeSectionsPage } from './pages/content'
import { loginPage } from './pages/frame'
import { orderPage, ordersPage } from './pages/orders'
import {
  auditPage,
  couponsPage,
  customersPage,
  dashboardPage,
  fieldDataPage,
  operationsPage,
  operatorsPage,
  productsPage,
  reviewsPage,
} from './pages/screens'
import { decideReview, deleteReview, pendingReviews, publishedReviews } from './reviews'
import { can, type Permission } from './roles'
import { requireOperator, signIn, signOut } from './session'

/** Days of field data the back office shows. */
const FIELD_DATA_DAYS = 14

const nonce = (c: Context) => `'nonce-${(c as Context<AdminEnv>).var.nonce}'`

const adminHeaders = secureHeaders({
  strictTransportSecurity: 'max-age=63072000; includeSubDomains; preload',
  xFrameOptions: 'DENY',
  referrerPolicy: 'same-origin',
  crossOriginOpenerPolicy: 'same-origin',
  crossOriginResourcePolicy: 'same-origin',
  contentSecurityPolicy: {
    defaultSrc: ["'none'"],
    scriptSrc: ["'none'"],
    styleSrc: [nonce],
    imgSrc: ["'self'", 'data:'],
    formAction: ["'self'"],
    baseUri: ["'none'"],
    frameAncestors: ["'none'"],
  },
})

const notForRobots: MiddlewareHandler<AdminEnv> = async (c, next) => {
  await next()
  c.header('X-Robots-Tag', 'noindex, nofollow')
}

/** Refuses a request whose operator's role does not include `permission` (403 naming the role). */
const allow =
  (permission: Permission): MiddlewareHandler<AdminEnv> =>
  async (c, next) => {
    const op = c.var.operator
    if (!can(op.role, permission)) fail(403, `Your role (${op.role}) may not do this (${permission}).`)
    await next()
  }

const actorOf = (c: Context<AdminEnv>) => ({
  env: c.env,
  config: c.var.config,
  executionCtx: c.executionCtx,
  actor: c.var.operator.email,
})

const NumberParam = z.string().regex(/^[0-9]{1,18}$/, 'must be an order number')
const orderNumber = (c: Context<AdminEnv>) => {
  const parsed = NumberParam.safeParse(c.req.param('number'))
  return parsed.success
    ? parsed.data
    : fail(400, `Invalid order number: ${c.req.param('number')?.slice(0, 40)}`)
}
/** The `:id` of the path as a positive whole number, or a 400 naming what it should be. */
const positiveId = (c: Context<AdminEnv>, what: string) => {
  const id = Number(c.req.param('id'))
  return Number.isSafeInteger(id) && id > 0
    ? id
    : fail(400, `Invalid ${what} id: must be a positive whole number`)
}
const reviewId = (c: Context<AdminEnv>) => {
  const id = Number(c.req.param('id'))
  return Number.isSafeInteger(id) && id > 0
    ? id
    : fail(400, 'Invalid review id: must be a positive whole number')
}

const LoginSchema = z.object({
  email: z
    .string({ error: 'email is required' })
    .trim()
    .toLowerCase()
    .email('email is not an e-mail address')
    .max(254),
  password: z
    .string({ error: 'password is required' })
    .min(1, 'password is required')
    .max(200, 'password is too long'),
})
const EmailQuery = z.object({
  email: z.string().trim().toLowerCase().email('email is not an e-mail address').max(254),
})

const contentKind = (c: Context<AdminEnv>) => {
  const kind = c.req.param('kind')
  return kind === 'page' || kind === 'block' ? kind : fail(400, 'Invalid content kind: page or block')
}
const formNumber = z
  .string()
  .regex(/^\d{1,9}(\.\d{1,2})?$/, 'must be a number like 1299 or 1299.50')
  .transform(Number)
// An empty field means "unchanged"; the "remove the special price" box removes it and its window.
const ProductFormSchema = z
  .object({
    price: formNumber.optional(),
    special_price: formNumber.optional(),
    special_from_date: z.string().optional(),
    special_to_date: z.string().optional(),
    remove_special_price: z.literal('on').optional(),
    status: formNumber.optional(),
    visibility: formNumber.optional(),
  })
  .transform(({ remove_special_price, ...rest }) =>
    remove_special_price
      ? { ...rest, special_price: null, special_from_date: null, special_to_date: null }
      : rest,
  )
const RedirectFormSchema = z.object({
  path: z.string({ error: 'path is required' }),
  to: z.string({ error: 'to is required' }),
})

export const adminApp = new Hono<AdminEnv>()
adminApp.use('*', noStore, notForRobots, adminHeaders)

adminApp.get('/login', (c) => loginPage(c))
adminApp.post('/login', async (c) => {
  const input = await readInput(c, LoginSchema, 'sign-in')
  try {
    const op = await signIn(c, input.email, input.password)
    return isFormPost(c) ? c.redirect('/admin', 303) : ok(c as never, { email: op.email, role: op.role })
  } catch (err) {
    if (isFormPost(c) && err instanceof HTTPException && err.status < 500)
      return loginPage(c, err.message, err.status as 400 | 401 | 403 | 429)
    throw err
  }
})

adminApp.use('*', requireOperator)

adminApp.post('/logout', async (c) => {
  await signOut(c)
  return isFormPost(c) ? c.redirect('/admin/login', 303) : ok(c as never, { signedOut: true })
})

// Pages
adminApp.get('/', async (c) => dashboardPage(c, await dashboard(c.env.DB, Date.now())))
adminApp.get('/orders', async (c) => {
  const f = await filterOf(c)
  return ordersPage(c, f, await listOrders(c.env.DB, f))
})
adminApp.get('/orders/:number', async (c) => orderPage(c, await orderDetail(c.env.DB, orderNumber(c))))
adminApp.get('/reviews', async (c) =>
  reviewsPage(c, await pendingReviews(c.env.DB), await publishedReviews(c.env.DB)),
)
adminApp.get('/products', async (c) => {
  const q = (c.req.query('q') ?? '').trim().slice(0, 100)
  return productsPage(c, q, q ? await searchProducts(c.env.DB, q) : [])
})
adminApp.get('/customers', async (c) => {
  const email = (c.req.query('email') ?? '').trim().toLowerCase().slice(0, 254)
  const found = email
    ? await findCustomer(c.env.DB, email).catch((err) =>
        err instanceof HTTPException && err.status === 404 ? null : Promise.reject(err),
      )
    : null
  return customersPage(c, email, found)
})
adminApp.get('/coupons', async (c) =>
  couponsPage(c, (await listCoupons(c.env.DB)) as Record<string, unknown>[]),
)
adminApp.get('/content', async (c) =>
  contentPage(
    c,
    (await listContent(c.env.DB, 'page')) as Record<string, unknown>[],
    (await listContent(c.env.DB, 'block')) as Record<string, unknown>[],
  ),
)
adminApp.get('/content/:kind/:id', async (c) => {
  const kind = contentKind(c)
  const item = await contentItem(c.env.DB, kind, Number(c.req.param('id')))
  return contentEditPage(c, kind, item, previewContent(item.content).html)
})
adminApp.get('/operations', async (c) => operationsPage(c, { outbox: await outboxSummary(c.env.DB) }))
adminApp.get('/audit', async (c) => auditPage(c, await listAudit(c.env.DB)))
adminApp.get('/home', async (c) => homeSectionsPage(c, await listHomeSections(c.env.DB)))
adminApp.get('/operators', async (c) => operatorsPage(c, await listOperators(c.env.DB)))
adminApp.get('/field-data', async (c) =>
  fieldDataPage(c, await vitalsP75(c.env, FIELD_DATA_DAYS, Date.now())),
)

function filterOf(c: Context<AdminEnv>) {
  const parsed = OrderFilterSchema.safeParse(c.req.query())
  if (!parsed.success) return fail(400, `Invalid order filter: ${describeIssues(parsed.error)}`)
  return parsed.data
}

// JSON
const api = new Hono<AdminEnv>()
api.get('/me', (c) =>
  ok(c as never, { email: c.var.operator.email, role: c.var.operator.role, csrf: c.var.csrf }),
)
api.get('/dashboard', async (c) => ok(c as never, await dashboard(c.env.DB, Date.now())))
api.get('/orders', async (c) => {
  const f = await filterOf(c)
  const list = await listOrders(c.env.DB, f)
  return ok(c as never, list.rows, { total: list.total, page: f.page })
})
api.get('/orders.csv', async (c) => {
  const csv = await ordersCsv(c.env.DB, await filterOf(c))
  return c.body(csv, 200, {
    'content-type': 'text/csv; charset=utf-8',
    'content-disposition': 'attachment; filename="orders.csv"',
  })
})
api.get('/orders/:number', async (c) => ok(c as never, await orderDetail(c.env.DB, orderNumber(c))))
api.post('/orders/:number/transition', allow('orders'), async (c) => {
  const number = orderNumber(c)
  const req = await readInput(c, TransitionSchema, 'order change')
  return answer(c, await moveOrder(actorOf(c), number, req, Date.now()), `/admin/orders/${number}`)
})
api.post('/orders/:number/refund', allow('orders'), async (c) => {
  const number = orderNumber(c)
  const req = await readInput(c, RefundSchema, 'refund')
  return answer(c, await refundPart(actorOf(c), number, req, Date.now()), `/admin/orders/${number}`)
})
api.post('/orders/:number/note', allow('orders'), async (c) => {
  const number = orderNumber(c)
  const req = await readInput(c, NoteSchema, 'note')
  return answer(c, await addNote(actorOf(c), number, req.text, Date.now()), `/admin/orders/${number}`)
})
api.get('/reviews', async (c) => ok(c as never, await pendingReviews(c.env.DB)))
api.post('/reviews/:id/:decision{approve|reject}', allow('reviews'), async (c) => {
  const decision = c.req.param('decision') as 'approve' | 'reject'
  const result = await decideReview(c.env, reviewId(c), decision, c.var.operator.email, Date.now())
  return answer(c, result, '/admin/reviews')
})
api.post('/reviews/:id/delete', allow('reviews'), async (c) =>
  answer(c, await deleteReview(c.env, reviewId(c), c.var.operator.email, Date.now()), '/admin/reviews'),
)
api.get('/customers', allow('read'), async (c) => {
  const q = EmailQuery.safeParse(c.req.query())
  if (!q.success) return fail(400, 'Invalid customer lookup: email is not an e-mail address')
  return ok(c as never, await findCustomer(c.env.DB, q.data.email))
})
api.post('/customers/:id/credit', allow('money'), async (c) => {
  const id = Number(c.req.param('id'))
  if (!Number.isSafeInteger(id) || id <= 0)
    return fail(400, 'Invalid customer id: must be a positive whole number')
  const req = await readInput(c, CreditSchema, 'store credit change')
  return answer(c, await moveCredit(c.env.DB, id, req, c.var.operator.email, Date.now()))
})
api.post('/customers/:id/disabled', allow('customers'), async (c) => {
  const id = Number(c.req.param('id'))
  if (!Number.isSafeInteger(id) || id <= 0)
    return fail(400, 'Invalid customer id: must be a positive whole number')
  const req = await readInput(c, DisableSchema, 'account change')
  return answer(c, await setCustomerDisabled(c.env.DB, id, req.disabled, c.var.operator.email, Date.now()))
})
api.get('/audit', async (c) =>
  ok(c as never, await listAudit(c.env.DB, { target: c.req.query('target') || undefined })),
)
api.get('/operators', async (c) => ok(c as never, await listOperators(c.env.DB)))
api.post('/operators', allow('operators'), async (c) => {
  const req = await readInput(c, NewOperatorSchema, 'operator')
  return answer(c, await createOperator(c.env.DB, req, c.var.operator.email, Date.now()), '/admin/operators')
})
api.post('/operators/:id', allow('operators'), async (c) => {
  const id = positiveId(c, 'operator')
  const req = await readInput(c, OperatorPatchSchema, 'operator change')
  return answer(c, await updateOperator(c.env.DB, id, req, c.var.operator, Date.now()), '/admin/operators')
})
api.get('/field-data', async (c) => ok(c as never, await vitalsP75(c.env, FIELD_DATA_DAYS, Date.now())))
api.get('/home/sections', async (c) => ok(c as never, await listHomeSections(c.env.DB)))
api.post('/home/sections', allow('content'), async (c) => {
  const req = await readInput(c, HomeSectionSchema, 'home section')
  return answer(c, await saveHomeSection(c.env, req, c.var.operator.email, Date.now()), '/admin/home')
})
api.post('/home/sections/:id', allow('content'), async (c) => {
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
api.post('/home/sections/:id/delete', allow('content'), async (c) => {
  const id = positiveId(c, 'home section')
  return answer(c, await deleteHomeSection(c.env, id, c.var.operator.email, Date.now()), '/admin/home')
})
api.get('/products', async (c) => {
  const q = (c.req.query('q') ?? '').trim()
  if (!q || q.length > 100) return fail(400, 'Invalid product search: q: between 1 and 100 characters')
  return ok(c as never, await searchProducts(c.env.DB, q))
})
api.post('/products/:id', allow('catalogue'), async (c) => {
  const id = Number(c.req.param('id'))
  if (!Number.isSafeInteger(id) || id <= 0)
    return fail(400, 'Invalid product id: must be a positive whole number')
  const patch = await readInput(c, ProductPatchSchema, 'product change')
  return answer(c, await updateProduct(c.env, id, patch, c.var.operator.email, Date.now()))
})
// The product form sends text: numbers are read as numbers, and only fields given are changed.
api.post('/products/:id/form', allow('catalogue'), async (c) => {
  const id = Number(c.req.param('id'))
  if (!Number.isSafeInteger(id) || id <= 0)
    return fail(400, 'Invalid product id: must be a positive whole number')
  const form = await readInput(c, ProductFormSchema, 'product change')
  const patch = ProductPatchSchema.safeParse(form)
  if (!patch.success) return fail(400, `Invalid product change: ${describeIssues(patch.error)}`)
  return answer(c, await updateProduct(c.env, id, patch.data, c.var.operator.email, Date.now()))
})
api.post('/stock/:sku', allow('catalogue'), async (c) => {
  const sku = c.req.param('sku')
  if (!sku || sku.length > 128) return fail(400, 'Invalid sku: between 1 and 128 characters')
  const req = await readInput(c, StockSchema, 'stock change')
  const result = await setStock(c.env, sku, req, c.var.operator.email, Date.now())
  // Stock put back: shoppers waiting for this sku hear at once, not on the next scheduled run.
  runAfterAnswer(c, () => mailRestocked(c.env, [sku], Date.now()), 'back-in-stock mail')
  return answer(c, result)
})
api.get('/outbox', async (c) => ok(c as never, await outboxSummary(c.env.DB)))
api.post('/outbox/:box/:id/retry', allow('operations'), async (c) => {
  const box = c.req.param('box')
  if (box !== 'mail' && box !== 'analytics') return fail(404, `There is no ${box} outbox.`)
  const id = Number(c.req.param('id'))
  if (!Number.isSafeInteger(id) || id <= 0)
    return fail(400, `Invalid ${box === 'mail' ? 'mail' : 'event'} id: must be a positive whole number`)
  return answer(c, await retryOutbox(c.env, box, id, c.var.operator.email, Date.now()))
})
api.post('/cache/purge', allow('operations'), async (c) => {
  const req = await readInput(c, PurgeSchema, 'cache purge')
  return answer(c, await purgeTags(c.env, req.tags, c.var.operator.email, Date.now()))
})
api.post('/urls', allow('operations'), async (c) => {
  const req = await readInput(c, MappingSchema, 'URL mapping')
  return answer(c, await putMapping(c.env, req, c.var.operator.email, Date.now()))
})
api.post('/urls/form', allow('operations'), async (c) => {
  const form = await readInput(c, RedirectFormSchema, 'URL mapping')
  const req = MappingSchema.safeParse({
    path: form.path,
    value: { type: 'redirect', to: form.to, status: 301 },
  })
  if (!req.success) return fail(400, `Invalid URL mapping: ${describeIssues(req.error)}`)
  return answer(c, await putMapping(c.env, req.data, c.var.operator.email, Date.now()))
})
api.delete('/urls', allow('operations'), async (c) => {
  const path = c.req.query('path') ?? ''
  if (!path || path.length > 512) return fail(400, 'Invalid URL mapping: path: between 1 and 512 characters')
  return ok(c as never, await deleteMapping(c.env, path, c.var.operator.email, Date.now()))
})
api.get('/coupons', async (c) => ok(c as never, await listCoupons(c.env.DB)))
api.post('/coupons', allow('money'), async (c) => {
  const req = await readInput(c, NewCouponSchema, 'coupon')
  return answer(c, await createCoupon(c.env.DB, req, c.var.operator.email, Date.now()))
})
api.post('/coupons/:code', allow('money'), async (c) => {
  const code = c.req.param('code')
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(code)) return fail(400, 'Invalid coupon code: letters, digits, _ or -')
  const req = await readInput(c, CouponPatchSchema, 'coupon change')
  return answer(c, await updateCoupon(c.env.DB, code, req, c.var.operator.email, Date.now()))
})
api.get('/content/:kind', async (c) => ok(c as never, await listContent(c.env.DB, contentKind(c))))
api.post('/content/preview', allow('content'), async (c) => {
  const req = await readInput(c, PreviewSchema, 'preview')
  return ok(c as never, previewContent(req.content))
})
api.post('/content/:kind/:id', allow('content'), async (c) => {
  const kind = contentKind(c)
  const id = Number(c.req.param('id'))
  if (!Number.isSafeInteger(id) || id <= 0)
    return fail(400, 'Invalid content id: must be a positive whole number')
  const req = await readInput(c, ContentSchema, 'content')
  return answer(c, await publishContent(c.env, kind, id, req, c.var.operator.email, Date.now()))
})
adminApp.route('/api', api)

// JSON callers (/admin/api, or a JSON body) get the envelope, pages the shop's error page.
adminApp.onError((err, c) => {
  if (
    c.req.path.startsWith('/admin/api/') ||
    (c.req.header('content-type') ?? '').includes('application/json')
  ) {
    if (err instanceof HTTPException) return c.json({ code: err.status, result: err.message }, err.status)
    console.error(JSON.stringify({ requestId: c.var.requestId, msg: 'admin api failed', err: String(err) }))
    if (isTransientError(err)) {
      c.header('Retry-After', String(RETRY_AFTER_SECONDS))
      return c.json({ code: 503, result: MSG_TEMPORARILY_UNAVAILABLE }, 503)
    }
    return c.json({ code: 500, result: `Internal error (request ${c.var.requestId})` }, 500)
  }
  return handleError(err, c as never)
})
