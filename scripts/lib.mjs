// Helpers shared by the npm scripts: run wrangler with the project's Node 22, ensure .dev.vars.
import { spawn, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
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

/** The SQLite files of a state dir's local D1 databases (default .wrangler/state), full paths. */
function localD1Files(dir) {
  const d1Dir = path.resolve(root, dir ?? '.wrangler/state', 'v3/d1/miniflare-D1DatabaseObject')
  return existsSync(d1Dir)
    ? readdirSync(d1Dir)
        .filter((f) => f.endsWith('.sqlite') && f !== 'metadata.sqlite')
        .map((f) => path.join(d1Dir, f))
    : []
}

/**
 * Reads the local D1 database of a state dir (default .wrangler/state) with Node's own SQLite:
 * milliseconds, where `wrangler d1 execute` spends seconds starting up. Answers undefined when it
 * cannot say (a Node without node:sqlite, no database yet, or more than one in the state dir), so
 * the caller asks wrangler instead.
 */
export async function queryLocalD1(dir, sql) {
  const files = localD1Files(dir)
  if (files.length !== 1) return undefined
  const sqlite = await import('node:sqlite').catch(() => null)
  if (!sqlite) return undefined
  const db = new sqlite.DatabaseSync(files[0], { readOnly: true })
  try {
    return db.prepare(sql).all()
  } catch {
    return undefined
  } finally {
    db.close()
  }
}

const MIGRATIONS_DIR = path.join(root, 'worker/db/migrations')

/** The migration files, in the order wrangler applies them (by name). */
function migrationFileNames() {
  return readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith('.sql'))
    .sort()
}

/**
 * Whether every migration file is recorded as applied in a local state dir (wrangler's
 * d1_migrations table); false when that cannot be read, so `wrangler d1 migrations apply` runs.
 */
export async function localMigrationsApplied(dir) {
  const applied = await queryLocalD1(dir, 'SELECT name FROM d1_migrations')
  if (!applied) return false
  const names = new Set(applied.map((r) => r.name))
  return migrationFileNames().every((f) => names.has(f))
}

/** Whether a state dir holds no local D1 database yet (a first start). */
export function noLocalD1(dir) {
  return localD1Files(dir).length === 0
}

/**
 * What `wrangler d1 migrations apply` runs for the migrations not named in `applied`, as one SQL
 * text: wrangler's table of applied migrations (created when missing), then, migration by
 * migration in wrangler's order, the query wrangler builds for it (its SQL, then the row recording
 * it). Empty when none is pending. Run with one `wrangler d1 execute --file`, a first start
 * applies every migration in one start-up of wrangler instead of one per migration (40 s of it
 * on the two-core machine for the whole set).
 */
export function pendingMigrationsSql(
  applied = new Set(),
  read = (name) => readFileSync(path.join(MIGRATIONS_DIR, name), 'utf8'),
) {
  const pending = migrationFileNames().filter((f) => !applied.has(f))
  if (!pending.length) return ''
  return [
    `CREATE TABLE IF NOT EXISTS "d1_migrations"(
		id         INTEGER PRIMARY KEY AUTOINCREMENT,
		name       TEXT UNIQUE,
		applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
);`,
    ...pending.map(
      (name) => `${read(name)}\nINSERT INTO "d1_migrations" (name)\nvalues ('${name.replace(/'/g, "''")}');`,
    ),
  ].join('\n')
}

// ---------------------------------------------------------------------------------------------
// Command-line behaviour shared by every script: `--help` prints the script's help and does
// nothing else; an error is one line saying what to do (no stack trace); destructive work asks
// for confirmation in a terminal and, without one (CI, pipes), is refused unless --yes is given.

/**
 * Reads a script's command line, the one way every script does:
 * - `-h`/`--help` anywhere prints `help` and exits (nothing else runs);
 * - each name in `flags` is a boolean (`--yes`);
 * - each name in `options` takes the next argument as its value (`--env production`); a missing
 *   value, or another `--option` in its place, is refused;
 * - any other `--option` is refused with one line naming it;
 * - the rest are positional arguments, in order; more than `positionals` of them are refused.
 * Returns `{ positionals, ...values }`, each value keyed by its name without dashes, camelCased
 * (`--persist-to` → `persistTo`): true/false for a flag, the string or undefined for an option.
 */
