/**
 * Runs the local test payment provider as a Node HTTP server (started by `npm start` when no
 * payment keys are set): node scripts/payment-sandbox/server.ts --port 8887 --shop http://localhost:8787
 * (`--print-vars` prints the shop's settings for it instead)
 */
import { serveStandIn } from '../stand-in-server.ts'
import { createSandbox, SANDBOX_SECRETS, sandboxVars } from './sandbox.ts'

const args = process.argv.slice(2)
const opt = (name: string, fallback: string) => {
  const i = args.indexOf(name)
  return i >= 0 ? (args[i + 1] ?? fallback) : fallback
}
const port = Number(opt('--port', '8887'))
const shop = opt('--shop', 'http://localhost:8787')
const origin = `http://127.0.0.1:${port}`

// --print-vars: only print the shop settings for this sandbox (JSON) and exit.
if (args.includes('--print-vars')) {
  console.log(JSON.stringify(sandboxVars(origin)))
  process.exit(0)
}

const sandbox = createSandbox({
  origin,
  shopOrigin: shop,
  ...SANDBOX_SECRETS,
  // Webhooks go out after the answer, like a real provider's, and a failed delivery is logged.
  deliver: async (url, init) => {
    setTimeout(() => {
      fetch(url, init)
        .then((r) => console.log(`[payment-sandbox] webhook → ${r.status} ${url}`))
        .catch((err) => console.error(`[payment-sandbox] webhook failed: ${err}`))
    }, 200)
  },
})

serveStandIn(
  origin,
  port,
  (request) => sandbox.fetch(request),
  () => {
    console.log(`[payment-sandbox] TEST payment provider at ${origin} (webhooks to ${shop})`)
  },
)
