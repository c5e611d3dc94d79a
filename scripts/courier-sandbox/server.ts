/**
 * Runs the local courier stand-in as a Node HTTP server (started by `npm start` when no courier
 * keys are set): node scripts/courier-sandbox/server.ts --port 8987 --shop http://localhost:8787
 * [--clock SECONDS] moves every parcel one step along each SECONDS (0 = only from the TEST page).
 * (`--print-vars` prints the shop's settings for it instead.)
 */
import { deliverLater, serveStandIn, standInArgs } from '../stand-in-server.ts'
import { COURIER_SANDBOX_SECRETS, courierSandboxVars, createCourierSandbox } from './sandbox.ts'

const { opt, port, shop, origin, printVars } = standInArgs(8987)
const clockSeconds = Number(opt('--clock', '0'))

if (printVars) {
  console.log(JSON.stringify(courierSandboxVars(origin)))
  process.exit(0)
}

const sandbox = createCourierSandbox({
  origin,
  shopOrigin: shop,
  ...COURIER_SANDBOX_SECRETS,
  // Webhooks go out after the answer, like the courier's, and a failed delivery is logged.
  deliver: deliverLater('courier-sandbox'),
})

// The clock: booked → picked up → in transit → out for delivery → delivered (reverse pickups:
// picked up → delivered to the shop), one step per tick.
const NEXT: Record<number, number> = { 1: 42, 3: 42, 42: 18, 18: 17, 17: 7 }
if (clockSeconds > 0)
  setInterval(() => {
    for (const o of sandbox.moving()) {
      const next = o.isReturn
        ? ({ 1: 42, 3: 42, 42: 7 } as Record<number, number>)[o.statusId]
        : NEXT[o.statusId]
      if (next && o.awb) void sandbox.advance(o.awb, next)
    }
  }, clockSeconds * 1000)

serveStandIn(
  origin,
  port,
  (request) => sandbox.fetch(request),
  () => {
    console.log(`[courier-sandbox] TEST courier at ${origin}/test (webhooks to ${shop})`)
  },
)
