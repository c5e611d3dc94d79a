/**
 * Runs the local WhatsApp stand-in as a Node HTTP server (started by `npm start` when no WhatsApp
 * keys are set): node scripts/whatsapp-sandbox/server.ts --port 9087 --shop http://localhost:8787
 * (`--print-vars` prints the shop's settings for it instead). Its TEST page is /test.
 */
import { runStandIn } from '../stand-in-server.ts'
import { createWhatsAppSandbox, WHATSAPP_SANDBOX_SECRETS, whatsappSandboxVars } from './sandbox.ts'

runStandIn({
  name: 'whatsapp-sandbox',
  defaultPort: 9087,
  vars: whatsappSandboxVars,
  create: (at) => createWhatsAppSandbox({ ...at, ...WHATSAPP_SANDBOX_SECRETS }),
  listening: ({ origin, shop }) => `TEST WhatsApp at ${origin}/test (webhooks to ${shop})`,
  // The handshake Meta makes when the callback URL is saved; the shop may still be starting.
  onListening: (sandbox) => setTimeout(() => void sandbox.verifyShop(), 8000),
})
