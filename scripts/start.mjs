#!/usr/bin/env node
// `npm start`: build the client, apply D1 migrations, seed the demo catalogue on first start, and
// run the shop with wrangler dev at http://localhost:8787.
// Options: --port N (default 8787), --persist-to DIR (separate local state, used by e2e tests),
// --public-origin URL (the origin absolute links name; default http://localhost:N, or the
// PUBLIC_ORIGIN environment variable), so a shop on another port links to itself.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import {
  capture,
  ensureDevVars,
  localMigrationsApplied,
  noLocalD1,
  parseArgs,
  pendingMigrationsSql,
  persistArgs,
  queryLocalD1,
  quietEnv,
  root,
  run,
  spawnLong,
} from './lib.mjs'

const args = parseArgs(
  `
usage: npm start -- [options]

Builds the client, applies the D1 migrations locally, seeds the demo catalogue on the first start
and serves the shop with wrangler dev (never stops to ask anything).

options:
  --port N              port (default 8787)
  --persist-to DIR      separate local state (default .wrangler/state)
  --public-origin URL   the origin absolute links name (default http://localhost:N)
  --sandbox-port N      port of the local test payment provider (default N+100)
  --courier-port N      port of the local test courier (default N+200)
  --whatsapp-port N     port of the local test WhatsApp (default N+300)
  --mail-port N         port of the local test mail provider (default N+400)
  --courier-clock S     the test courier moves each parcel one step every S seconds (default 0:
                        only from its TEST page)
  --copy-state-to DIR   once migrated and seeded, copy the local state to DIR if DIR holds none
                        yet (a second shop then starts from this catalogue without seeding it)
  --prepare-only        migrate and seed the local state (and copy it), then stop: no client
                        build, no server (npm test prepares the browser tier's shops this way
                        while other tiers run)
  --no-build            serve the client build as it is (npm test builds it once, first, and
                        other tiers read it while the shops start)
  --workerd             serve with workerd directly instead of wrangler dev: an edited source is
                        not rebuilt, a new client build is deployed (the browser tier's shops)
  -h, --help            print this help and do nothing else
`,
  {
    flags: ['--prepare-only', '--no-build', '--workerd'],
    options: [
      '--port',
      '--persist-to',
      '--public-origin',
      '--sandbox-port',
      '--courier-port',
      '--courier-clock',
      '--copy-state-to',
      '--whatsapp-port',
      '--mail-port',
    ],
    positionals: 0,
  },
)
const port = args.port ?? '8787'
const persist = args.persistTo
const publicOrigin = new URL(args.publicOrigin ?? (process.env.PUBLIC_ORIGIN || `http://localhost:${port}`))
  .origin

ensureDevVars()
if (!args.prepareOnly && !args.noBuild) run(process.execPath, [path.join(root, 'scripts/build-client.mjs')])
// Applied without wrangler's "Ok to proceed?" question (no stdin, CI set for this one command):
// a first start in a terminal must never stop at a prompt.
// Skipped when the state already records every migration (a restart, or a copied state).
// A first start (no local database yet) runs what wrangler would run for every migration as one
// file (pendingMigrationsSql); a state that already has a database is left to wrangler itself.
if (noLocalD1(persist)) {
  const file = path.join(root, '.tmp', `migrations-${process.pid}.sql`)
  mkdirSync(path.dirname(file), { recursive: true })
  writeFileSync(file, pendingMigrationsSql())
  try {
    run('wrangler', ['d1', 'execute', 'DB', '--local', '--file', file, ...persistArgs(persist)], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...quietEnv, CI: '1' },
    })
  } finally {
    rmSync(file, { force: true })
  }
  console.log(
    `D1: every migration applied (${(await queryLocalD1(persist, 'SELECT name FROM d1_migrations'))?.length ?? 0} files)`,
  )
} else if (!(await localMigrationsApplied(persist))) {
  run('wrangler', ['d1', 'migrations', 'apply', 'DB', '--local', ...persistArgs(persist)], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...quietEnv, CI: '1' },
  })
}
if (existsSync(path.join(root, 'scripts/seed.mjs'))) {
  run(process.execPath, [
    path.join(root, 'scripts/seed.mjs'),
    '--if-empty',
    ...(persist ? ['--persist-to', persist] : []),
  ])
}
// A copy taken before this shop's workerd opens the files, so no write is half-way through it.
if (args.copyStateTo && !existsSync(path.resolve(root, args.copyStateTo))) {
  cpSync(path.resolve(root, persist ?? '.wrangler/state'), path.resolve(root, args.copyStateTo), {
    recursive: true,
  })
}
if (args.prepareOnly) process.exit(0)
// Without payment keys (in the environment or .dev.vars) the local test payment provider runs next
// to the shop, and the shop's payment base URLs and test secrets point at it.
const devVars = existsSync(path.join(root, '.dev.vars'))
  ? readFileSync(path.join(root, '.dev.vars'), 'utf8')
  : ''
const hasPaymentKeys =
  Boolean(process.env.RAZORPAY_KEY_ID || process.env.PAYPAL_CLIENT_ID) ||
  /^(RAZORPAY_KEY_ID|PAYPAL_CLIENT_ID)=/m.test(devVars)
