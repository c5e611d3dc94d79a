/**
 * Runs the local courier stand-in as a Node HTTP server (started by `npm start` when no courier
 * keys are set): node scripts/courier-sandbox/server.ts --port 8987 --shop http://localhost:8787
 * [--clock SECONDS] moves every parcel one step along each SECONDS (0 = only from the TEST page).
 * (`--print-vars` prints the shop's settings for it instead.)
 */
import { runStandIn } from '../stand-in-server.ts'
import { COURIER_SANDBOX_SECRETS, courierSandboxVars, createCourierSandbox } from './sandbox.ts'

const { standIn: sandbox, opt } = runStandIn({
  name: 'courier-sandbox',
  defaultPort: 8987,
  vars: courierSandboxVars,
  create: (at) => createCourierSandbox({ ...at, ...COURIER_SANDBOX_SECRETS }),
  listening: ({ origin, shop }) => `TEST courier at ${origin}/test (webhooks to ${shop})`,
})
const clockSeconds = Number(opt('--clock', '0'))

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
