/**
 * Runs the local mail stand-in as a Node HTTP server (started by `npm start` when no mail provider
 * is set): node scripts/mail-sandbox/server.ts --port 9187 (`--print-vars` prints the shop's
 * settings for it instead). Its TEST page is /test.
 */
import { runStandIn } from '../stand-in-server.ts'
import { createMailSandbox, mailSandboxVars } from './sandbox.ts'

runStandIn({
  name: 'mail-sandbox',
  defaultPort: 9187,
  vars: mailSandboxVars,
  create: () => createMailSandbox(),
  listening: ({ origin }) => `TEST mail at ${origin}/test`,
})
