/**
 * Runs the local WhatsApp stand-in as a Node HTTP server (started by `npm start` when no WhatsApp
 * keys are set): node scripts/whatsapp-sandbox/server.ts --port 9087 --shop http://localhost:8787
 * (`--print-vars` prints the shop's settings for it instead). Its TEST page is /test.
 */
import { serveStandIn } from '../stand-in-server.ts'
import { createWhatsAppSandbox, WHATSAPP_SANDBOX_SECRETS, whatsappSandboxVars } from './sandbox.ts'

const args = process.argv.slice(2)
const opt = (name: string, fallback: string) => {
  const i = args.indexOf(name)
  return i >= 0 ? (args[i + 1] ?? fallback) : fallback
}
const port = Number(opt('--port', '9087'))
const shop = opt('--shop', 'http://localhost:8787')
const origin = `http://127.0.0.1:${port}`

if (args.includes('--print-vars')) {
  console.log(JSON.stringify(whatsappSandboxVars(origin)))
  process.exit(0)
}

const sandbox = createWhatsAppSandbox({
  origin,
  shopOrigin: shop,
  ...WHATSAPP_SANDBOX_SECRETS,
  // Notifications go out after the answer, like Meta's; a failed delivery is logged.
  deliver: async (url, init) => {
    setTimeout(() => {
      fetch(url, init)
        .then((r) => console.log(`[whatsapp-sandbox] webhook → ${r.status} ${url}`))
        .catch((err) => console.error(`[whatsapp-sandbox] webhook failed: ${err}`))
    }, 200)
  },
})

serveStandIn(
  origin,
  port,
  (request) => sandbox.fetch(request),
  () => {
    console.log(`[whatsapp-sandbox] TEST WhatsApp at ${origin}/test (webhooks to ${shop})`)
    // The handshake Meta makes when the callback URL is saved; the shop may still be starting.
    setTimeout(() => void sandbox.verifyShop(), 8000)
  },
)
