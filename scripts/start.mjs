#!/usr/bin/env node
// `npm start`: build the client, apply D1 migrations, seed the demo catalogue on first start, and
// run the shop with wrangler dev at http://localhost:8787.
// Options: --port N (default 8787), --persist-to DIR (separate local state, used by e2e tests),
// --public-origin URL (the origin absolute links name; default http://localhost:N, or the
// PUBLIC_ORIGIN environment variable), so a shop on another port links to itself.
import { existsSync } from 'node:fs'
import path from 'node:path'
import { ensureDevVars, persistArgs, root, run, spawnLong } from './lib.mjs'

const args = process.argv.slice(2)
const opt = (name, fallback) => {
  const i = args.indexOf(name)
  return i >= 0 ? args[i + 1] : fallback
}
const port = opt('--port', '8787')
const persist = opt('--persist-to', undefined)
const publicOrigin = new URL(opt('--public-origin', process.env.PUBLIC_ORIGIN || `http://localhost:${port}`))
  .origin

ensureDevVars()
run(process.execPath, [path.join(root, 'scripts/build-client.mjs')])
run('wrangler', ['d1', 'migrations', 'apply', 'DB', '--local', ...persistArgs(persist)])
if (existsSync(path.join(root, 'scripts/seed.mjs'))) {
  run(process.execPath, [
    path.join(root, 'scripts/seed.mjs'),
    '--if-empty',
    ...(persist ? ['--persist-to', persist] : []),
  ])
}
const child = spawnLong('wrangler', [
  'dev',
  '--port',
  port,
  '--ip',
  '127.0.0.1',
  '--var',
  `PUBLIC_ORIGIN:${publicOrigin}`,
  ...persistArgs(persist),
])
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig))
child.on('exit', (code) => process.exit(code ?? 0))
