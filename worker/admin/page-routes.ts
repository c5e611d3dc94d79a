/** The back office's pages (GET, for a signed-in operator): each reads its data and renders. */
import { Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { vitalsP75 } from '../vitals/store'
import { listAudit } from './audit'
import { authoringProduct, authoringType, categoryChoices, matrixOptions } from './authoring'
import { setMemberChoices } from './authoring-sets'
import { bulkPages } from './bulk-routes'
import { searchProducts } from './catalogue'
import { categoryPages } from './category-routes'
import { contentPageRoutes } from './content-routes'
import { listCoupons } from './coupons'
import { findCustomer, guestOrders, searchCustomers } from './customers'
import { dashboard } from './dashboard'
import type { AdminEnv } from './env'
import { fulfilmentWork, ordersToShip } from './fulfilment'
import { mailTemplatePages } from './mail-templates'
import { todaysManifests } from './manifests'
import { mediaAlts } from './media'
import { listRedirects, outboxSummary } from './operations'
import { listOperators } from './operators'
import { listOrders } from './order-list'
import { orderDetail } from './orders'
import { authoringAction, authoringPage } from './pages/authoring'
import { productsPage } from './pages/catalogue'
import { couponsPage } from './pages/coupons'
import { customersPage } from './pages/customers'
import { dashboardPage, fieldDataPage } from './pages/dashboard'
import { fulfilmentPage } from './pages/fulfilment'
import { auditPage, operationsPage, operatorsPage } from './pages/operations'
import { orderPage, ordersPage } from './pages/orders'
import { reviewsPage } from './pages/reviews'
import { pickableAttributes } from './product-attributes'
import { descriptionEditor } from './product-description'
import { orderFilter, orderNumber, positiveId } from './request'
import { pendingReviews, publishedReviews, reviewPhoto } from './reviews'

/** Days of field data the back office shows. */
export const FIELD_DATA_DAYS = 14

export const pageRoutes = new Hono<AdminEnv>()
pageRoutes.route('/', mailTemplatePages)

pageRoutes.get('/', async (c) => dashboardPage(c, await dashboard(c.env.DB, Date.now())))
pageRoutes.get('/orders', async (c) => {
  const f = orderFilter(c)
  return ordersPage(c, f, await listOrders(c.env.DB, f))
})
pageRoutes.get('/orders/:number', async (c) => orderPage(c, await orderDetail(c.env.DB, orderNumber(c))))
pageRoutes.get('/reviews', async (c) =>
  reviewsPage(c, await pendingReviews(c.env.DB), await publishedReviews(c.env.DB)),
)
pageRoutes.get('/reviews/photo/:file{[0-9a-f]{24}\\.(?:jpg|png|webp)}', (c) =>
  reviewPhoto(c, c.req.param('file')),
)
pageRoutes.get('/products', async (c) => {
  const q = (c.req.query('q') ?? '').trim().slice(0, 100)
  return productsPage(c, q, q ? await searchProducts(c.env.DB, q) : [])
})
pageRoutes.route('/', bulkPages)
pageRoutes.route('/', categoryPages)
pageRoutes.get('/products/new', async (c) => {
  const type = authoringType(c.req.query('type'))
  const [categories, options] = [await categoryChoices(c.env.DB), await matrixOptions(c.env.DB)]
  return authoringPage(c, {
    product: null,
    type,
    categories,
    ...options,
    members: await setMemberChoices(c.env.DB, type),
    attributes: await pickableAttributes(c.env.DB),
    editor: await descriptionEditor(c, null, authoringAction(null)),
  })
})
pageRoutes.get('/products/:id/edit', async (c) => {
  const product = await authoringProduct(c.env.DB, positiveId(c, 'product'))
  const type = authoringType(product.doc.type_id)
  const [categories, options] = [await categoryChoices(c.env.DB), await matrixOptions(c.env.DB)]
  return authoringPage(c, {
    product,
    type,
    categories,
    ...options,
    members: await setMemberChoices(c.env.DB, type),
    attributes: await pickableAttributes(c.env.DB),
    library: await mediaAlts(c.env.DB),
    editor: await descriptionEditor(c, product.doc, authoringAction(product.doc.id)),
  })
})
pageRoutes.get('/customers', async (c) => {
  const email = (c.req.query('email') ?? '').trim().toLowerCase().slice(0, 254)
  const q = (c.req.query('q') ?? '').trim().slice(0, 100)
  const found = email
    ? await findCustomer(c.env.DB, email).catch((err) =>
        err instanceof HTTPException && err.status === 404 ? null : Promise.reject(err),
      )
    : null
  const guest = email && !found ? await guestOrders(c.env.DB, email) : []
  const list = email ? [] : await searchCustomers(c.env.DB, q)
  return customersPage(c, { q, list, email, found, guest: guest as never })
})
pageRoutes.get('/fulfilment', async (c) =>
  fulfilmentPage(c, {
    ...(await fulfilmentWork(c.env.DB)),
    toShip: await ordersToShip(c.env.DB),
    manifests: await todaysManifests(c.env.DB, Date.now()),
  }),
)
pageRoutes.get('/coupons', async (c) =>
  couponsPage(c, (await listCoupons(c.env.DB)) as Record<string, unknown>[]),
)
pageRoutes.get('/operations', async (c) =>
  operationsPage(c, { outbox: await outboxSummary(c.env.DB), redirects: await listRedirects(c.env) }),
)
pageRoutes.get('/audit', async (c) => auditPage(c, await listAudit(c.env.DB)))
pageRoutes.get('/operators', async (c) => operatorsPage(c, await listOperators(c.env.DB)))
pageRoutes.get('/field-data', async (c) =>
  fieldDataPage(c, await vitalsP75(c.env, FIELD_DATA_DAYS, Date.now())),
)
pageRoutes.route('/', contentPageRoutes)
