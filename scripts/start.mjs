#!/usr/bin/env node
// `npm start`: build the client, apply D1 migrations, seed the demo catalogue on first start, and
// run the shop with wrangler dev at http://localhost:8787.
// Options: --port N (default 8787), --persist-to DIR (separate local state, used by e2e tests),
// --public-origin URL (the origin absolute links name; default http://localhost:N, or the
// PUBLIC_ORIGIN environment variable), so a shop on another port links to itself.
import { existsSync } from 'node:fs'
import path from 'node:path'
import { ensureDevVars, helpOrContinue, persistArgs, quietEnv, root, run, spawnLong } from './lib.mjs'

const args = process.argv.slice(2)
helpOrContinue(
  args,
  `
usage: npm start -- [options]

Builds the client, applies the D1 migrations locally, seeds the demo catalogue on the first start
and serves the shop with wrangler dev (never stops to ask anything).

options:
  --port N              port (default 8787)
  --persist-to DIR      separate local state (default .wrangler/state)
  --public-origin URL   the origin absolute links name (default http://localhost:N)
  -h, --help            print this help and do nothing else
`,
)
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
// Applied without wrangler's "Ok to proceed?" question (no stdin, CI set for this one command):
// a first start in a terminal must never stop at a prompt.
run('wrangler', ['d1', 'migrations', 'apply', 'DB', '--local', ...persistArgs(persist)], {
  stdio: ['ignore', 'inherit', 'inherit'],
  env: { ...quietEnv, CI: '1' },
})
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
