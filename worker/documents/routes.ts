/**
 * /api/documents: a shopper's tax documents.
 *   POST /get  {orderNumber, accessKey?, number?} → the stored HTML of the order's invoice (or of
 *              the credit note `number` of the same order), as a file to keep or print.
 * Who may fetch it is who may open the order (worker/api/payment/access.ts): its signed-in
 * customer, the holder of its guest access key (POST body only) or of its signed order link (the
 * x-order-link header); anyone else gets the same 403 whether or not the order exists. The answer
 * is the document exactly as stored when it was issued.
 */
import { Hono } from 'hono'
import { z } from 'zod'
import { openOrder } from '../api/payment/access'
import type { AppEnv } from '../platform/env'
import { fail, jsonBody, noStore } from '../platform/http'
import { storedDocument, withStyleNonce } from './stored'

/** A request names an order and perhaps a document: a few hundred bytes. */
const MAX_BODY_BYTES = 4 * 1024

const GetDocumentBody = z.object({
  orderNumber: z
    .string({ error: 'orderNumber is required' })
    .regex(/^[0-9]{1,18}$/, 'orderNumber must be the order number (digits)'),
  accessKey: z.string().max(200, 'accessKey must be at most 200 characters').optional(),
  number: z
    .string()
    .regex(/^[A-Z0-9]{1,3}\/\d{2}-\d{2}\/\d{6}$/, 'number must be a document number such as OA/26-27/000123')
    .optional(),
})

export const documentRoutes = new Hono<AppEnv>()
documentRoutes.use('*', noStore)

documentRoutes.post(
  '/get',
  jsonBody(GetDocumentBody, { what: 'document request', maxBytes: MAX_BODY_BYTES }),
  async (c) => {
    const { orderNumber, accessKey, number } = c.req.valid('json')
    const order = await openOrder(c, orderNumber, accessKey)
    const doc = await storedDocument(c.env.DB, order.client_order_id, number)
    if (!doc)
      fail(
        404,
        number
          ? `Order ${orderNumber} has no document ${number}.`
          : `Order ${orderNumber} has no tax invoice yet: it is issued when the order is paid (cash on delivery: when it ships).`,
      )
    return c.body(withStyleNonce(doc.html, c.var.nonce), 200, {
      'content-type': 'text/html; charset=utf-8',
      'content-disposition': `attachment; filename="${doc.fileName}"`,
      'x-document-number': doc.number,
    })
  },
)
