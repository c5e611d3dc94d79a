#!/usr/bin/env node
// `npm run check-config -- --env production`: lists what a deployed environment still lacks.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import path from 'node:path'
import {
  DEPLOY_ENVIRONMENTS,
  deployEnvironment,
  die,
  importTs,
  oneLineErrors,
  parseArgs,
  quietEnv,
  root,
} from './lib.mjs'

const HELP = `
usage: npm run check-config -- --env NAME [--offline] [--config FILE]

Lists what the deployed environment NAME (staging | production) of wrangler.toml still lacks
before a deploy: placeholder D1/KV ids, routes (a custom domain: the output cache does nothing on
*.workers.dev), PUBLIC_ORIGIN, vars missing from the environment, the purge zone, Workers Logs and
source maps, Cloudflare Access for the back office, every var's value read as the worker reads it
(a bad CURRENCY_RATES or PUBLIC_ORIGIN would fail every request), the seller's GST registration
on tax invoices (SELLER_* vars), and the secrets (read with
\`wrangler secret list\`, which needs a login; --offline skips it and lists the secrets to set).
Exits 1 when something required is missing.
  --config FILE   another wrangler configuration file (default wrangler.toml)
  -h, --help      print this help and do nothing else
`

const {
  env,
  offline,
  config: configFile,
} = parseArgs(HELP, {
  flags: ['--offline'],
  options: ['--env', '--config'],
  positionals: 0,
})
oneLineErrors()
if (!env) die(`which environment? --env ${DEPLOY_ENVIRONMENTS.join('|')}`)
deployEnvironment(env)

const { unstable_readConfig: readConfig } = await import('wrangler')
const configPath = configFile ? path.resolve(configFile) : path.join(root, 'wrangler.toml')
if (!existsSync(configPath)) die(`no configuration file ${configPath}`)
const quiet = { hideWarnings: true }
const base = readConfig({ config: configPath }, quiet)
const cfg = readConfig({ config: configPath, env }, quiet)
if (!cfg.vars?.ENVIRONMENT || cfg.vars.ENVIRONMENT === base.vars?.ENVIRONMENT)
  die(`wrangler.toml has no [env.${env}] with its own vars`, 1)

// The secrets each area needs, from the worker's one list.
const { REQUIRED_SECRETS } = await importTs('worker/platform/middleware/required-secrets.ts', {
  platform: 'neutral',
})
// The worker's own reading of its vars.
const { configProblems } = await importTs('worker/platform/env.ts', { platform: 'neutral' })

const problems = []
const warnings = []
const fine = []
const need = (ok, good, bad) => (ok ? fine.push(good) : problems.push(bad))
const want = (ok, good, bad) => (ok ? fine.push(good) : warnings.push(bad))
const placeholder = (id) =>
  !id || /^0+(-0+-4000-8000-0+\d)?$|^0{8}-0{4}-4000-8000-0{11}\d$|^0{31}\d$/.test(id)
const vars = cfg.vars ?? {}

need(
  vars.ENVIRONMENT === env,
  `ENVIRONMENT = "${env}"`,
  `vars: ENVIRONMENT is "${vars.ENVIRONMENT}", not "${env}"`,
)
for (const d of cfg.d1_databases ?? [])
  need(
    !placeholder(d.database_id),
    `D1 ${d.binding}: ${d.database_name} (${d.database_id})`,
    `D1 ${d.binding}: database_id is a placeholder — run: npx wrangler d1 create ${d.database_name} and put the id into [[env.${env}.d1_databases]]`,
  )
for (const k of cfg.kv_namespaces ?? [])
  need(
    !placeholder(k.id),
    `KV ${k.binding}: ${k.id}`,
    `KV ${k.binding}: id is a placeholder — run: npx wrangler kv namespace create ${k.binding} --env ${env} and put the id into [[env.${env}.kv_namespaces]]`,
  )
