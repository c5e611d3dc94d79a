// The command-line scripts as an operator runs them (spawned with Node, no terminal attached, as in
// CI): --help prints help and changes nothing; destructive work without --yes is refused with one
// line saying what to do, and nothing is written; wrong use is one line, never a stack trace.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'

const root = path.resolve(import.meta.dirname, '../../..')
const wranglerBin = path.join(root, 'node_modules/.bin/wrangler')
const scratch = mkdtempSync(path.join(tmpdir(), 'cli-test-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))
// Each test spawns Node (and some esbuild or wrangler): minutes on a loaded machine, not 5 s.
vi.setConfig({ testTimeout: 120_000 })

function cli(script: string, args: string[], extraEnv: Record<string, string> = {}) {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...extraEnv }
  delete env.CI
  const started = Date.now()
  const res = spawnSync(process.execPath, [path.join(root, 'scripts', script), ...args], {
    cwd: root,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 120_000,
  })
  return { code: res.status, out: res.stdout, err: res.stderr, ms: Date.now() - started }
}

/**
 * Every file under `dir` with its modification time (what a script run may have changed). The
 * browser tier's shop state (.tmp/e2e-state*) is left out: under `npm test` its shops run beside
 * this tier and write there.
 */
function snapshot(dir: string): Record<string, number> {
  if (!existsSync(dir)) return {}
  const out: Record<string, number> = {}
  for (const f of readdirSync(dir, { recursive: true }).map(String)) {
    if (dir.endsWith('.tmp') && f.startsWith('e2e-state')) continue
    out[f] = statSync(path.join(dir, f)).mtimeMs
  }
  return out
}
const watched = ['public/build', 'public/icons', '.tmp', 'worker/platform/render']

const SCRIPTS = [
  'seed.mjs',
  'urls.mjs',
  'import.mjs',
  'start.mjs',
  'deploy.mjs',
  'check-config.mjs',
  'build-client.mjs',
  'test.mjs',
  'generate-icons.mjs',
  'amp-validator.mjs',
  'dead-exports.mjs',
  'import-cycles.mjs',
  'admin.mjs',
  'pincodes.mjs',
]

/** stderr as lines that say something. */
const errorLines = (err: string) =>
  err.split('\n').filter((l) => l.trim() && !/ExperimentalWarning|--trace-warnings/.test(l))

describe('--help', () => {
  it.each(SCRIPTS)('%s prints its usage and does nothing else', (script) => {
    const before = Object.fromEntries(watched.map((d) => [d, snapshot(path.join(root, d))]))
    for (const flag of ['--help', '-h']) {
      const { code, out, err } = cli(script, [
        flag,
        ...(script === 'seed.mjs' ? ['--env', 'production'] : []),
      ])
      expect(code, err).toBe(0)
      expect(out.trimStart()).toMatch(/^usage: /)
      expect(out).toMatch(/-h, --help\s+print this help and do nothing else/)
      expect(errorLines(err)).toEqual([])
    }
    for (const d of watched) expect(snapshot(path.join(root, d)), d).toEqual(before[d])
  })
})

describe('destructive work without a terminal', () => {
  it('seed refuses to replace an existing local catalogue without --yes, and leaves it as it was', () => {
    const state = path.join(scratch, 'state')
    const sql = (command: string) =>
      spawnSync(
        wranglerBin,
        ['d1', 'execute', 'DB', '--local', '--persist-to', state, '--json', '--command', command],
        {
          cwd: root,
          encoding: 'utf8',
          env: { ...process.env, NO_COLOR: '1', WRANGLER_SEND_METRICS: 'false' },
        },
      )
    expect(
      sql(
        "CREATE TABLE products (id INTEGER PRIMARY KEY, sku TEXT); INSERT INTO products VALUES (1, 'LIVE-1')",
      ).status,
    ).toBe(0)
    const { code, err, out } = cli('seed.mjs', ['--persist-to', state])
    expect(code).toBe(2)
    expect(errorLines(err)).toEqual([
      expect.stringMatching(
        /^✖ refusing to replace the catalogue of the local shop \(1 products\).*run it again with --yes/,
      ),
    ])
    expect(out).not.toMatch(/generated|D1: executing/)
    expect(JSON.parse(sql('SELECT sku FROM products').stdout)[0].results).toEqual([{ sku: 'LIVE-1' }])
    // --if-empty (npm start) leaves a seeded catalogue alone without asking.
    const start = cli('seed.mjs', ['--if-empty', '--persist-to', state])
    expect(start.code).toBe(0)
    expect(start.out).toContain('catalogue already seeded (1 products); skipping')
  }, 60_000)

  it('seed, urls and import refuse a deployed shop without --yes before reading or writing it', () => {
    const file = path.join(scratch, 'mappings.json')
    writeFileSync(file, JSON.stringify({ 'new/path': { type: 'category', slug: 'sarees' } }))
    for (const [script, args] of [
      ['seed.mjs', ['--env', 'production']],
      ['urls.mjs', ['import', file, '--env', 'production']],
      ['urls.mjs', ['delete', 'old/path', '--env', 'staging']],
      ['import.mjs', ['--env', 'production', file]],
    ] as const) {
      const { code, err, ms } = cli(script, [...args])
      expect(code, `${script} ${args.join(' ')}`).toBe(2)
      const lines = errorLines(err)
      expect(lines, `${script} ${args.join(' ')}`).toHaveLength(1)
      expect(lines[0]).toMatch(/^✖ refusing to .*DEPLOYED (production|staging) shop.*run it again with --yes/)
      // Refused before any wrangler call (which takes seconds and would need a login).
      expect(ms).toBeLessThan(5000)
    }
  })

  it('--remote alone is refused: it must say which deployed shop', () => {
    for (const script of ['seed.mjs', 'urls.mjs', 'import.mjs']) {
      const args = {
        'seed.mjs': ['--remote'],
        'urls.mjs': ['list', '--remote'],
        'import.mjs': ['--remote', 'x.json'],
      }
      const { code, err } = cli(script, args[script as keyof typeof args])
      expect(code, script).toBe(2)
      expect(errorLines(err)).toEqual([expect.stringMatching(/^✖ --remote needs --env staging\|production/)])
    }
  })
})

describe('wrong use is one line that says what to do', () => {
  it.each([
    ['urls.mjs', ['import'], /^✖ import needs at least one FILE: npm run urls -- import mappings\.json$/],
    ['urls.mjs', ['delete'], /^✖ delete needs at least one KEY/],
    ['urls.mjs', [], /^✖ which command\? import FILE… \| list \| delete KEY…/],
    ['urls.mjs', ['import', '/no/such/file.json'], /^✖ cannot read \/no\/such\/file\.json: no such file$/],
    ['seed.mjs', ['--scale', 'many'], /^✖ --scale must be a positive number/],
    ['seed.mjs', ['--env', 'prod'], /^✖ unknown --env prod: use one of staging, production$/],
    ['deploy.mjs', [], /^✖ which environment\? npm run deploy -- --env staging\|production$/],
    ['check-config.mjs', [], /^✖ which environment\? --env staging\|production$/],
    ['import.mjs', [], /^✖ which files\?/],
    // Every script reads its arguments through one parser: a misspelt option or a stray word is
    // refused before anything runs, never ignored.
    ['build-client.mjs', ['--quite'], /^✖ unknown option --quite \(--help lists the options\)$/],
    ['generate-icons.mjs', ['public/icons'], /^✖ unknown argument public\/icons/],
    ['dead-exports.mjs', ['--everything'], /^✖ unknown option --everything/],
    ['test.mjs', ['unti'], /^✖ unknown tier unti: use build, typecheck/],
    ['seed.mjs', ['--scale'], /^✖ --scale needs a value$/],
    ['admin.mjs', ['create-operator', 'a@example.com', '--role', '--yes'], /^✖ --role needs a value$/],
  ] as const)('%s %j', (script, args, message) => {
    const { code, err } = cli(script, [...args])
    expect(code).toBe(2)
    expect(errorLines(err)).toEqual([expect.stringMatching(message)])
    expect(err).not.toMatch(/\n\s+at /)
  })
})

describe('urls import', () => {
  it('refuses mappings with tabs and line breaks with their line, and writes nothing', () => {
    const file = path.join(scratch, 'mappings-with-tabs.ndjson')
    const state = path.join(scratch, 'urls-state')
    writeFileSync(
      file,
      [
        JSON.stringify({ key: 'women\tsarees', value: { type: 'category', slug: 'sarees' } }),
        JSON.stringify({ key: 'old/sale', value: { type: 'redirect', to: '/sale\n' } }),
        JSON.stringify({ key: 'fine', value: { type: 'category', slug: 'sarees' } }),
      ].join('\n'),
    )
    const { code, err } = cli('urls.mjs', ['import', file, '--persist-to', state])
    expect(code).toBe(1)
    expect(errorLines(err)).toEqual([
      `${file}:1: key may not hold tabs, line breaks, other control characters, backslashes or invisible characters`,
      `${file}:2: to may not hold tabs, line breaks, other control characters, backslashes or invisible characters`,
      `✖ ${file}: 2 bad record(s); nothing imported from this file`,
    ])
    expect(existsSync(state)).toBe(false)
  })
})

describe('check-config', () => {
  it('lists what production still lacks and fails until it is configured', () => {
    const { code, out } = cli('check-config.mjs', ['--env', 'production', '--offline'])
    expect(code).toBe(1)
    expect(out).toContain('✔ ENVIRONMENT = "production"')
    expect(out).toContain('✔ Workers Logs on')
    expect(out).toContain('✔ workers.dev off')
    expect(out).toMatch(/✖ D1 DB: database_id is a placeholder — run: npx wrangler d1 create storefront/)
    expect(out).toMatch(/✖ KV URL_MAPPINGS: id is a placeholder/)
    expect(out).toMatch(/✖ routes still name the example domain/)
    expect(out).toMatch(
      /✖ secrets not verified: .*TOKEN_SECRET.*RAZORPAY_KEY_ID.*PAYPAL_WEBHOOK_ID.*MAIL_PROVIDER_URL, MAIL_PROVIDER_KEY \(optional/,
    )
    expect(out).toContain('✔ worker edge-storefront (the top level is edge-storefront-dev)')
    expect(out).toMatch(/✖ no Cloudflare Access for \/admin/)
    expect(out).toMatch(
      /✖ tax invoices cannot be issued .*SELLER_LEGAL_NAME: .*SELLER_GSTIN: \(empty\) is not a GSTIN/,
    )
    expect(out).toMatch(/thing\(s\) missing before a deploy of production$/m)
  })

  it('reads every var as the worker does, so a value that would fail every request is found before a deploy', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'check-config-'))
    try {
      const toml = readFileSync(path.join(root, 'wrangler.toml'), 'utf8')
      const inProduction = toml.indexOf('[env.production.vars]')
      expect(inProduction).toBeGreaterThan(0)
      const bad =
        toml.slice(0, inProduction) +
        toml.slice(inProduction).replace(/^CURRENCY_RATES = .*$/m, 'CURRENCY_RATES = "USD=0.01429, EUR=1"')
      const file = path.join(dir, 'wrangler.toml')
      writeFileSync(file, bad)
      const { code, out } = cli('check-config.mjs', ['--env', 'production', '--offline', '--config', file])
      expect(code).toBe(1)
      expect(out).toMatch(/✖ vars the worker would refuse .*CURRENCY_RATES: 'EUR=1' is not CODE=RATE/)
      const good = cli('check-config.mjs', [
        '--env',
        'production',
        '--offline',
        '--config',
        path.join(root, 'wrangler.toml'),
      ])
      expect(good.out).toContain('✔ every var reads as the worker reads it')
      // A Razorpay-only shop is not asked for PayPal's secrets; a misspelt provider is refused; the
      // production worker may not share the top level's name (a bare deploy would overwrite it).
      const production = (edit: (productionPart: string) => string) => {
        const file = path.join(dir, 'edited.toml')
        const at = toml.indexOf('\n[env.production]\n')
        writeFileSync(file, toml.slice(0, at) + edit(toml.slice(at)))
        return cli('check-config.mjs', ['--env', 'production', '--offline', '--config', file]).out
      }
      const providers = (to: string) => (t: string) =>
        t.replace('PAYMENT_PROVIDERS = "razorpay,paypal"', `PAYMENT_PROVIDERS = "${to}"`)
      const razorpayOnly = production(providers('razorpay'))
      expect(razorpayOnly).toContain('✔ payments through razorpay')
      expect(razorpayOnly).toMatch(/✖ secrets not verified: .*RAZORPAY_WEBHOOK_SECRET/)
      expect(razorpayOnly).not.toMatch(/PAYPAL_CLIENT_ID/)
      const wrong = production((t) =>
        providers('razorpay,stripe')(t).replace('name = "edge-storefront"', 'name = "edge-storefront-dev"'),
      )
      expect(wrong).toMatch(/✖ PAYMENT_PROVIDERS names stripe: use razorpay, paypal/)
      expect(wrong).toMatch(/✖ \[env.production\] has the top level's worker name edge-storefront-dev/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
