/**
 * Runs the local mail stand-in as a Node HTTP server (started by `npm start` when no mail provider
 * is set): node scripts/mail-sandbox/server.ts --port 9187 (`--print-vars` prints the shop's
 * settings for it instead). Its TEST page is /test.
 */
import { serveStandIn, standInArgs } from '../stand-in-server.ts'
import { createMailSandbox, mailSandboxVars } from './sandbox.ts'

const { port, origin, printVars } = standInArgs(9187)

if (printVars) {
  console.log(JSON.stringify(mailSandboxVars(origin)))
  process.exit(0)
}

const sandbox = createMailSandbox()

serveStandIn(
  origin,
  port,
  (request) => sandbox.fetch(request),
  () => console.log(`[mail-sandbox] TEST mail at ${origin}/test`),
)
