// Helpers shared by the npm scripts: run wrangler with the project's Node 22, ensure .dev.vars.
import { spawn, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, writeFileSync } from 'node:fs'
import path from 'node:path'

export const root = path.resolve(import.meta.dirname, '..')
const bin = (name) => path.join(root, 'node_modules/.bin', name)

// node_modules/.bin first on PATH, so wrangler & co. run on the project's Node 22 (its `node` package)
// even when a script is started directly with an older system node.
export const quietEnv = {
  ...process.env,
  PATH: `${path.join(root, 'node_modules/.bin')}${path.delimiter}${process.env.PATH ?? ''}`,
  WRANGLER_SEND_METRICS: 'false',
  NO_COLOR: '1',
}

/** Runs a command synchronously, inheriting stdio; exits the process on failure. */
export function run(cmd, args, opts = {}) {
  const res = spawnSync(cmd.includes('/') ? cmd : bin(cmd), args, {
    stdio: 'inherit',
    cwd: root,
    env: quietEnv,
    ...opts,
  })
  if (res.status !== 0) {
    console.error(`\n✖ ${cmd} ${args.join(' ')} failed (exit ${res.status})`)
    process.exit(res.status ?? 1)
  }
  return res
}

/** Runs a command and returns its stdout (throws on failure). */
export function capture(cmd, args) {
  const res = spawnSync(bin(cmd), args, { cwd: root, env: quietEnv, encoding: 'utf8' })
  if (res.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${res.stderr || res.stdout}`)
  return res.stdout
}

export function spawnLong(cmd, args, opts = {}) {
  return spawn(bin(cmd), args, { stdio: 'inherit', cwd: root, env: quietEnv, ...opts })
}

/** Creates .dev.vars with random local secrets the first time (never committed). */
export function ensureDevVars() {
  const file = path.join(root, '.dev.vars')
  if (existsSync(file)) return
  const secret = () => randomBytes(32).toString('hex')
  writeFileSync(
    file,
    `# Local secrets for wrangler dev (generated; not committed)\nTOKEN_SECRET=${secret()}\nINVALIDATE_KEY=${secret()}\n`,
  )
  console.log('created .dev.vars with random local secrets')
}

/** wrangler's --persist-to flag for a state dir, or nothing for the default .wrangler/state. */
export function persistArgs(dir) {
  return dir ? ['--persist-to', dir] : []
}
