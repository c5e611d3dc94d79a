#!/usr/bin/env node
// `npm run deploy -- --env production`: check, build, migrate the remote database, deploy.
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import {
  confirm,
  DEPLOY_ENVIRONMENTS,
  deployEnvironment,
  die,
  oneLineErrors,
  parseArgs,
  quietEnv,
  root,
  run,
} from './lib.mjs'

const HELP = `
usage: npm run deploy -- --env NAME [--yes] [--dry-run]

Deploys the shop to the environment NAME (staging | production) of wrangler.toml:
  1. npm run check-config -- --env NAME (stops when something required is missing)
  2. builds the client bundle
  3. applies the D1 migrations to NAME's remote database (they must suit the running version
     too: it serves until step 4 finishes)
  4. wrangler deploy --env NAME (source maps uploaded); prints how to roll back
Asks before it changes anything (or needs --yes without a terminal).

options:
  --dry-run    steps 1 and 2, then bundle without uploading (wrangler deploy --dry-run) into
               .tmp/dry-run; nothing is migrated or deployed
  --yes        do not ask
  -h, --help   print this help and do nothing else
`

const { env, yes, dryRun } = parseArgs(HELP, {
  flags: ['--yes', '--dry-run'],
  options: ['--env'],
  positionals: 0,
})
oneLineErrors()
if (!env) die(`which environment? npm run deploy -- --env ${DEPLOY_ENVIRONMENTS.join('|')}`)
deployEnvironment(env)

const node = (script, scriptArgs = []) =>
  run(process.execPath, [path.join(root, 'scripts', script), ...scriptArgs])
// Non-interactive wrangler for the remote steps: the confirmation above is the only question.
const wrangler = (wranglerArgs) =>
  run('wrangler', wranglerArgs, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...quietEnv, CI: '1' } })

console.log(`▸ 1/4 checking the ${env} configuration`)
if (dryRun) {
  // A dry run shows what is missing and bundles anyway.
  spawnSync(process.execPath, [path.join(root, 'scripts/check-config.mjs'), '--env', env, '--offline'], {
    stdio: 'inherit',
  })
} else node('check-config.mjs', ['--env', env])
console.log('▸ 2/4 building the client')
node('build-client.mjs', ['--quiet'])
if (dryRun) {
  console.log('▸ dry run: bundling without uploading')
  wrangler(['deploy', '--dry-run', '--env', env, '--outdir', path.join(root, '.tmp/dry-run')])
  console.log('dry run done: nothing was migrated or deployed')
  process.exit(0)
}
await confirm(`migrate the ${env} database and deploy the current checkout to ${env}`, { yes })
console.log(`▸ 3/4 applying D1 migrations to ${env}`)
wrangler(['d1', 'migrations', 'apply', 'DB', '--remote', '--env', env])
console.log(`▸ 4/4 deploying to ${env}`)
wrangler(['deploy', '--env', env])
console.log(
  `deployed to ${env}. If it misbehaves: npx wrangler rollback --env ${env} (the previous version; the database stays as migrated — docs/operations.md)`,
)
