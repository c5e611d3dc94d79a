/**
 * Runs the local WhatsApp stand-in as a Node HTTP server (started by `npm start` when no WhatsApp
 * keys are set): node scripts/whatsapp-sandbox/server.ts --port 9087 --shop http://localhost:8787
 * (`--print-vars` prints the shop's settings for it instead). Its TEST page is /test.
 */
import { deliverLater, serveStandIn, standInArgs } from '../stand-in-server.ts'
import { createWhatsAppSandbox, WHATSAPP_SANDBOX_SECRETS, whatsappSandboxVars } from './sandbox.ts'

const { port, shop, origin, printVars } = standInArgs(9087)

if (printVars) {
  console.log(JSON.stringify(whatsappSandboxVars(origin)))
  process.exit(0)
}

const sandbox = createWhatsAppSandbox({
  origin,
  shopOrigin: shop,
  ...WHATSAPP_SANDBOX_SECRETS,
  // Notifications go out after the answer, like Meta's; a failed delivery is logged.
  deliver: deliverLater('whatsapp-sandbox'),
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