/** The stand-ins' base URLs and test secrets, over wrangler.toml's and .dev.vars' values. */
const standInVars = {}
if (!hasPaymentKeys) {
  const sandboxPort = args.sandboxPort ?? String(Number(port) + 100)
  const sandboxOrigin = `http://127.0.0.1:${sandboxPort}`
  const sandbox = spawnLong('node', [
    path.join(root, 'scripts/payment-sandbox/server.ts'),
    '--port',
    sandboxPort,
    '--shop',
    `http://127.0.0.1:${port}`,
  ])
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => sandbox.kill(sig))
  process.on('exit', () => sandbox.kill())
  // Printed by the sandbox itself (run with the project's Node 22, which runs its TypeScript as is).
  const vars = JSON.parse(
    capture('node', [
      path.join(root, 'scripts/payment-sandbox/server.ts'),
      '--print-vars',
      '--port',
      sandboxPort,
    ]),
  )
  Object.assign(standInVars, vars)
  console.log(`No payment keys set: card/UPI/PayPal go to the TEST payment provider at ${sandboxOrigin}`)
}
// Without courier keys the local test courier runs next to the shop, and the shop's courier base URL
// and test credentials point at it.
const hasCourierKeys = Boolean(process.env.SHIPROCKET_EMAIL) || /^SHIPROCKET_EMAIL=/m.test(devVars)
if (!hasCourierKeys) {
  const courierPort = args.courierPort ?? String(Number(port) + 200)
  const courierArgs = [path.join(root, 'scripts/courier-sandbox/server.ts'), '--port', courierPort]
  const courier = spawnLong('node', [
    ...courierArgs,
    '--shop',
    `http://127.0.0.1:${port}`,
    '--clock',
    args.courierClock ?? '0',
  ])
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => courier.kill(sig))
  process.on('exit', () => courier.kill())
  const vars = JSON.parse(capture('node', [...courierArgs, '--print-vars']))
  Object.assign(standInVars, vars)
  console.log(`No courier keys set: shipments go to the TEST courier at http://127.0.0.1:${courierPort}/test`)
}
// Without WhatsApp keys the local test WhatsApp runs next to the shop, and the shop's WhatsApp base
// URL and test secrets point at it.
const hasWhatsAppKeys = Boolean(process.env.WHATSAPP_ACCESS_TOKEN) || /^WHATSAPP_ACCESS_TOKEN=/m.test(devVars)
if (!hasWhatsAppKeys) {
  const waPort = args.whatsappPort ?? String(Number(port) + 300)
  const waArgs = [path.join(root, 'scripts/whatsapp-sandbox/server.ts'), '--port', waPort]
  const wa = spawnLong('node', [...waArgs, '--shop', `http://127.0.0.1:${port}`])
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => wa.kill(sig))
  process.on('exit', () => wa.kill())
  const vars = JSON.parse(capture('node', [...waArgs, '--print-vars']))
  Object.assign(standInVars, vars)
  console.log(
    `No WhatsApp keys set: order messages go to the TEST WhatsApp at http://127.0.0.1:${waPort}/test`,
  )
}
// Without a mail provider the local test mail provider runs next to the shop, and the shop's mail
// URL and test key point at it.
const hasMailProvider = Boolean(process.env.MAIL_PROVIDER_URL) || /^MAIL_PROVIDER_URL=/m.test(devVars)
if (!hasMailProvider) {
  const mailPort = args.mailPort ?? String(Number(port) + 400)
  const mailArgs = [path.join(root, 'scripts/mail-sandbox/server.ts'), '--port', mailPort]
  const mail = spawnLong('node', mailArgs)
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => mail.kill(sig))
  process.on('exit', () => mail.kill())
  const vars = JSON.parse(capture('node', [...mailArgs, '--print-vars']))
  Object.assign(standInVars, vars)
  console.log(`No mail provider set: mails go to the TEST mail provider at http://127.0.0.1:${mailPort}/test`)
}
const vars = { PUBLIC_ORIGIN: publicOrigin, ...standInVars }
if (args.workerd) {
  const { serveWorkerd } = await import('./serve-workerd.mjs')
  const shop = await serveWorkerd({
    port,
    persist,
    vars,
    dir: path.join(root, '.tmp/workerd-shop', port),
  })
  console.log(`The shop (workerd) is at http://127.0.0.1:${port}`)
  for (const sig of ['SIGINT', 'SIGTERM'])
    process.on(sig, () => shop.dispose().finally(() => process.exit(0)))
} else {
  // The platform's country of a request decides a shopper's prices. Offline, wrangler dev would
  // give every request a placeholder one (US); a local run has none instead, so the shop opens in
  // its default country, and a request acts as one abroad by sending CF-IPCountry (as e2e tests do).
  const cfFile = path.join(root, '.tmp/local-cf.json')
  mkdirSync(path.dirname(cfFile), { recursive: true })
  writeFileSync(cfFile, '{}\n')
  const child = spawnLong(
    'wrangler',
    [
      'dev',
      '--port',
      port,
      '--ip',
      '127.0.0.1',
      ...Object.entries(vars).flatMap(([name, value]) => ['--var', `${name}:${value}`]),
      ...persistArgs(persist),
    ],
    { env: { ...quietEnv, CLOUDFLARE_CF_FETCH_PATH: cfFile } },
  )
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig))
  child.on('exit', (code) => process.exit(code ?? 0))
}