export function parseArgs(
  help,
  { flags = [], options = [], positionals = Number.POSITIVE_INFINITY, argv = process.argv.slice(2) } = {},
) {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(help.trim())
    process.exit(0)
  }
  const key = (name) => name.replace(/^--/, '').replace(/-([a-z])/g, (_, c) => c.toUpperCase())
  const values = { positionals: [] }
  for (const name of flags) values[key(name)] = false
  for (const name of options) values[key(name)] = undefined
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (flags.includes(arg)) values[key(arg)] = true
    else if (options.includes(arg)) {
      const value = argv[++i]
      if (value === undefined || value.startsWith('--')) die(`${arg} needs a value`)
      values[key(arg)] = value
    } else if (arg.startsWith('--')) die(`unknown option ${arg} (--help lists the options)`)
    else values.positionals.push(arg)
  }
  if (values.positionals.length > positionals)
    die(`unknown argument ${values.positionals[positionals]} (--help lists the options)`)
  return values
}

/** Ends the script with one line on stderr (exit code 2 = wrong use, 1 = failure). */
export function die(message, code = 2) {
  console.error(`✖ ${message}`)
  process.exit(code)
}

/** An error's message cut to its first line (what a script prints of a failure). */
export function firstLine(err) {
  return String(err?.message ?? err).split('\n')[0]
}

/** Turns any uncaught error into one line (the stack only with DEBUG=1). */
export function oneLineErrors() {
  const report = (err) => {
    if (process.env.DEBUG) console.error(err)
    die(firstLine(err), 1)
  }
  process.on('uncaughtException', report)
  process.on('unhandledRejection', report)
}

/** Whether nobody can answer a question here: no terminal, or a CI run. */
export function nonInteractive() {
  return !process.stdin.isTTY || Boolean(process.env.CI)
}

/**
 * Asks before destructive work. `--yes` answers for the operator; without a terminal (or in CI)
 * the work is refused, never done silently.
 */
export async function confirm(what, { yes }) {
  if (yes) return
  if (nonInteractive())
    die(`refusing to ${what} without confirmation: run it again with --yes (no terminal to ask in)`)
  const { createInterface } = await import('node:readline/promises')
  const rl = createInterface({ input: process.stdin, output: process.stderr })
  const answer = await rl.question(`About to ${what}. Continue? [y/N] `)
  rl.close()
  if (!/^y(es)?$/i.test(answer.trim())) die('cancelled; nothing was changed', 1)
}

/**
 * The options that say which shop's data a script changes (read by `shopCommandLine`): their
 * `parseArgs` names and their help lines (with --help's), aligned for a help text's options list.
 */
const WHERE_OPTIONS = { flags: ['--yes', '--remote'], options: ['--env', '--persist-to'] }
export const WHERE_HELP = `  --env NAME          the deployed shop of wrangler.toml's [env.NAME] (staging | production);
                      asks before changing it (--yes without a terminal)
  --remote            same as --env (needs it)
  --persist-to DIR    local state directory (default .wrangler/state)
  --yes               do not ask before changing a deployed shop
  -h, --help          print this help and do nothing else`

/** The deployed environments wrangler.toml defines. */
export const DEPLOY_ENVIRONMENTS = ['staging', 'production']

/** Refuses, in one line, an --env that names no deployed environment; returns it otherwise. */
export function deployEnvironment(env) {
  if (env !== undefined && !DEPLOY_ENVIRONMENTS.includes(env))
    die(`unknown --env ${env}: use one of ${DEPLOY_ENVIRONMENTS.join(', ')}`)
  return env
}

