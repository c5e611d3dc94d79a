/**
 * Runs the local test payment provider as a Node HTTP server (started by `npm start` when no
 * payment keys are set): node scripts/payment-sandbox/server.ts --port 8887 --shop http://localhost:8787
 * (`--print-vars` prints the shop's settings for it instead)
 */
import { deliverLater, serveStandIn, standInArgs } from '../stand-in-server.ts'
import { createSandbox, SANDBOX_SECRETS, sandboxVars } from './sandbox.ts'

const { port, shop, origin, printVars } = standInArgs(8887)

// --print-vars: only print the shop settings for this sandbox (JSON) and exit.
if (printVars) {
  console.log(JSON.stringify(sandboxVars(origin)))
  process.exit(0)
}

const sandbox = createSandbox({
  origin,
  shopOrigin: shop,
  ...SANDBOX_SECRETS,
  // Webhooks go out after the answer, like a real provider's, and a failed delivery is logged.
  deliver: deliverLater('payment-sandbox'),
})

serveStandIn(
  origin,
  port,
  (request) => sandbox.fetch(request),
  () => {
    console.log(`[payment-sandbox] TEST payment provider at ${origin} (webhooks to ${shop})`)
  },
)
