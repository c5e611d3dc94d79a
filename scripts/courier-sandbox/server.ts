/**
 * Runs the local courier stand-in as a Node HTTP server (started by `npm start` when no courier
 * keys are set): node scripts/courier-sandbox/server.ts --port 8987 --shop http://localhost:8787
 * [--clock SECONDS] moves every parcel one step along each SECONDS (0 = only from the TEST page).
 * (`--print-vars` prints the shop's settings for it instead.)
 */
import { serveStandIn } from '../stand-in-server.ts'
import { COURIER_SANDBOX_SECRETS, courierSandboxVars, createCourierSandbox } from './sandbox.ts'

const args = process.argv.slice(2)
const opt = (name: string, fallback: string) => {
  const i = args.indexOf(name)
  return i >= 0 ? (args[i + 1] ?? fallback) : fallback
}
const port = Number(opt('--port', '8987'))
const shop = opt('--shop', 'http://localhost:8787')
const clockSeconds = Number(opt('--clock', '0'))
const origin = `http://127.0.0.1:${port}`

if (args.includes('--print-vars')) {
  console.log(JSON.stringify(courierSandboxVars(origin)))
  process.exit(0)
}

const sandbox = createCourierSandbox({
  origin,
  shopOrigin: shop,
  ...COURIER_SANDBOX_SECRETS,
  // Webhooks go out after the answer, like the courier's, and a failed delivery is logged.
  deliver: async (url, init) => {
    setTimeout(() => {
      fetch(url, init)
        .then((r) => console.log(`[courier-sandbox] webhook → ${r.status} ${url}`))
        .catch((err) => console.error(`[courier-sandbox] webhook failed: ${err}`))
    }, 200)
  },
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