/** wrangler's arguments for where data lives: a deployed environment's, or local state. */
function whereArgs({ remote, env, persist }) {
  deployEnvironment(env)
  if (remote && !env)
    die(`--remote needs --env ${DEPLOY_ENVIRONMENTS.join('|')} (which deployed shop to change)`)
  if (env) return ['--remote', '--env', env]
  return ['--local', ...persistArgs(persist)]
}

/**
 * The command line of a script that changes a shop's data, read the one way: `parseArgs` with the
 * WHERE_OPTIONS added to the script's own `flags` and `options`, every later error in one line
 * (`oneLineErrors`), then which shop: `where`, wrangler's arguments for it, and `deployed`, whether
 * it is a deployed one (asked about before anything changes).
 */
export function shopCommandLine(help, { flags = [], options = [], positionals, argv } = {}) {
  const values = parseArgs(help, {
    flags: [...WHERE_OPTIONS.flags, ...flags],
    options: [...WHERE_OPTIONS.options, ...options],
    positionals,
    argv,
  })
  oneLineErrors()
  const where = whereArgs({ remote: values.remote, env: values.env, persist: values.persistTo })
  return { ...values, where, deployed: where.includes('--remote') }
}

/** Longest mapping value also kept in a KV key's metadata (KV allows 1024 bytes of metadata). */
const LISTED_VALUE_MAX = 900

/**
 * URL-mapping entries for `wrangler kv bulk put`, each carrying its value in the key's metadata
 * too, so `npm run urls -- list` reads every mapping with the one key listing.
 */
export function withListedValue(entries) {
  return entries.map((e) =>
    Buffer.byteLength(e.value) <= LISTED_VALUE_MAX ? { ...e, metadata: { v: e.value } } : e,
  )
}

/**
 * Bundles a TypeScript module of this repository with esbuild (into .tmp/) and imports it, so a
 * script uses the shop's own code (the seed generator, the importer, the password hash, the list
 * of required secrets) instead of a copy of it.
 */
export async function importTs(entry, { platform = 'node' } = {}) {
  const { build } = await import('esbuild')
  const { mkdirSync } = await import('node:fs')
  const { pathToFileURL } = await import('node:url')
  const tmp = path.join(root, '.tmp')
  mkdirSync(tmp, { recursive: true })
  const outfile = path.join(tmp, `${entry.replace(/[^A-Za-z0-9]+/g, '-')}.bundle.mjs`)
  await build({
    entryPoints: [path.join(root, entry)],
    bundle: true,
    platform,
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'warning',
  })
  return import(`${pathToFileURL(outfile).href}?t=${Date.now()}`)
}

/**
 * The process groups of `pid` and of every process below it. A step started in a group of its own
 * may start others in groups of their own (Playwright's web servers: the shops, their `wrangler
 * dev` and workerd); signalling only the step's group leaves those running, orphaned. Read from
 * /proc (Linux); elsewhere only the step's own group is known.
 */
function processTreeGroups(pid) {
  const children = new Map()
  const groupOf = new Map()
  let entries = []
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e))
  } catch {}
  for (const entry of entries) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      // After the command name in parentheses: state, parent id, process group id, …
      const [, ppid, pgid] = stat
        .slice(stat.lastIndexOf(')') + 2)
        .split(' ')
        .map(Number)
      const id = Number(entry)
      groupOf.set(id, pgid)
      if (!children.has(ppid)) children.set(ppid, [])
      children.get(ppid).push(id)
    } catch {}
  }
  const groups = new Set([pid])
  const todo = [pid]
  // Never this process's own group (the caller, and npm above it).
  const own = groupOf.get(process.pid)
  while (todo.length) {
    const id = todo.pop()
    for (const child of children.get(id) ?? []) {
      if (groupOf.get(child) !== own) groups.add(groupOf.get(child))
      todo.push(child)
    }
  }
  return [...groups]
}

/** Sends `signal` to every process group of `pid`'s tree (processTreeGroups), the step's own last. */
export function signalProcessTree(pid, signal = 'SIGTERM') {
  for (const group of processTreeGroups(pid).reverse()) {
    try {
      process.kill(-group, signal)
    } catch {}
  }
}
