/**
 * Runs the local test payment provider as a Node HTTP server (started by `npm start` when no
 * payment keys are set): node scripts/payment-sandbox/server.ts --port 8887 --shop http://localhost:8787
 * (`--print-vars` prints the shop's settings for it instead)
 */
import { runStandIn } from '../stand-in-server.ts'
import { createSandbox, SANDBOX_SECRETS, sandboxVars } from './sandbox.ts'

runStandIn({
  name: 'payment-sandbox',
  defaultPort: 8887,
  vars: sandboxVars,
  create: (at) => createSandbox({ ...at, ...SANDBOX_SECRETS }),
  listening: ({ origin, shop }) => `TEST payment provider at ${origin} (webhooks to ${shop})`,
})