const missingVars = Object.keys(base.vars ?? {}).filter((name) => !(name in vars))
need(
  !missingVars.length,
  'every var of [vars] is set for the environment',
  `vars missing from [env.${env}.vars] (not inherited): ${missingVars.join(', ')}`,
)
const varProblems = configProblems(vars)
need(
  !varProblems.length,
  'every var reads as the worker reads it',
  `vars the worker would refuse (every request would fail): ${varProblems.join('; ')}`,
)
// The label on its tax invoices, read as the worker reads it when it issues one.
const { readSellerConfig, DEMO_SELLER_GSTIN } = await importTs('worker/documents/seller.ts', {
  platform: 'neutral',
})
const seller = readSellerConfig(vars)
need(
  'config' in seller,
  `tax documents issued as ${seller.config?.supplier.legalName} (GSTIN ${seller.config?.supplier.gstin})`,
  `tax invoices cannot be issued (docs/tax-documents.md): ${(seller.problems ?? []).join('; ')}`,
)
if ('config' in seller)
  // Staging may issue its documents as the demo seller; production never.
  (env === 'production' ? need : want)(
    seller.config.supplier.gstin !== DEMO_SELLER_GSTIN,
    "SELLER_GSTIN is the label's own",
    "SELLER_GSTIN is the demo seller's: set the label's own GST registration",
  )
const routes = (cfg.routes ?? []).map((r) => (typeof r === 'string' ? r : r.pattern))
need(
  routes.length > 0,
  `routes: ${routes.join(', ')}`,
  `no route: add routes = [{ pattern = "shop.your-domain", custom_domain = true }] to [env.${env}]`,
)
need(
  !routes.some((r) => /(^|\.)example\.(com|org|net)\b/.test(r)),
  'routes name your domain',
  `routes still name the example domain: ${routes.join(', ')}`,
)
want(
  cfg.workers_dev === false,
  'workers.dev off (pages are served on the custom domain, where the output cache works)',
  'workers_dev is on: pages served on *.workers.dev are never cached (the Cache API does nothing there)',
)
let origin = null
try {
  origin = new URL(vars.PUBLIC_ORIGIN)
} catch {}
need(
  origin?.protocol === 'https:' && !/example\./.test(origin.host),
  `PUBLIC_ORIGIN = ${vars.PUBLIC_ORIGIN}`,
  `PUBLIC_ORIGIN must be the shop's https origin (now ${JSON.stringify(vars.PUBLIC_ORIGIN)})`,
)
if (origin)
  want(
    routes.some((r) => r.replace(/\/\*$/, '').split('/')[0] === origin.host),
    'PUBLIC_ORIGIN is one of the routes',
    `PUBLIC_ORIGIN ${origin.host} is not one of the routes (${routes.join(', ')})`,
  )
want(
  Boolean(vars.CLOUDFLARE_ZONE_ID),
  'CLOUDFLARE_ZONE_ID set (purges reach every location)',
  'CLOUDFLARE_ZONE_ID is empty: /invalidate purges only the location that handles it (set the zone id + the CLOUDFLARE_API_TOKEN secret)',
)
need(
  cfg.observability?.enabled === true,
  'Workers Logs on',
  'observability.enabled is not true: no Workers Logs to read requests by id',
)
want(
  cfg.upload_source_maps === true,
  'source maps uploaded',
  'upload_source_maps is off: stack traces point into the bundle',
)
want(
  Boolean(cfg.triggers?.crons?.length),
  `cron triggers: ${(cfg.triggers?.crons ?? []).join(', ')}`,
  'no cron trigger: unpaid orders never expire and outboxes are never retried',
)
const accessVars = ['ACCESS_TEAM_DOMAIN', 'ACCESS_AUD']

// The payment providers the shop enables: their secrets are required, the others' are not.
const PROVIDERS = REQUIRED_SECRETS.flatMap((a) => (a.provider ? [a.provider] : []))
const enabled = String(vars.PAYMENT_PROVIDERS ?? PROVIDERS.join(','))
  .split(',')
  .map((p) => p.trim().toLowerCase())
  .filter(Boolean)
