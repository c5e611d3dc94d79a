/**
 * /admin/api for shipping, returns and cash on delivery (./fulfilment.ts):
 *   GET  /fulfilment                         what waits: NDRs, RTOs, returns, COD, bookings
 *   POST /orders/:number/ready-to-ship       book the order with the courier
 *   POST /orders/:number/rto-received        {restock, note} an undelivered order back with us
 *   POST /orders/:number/cod-collected       cash collected by hand
 *   POST /orders/:number/cod-remitted        {utr} the courier paid the cash out
 *   POST /shipments/:id/ndr                  {action: re-attempt | return, comments}
 *   POST /shipments/:id/refresh              read the parcel back from the courier
 *   POST /returns/:id/inspect                {decisions: {itemId: accepted | rejected}, payout_reference?}
 *   POST /manifests                          the manifest for the parcels booked for pickup
 *   POST /manifests/:id/print                a manifest's document again (./manifests.ts)
 */
import { Hono } from 'hono'
import { refreshShipment } from '../fulfilment/events'
import { ok } from '../platform/http'
import type { AdminEnv } from './env'
import {
  actOnNdr,
  codCollected,
  codRemitted,
  fulfilmentWork,
  InspectSchema,
  inspect,
  NdrSchema,
  RemittanceSchema,
  RtoSchema,
  readyToShip,
  receiveRto,
} from './fulfilment'
import { answer, readInput } from './input'
import { manifestTodaysPickups, printManifestAgain } from './manifests'
import { actorOf, allow, orderNumber, positiveId } from './request'

export const fulfilmentApi = new Hono<AdminEnv>()

fulfilmentApi.get('/fulfilment', async (c) => ok(c as never, await fulfilmentWork(c.env.DB)))
fulfilmentApi.post('/orders/:number/ready-to-ship', allow('orders'), async (c) => {
  const number = orderNumber(c)
  return answer(c, await readyToShip(actorOf(c), number, Date.now()), `/admin/orders/${number}`)
})
fulfilmentApi.post('/orders/:number/rto-received', allow('orders'), async (c) => {
  const number = orderNumber(c)
  const req = await readInput(c, RtoSchema, 'receipt')
  return answer(c, await receiveRto(actorOf(c), number, req, Date.now()), '/admin/fulfilment')
})
fulfilmentApi.post('/orders/:number/cod-collected', allow('money'), async (c) => {
  const number = orderNumber(c)
  return answer(c, await codCollected(actorOf(c), number, Date.now()), '/admin/fulfilment')
})
fulfilmentApi.post('/orders/:number/cod-remitted', allow('money'), async (c) => {
  const number = orderNumber(c)
  const req = await readInput(c, RemittanceSchema, 'remittance')
  return answer(c, await codRemitted(actorOf(c), number, req, Date.now()), '/admin/fulfilment')
})
fulfilmentApi.post('/shipments/:id/ndr', allow('orders'), async (c) => {
  const id = positiveId(c, 'shipment')
  const req = await readInput(c, NdrSchema, 'NDR action')
  return answer(c, await actOnNdr(actorOf(c), id, req, Date.now()), '/admin/fulfilment')
})
fulfilmentApi.post('/shipments/:id/refresh', allow('orders'), async (c) => {
  const id = positiveId(c, 'shipment')
  const x = actorOf(c)
  return answer(c, { moved: await refreshShipment(x, id, x.actor, Date.now()) }, '/admin/fulfilment')
})
fulfilmentApi.post('/returns/:id/inspect', allow('money'), async (c) => {
  const id = positiveId(c, 'return')
  const req = await readInput(c, InspectSchema, 'inspection')
  return answer(c, await inspect(actorOf(c), id, req, Date.now()), '/admin/fulfilment')
})
fulfilmentApi.post('/manifests', allow('orders'), async (c) =>
  answer(c, await manifestTodaysPickups(actorOf(c), Date.now()), '/admin/fulfilment'),
)
fulfilmentApi.post('/manifests/:id/print', allow('orders'), async (c) => {
  const id = positiveId(c, 'manifest')
  return answer(c, await printManifestAgain(actorOf(c), id, Date.now()), '/admin/fulfilment')
})