const unknownProviders = enabled.filter((p) => !PROVIDERS.includes(p))
need(
  !unknownProviders.length,
  `payments through ${enabled.join(' and ') || 'no online provider (cash on delivery only)'}`,
  `PAYMENT_PROVIDERS names ${unknownProviders.join(', ')}: use ${PROVIDERS.join(', ')} (comma-separated)`,
)
// Without a mail provider no order, refund or account mail is ever sent: production needs one.
const MAIL_SECRETS = ['MAIL_PROVIDER_URL', 'MAIL_PROVIDER_KEY']
// Secrets: what the worker refuses to run without, and what it quietly does less without.
const required = [
  ...new Set([
    'INVALIDATE_KEY',
    ...REQUIRED_SECRETS.filter((a) => !a.provider || enabled.includes(a.provider)).flatMap((a) => a.secrets),
    ...(env === 'production' ? MAIL_SECRETS : []),
  ]),
]
const optional = [
  'CLOUDFLARE_API_TOKEN',
  ...(env === 'production' ? [] : MAIL_SECRETS),
  // The courier (docs/fulfilment.md): without them orders are shipped by hand.
  'SHIPROCKET_EMAIL',
  'SHIPROCKET_PASSWORD',
  'SHIPROCKET_WEBHOOK_TOKEN',
]
// A bare `wrangler deploy` deploys the top level: it must not be the production worker's name.
need(
  cfg.name !== base.name,
  `worker ${cfg.name} (the top level is ${base.name})`,
  `[env.${env}] has the top level's worker name ${cfg.name}: a bare wrangler deploy would put development settings on it; give the top level its own name`,
)
let secrets = null
if (!offline) {
  const res = spawnSync(
    path.join(root, 'node_modules/.bin/wrangler'),
    ['secret', 'list', '--env', env, '--format', 'json'],
    {
      cwd: root,
      env: quietEnv,
      encoding: 'utf8',
      timeout: 30_000,
    },
  )
  if (res.status === 0) {
    try {
      secrets = new Set(JSON.parse(res.stdout.slice(res.stdout.indexOf('['))).map((s) => s.name))
    } catch {}
  }
  if (!secrets) {
    const ansi = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g')
    const why = (res.stderr || res.stdout || 'no answer')
      .replace(ansi, '')
      .split('\n')
      .find((l) => l.trim())
    warnings.push(`could not list the secrets (${why?.trim() ?? 'no answer'}); check them by hand below`)
  }
}
if (secrets) {
  for (const name of required)
    need(
      secrets.has(name),
      `secret ${name}`,
      MAIL_SECRETS.includes(name)
        ? `secret ${name} is not set: without a mail provider no order, refund or account mail is ever sent (npx wrangler secret put ${name} --env ${env})`
        : `secret ${name} is not set: npx wrangler secret put ${name} --env ${env}`,
    )
  for (const name of optional)
    want(secrets.has(name), `secret ${name}`, `secret ${name} is not set (optional: see docs/operations.md)`)
  need(
    accessVars.every((n) => Boolean(vars[n]) || secrets.has(n)),
    'Cloudflare Access configured for /admin',
    `no Cloudflare Access for /admin (outside development only Access opens the back office): set ${accessVars.join(' and ')}`,
  )
} else {
  problems.push(
    `secrets not verified: set each with npx wrangler secret put NAME --env ${env}: ${required.join(', ')} (optional: ${optional.join(', ')})`,
  )
  need(
    accessVars.every((n) => Boolean(vars[n])),
    'Cloudflare Access configured for /admin',
    `no Cloudflare Access for /admin (outside development only Access opens the back office): set ${accessVars.join(' and ')} (vars or secrets)`,
  )
}

console.log(`check-config: ${env} (worker ${cfg.name})`)
for (const line of fine) console.log(`  ✔ ${line}`)
for (const line of warnings) console.log(`  ! ${line}`)
for (const line of problems) console.log(`  ✖ ${line}`)
console.log(
  problems.length
    ? `${problems.length} thing(s) missing before a deploy of ${env}`
    : `${env} is ready to deploy`,
)
process.exitCode = problems.length ? 1 : 0
