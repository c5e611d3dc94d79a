// No secret in the client bundle: the test-environment secrets (vitest.worker.config.ts), the local
// ones (.dev.vars, if present) and server-only material (password hashes, token signing, D1
// columns) never appear in public/build/**/*.js. Builds the client first if there is no build.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'

const root = path.resolve(import.meta.dirname, '../../..')
const buildDir = path.join(root, 'public/build')

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name)
    return statSync(p).isDirectory() ? walk(p) : [p]
  })
}

/** Secret values the worker tests and local development use. */
function secretValues(): { label: string; value: string }[] {
  const out: { label: string; value: string }[] = []
  const config = readFileSync(path.join(root, 'vitest.worker.config.ts'), 'utf8')
  for (const m of config.matchAll(/(TOKEN_SECRET|INVALIDATE_KEY):\s*'([^']+)'/g))
    out.push({ label: `test ${m[1]}`, value: m[2] as string })
  const devVars = path.join(root, '.dev.vars')
  if (existsSync(devVars)) {
    for (const line of readFileSync(devVars, 'utf8').split('\n')) {
      const m = /^\s*([A-Z_]+)\s*=\s*"?([^"\n]+)"?\s*$/.exec(line)
      if (m && (m[2] as string).length >= 8) out.push({ label: `.dev.vars ${m[1]}`, value: m[2] as string })
    }
  }
  return out
}

let files: { file: string; text: string }[] = []

beforeAll(() => {
  if (!existsSync(buildDir) || !walk(buildDir).some((f) => f.endsWith('.js'))) {
    const res = spawnSync(process.execPath, [path.join(root, 'scripts/build-client.mjs'), '--quiet'], {
      cwd: root,
      encoding: 'utf8',
    })
    if (res.status !== 0) throw new Error(`client build failed: ${res.stderr}`)
  }
  files = walk(buildDir)
    .filter((f) => /\.(m?js|map|json|html)$/.test(f))
    .map((file) => ({ file: path.relative(root, file), text: readFileSync(file, 'utf8') }))
}, 120_000)

describe('client bundle', () => {
  it('has JavaScript to check', () => {
    expect(files.filter((f) => f.file.endsWith('.js')).length).toBeGreaterThan(3)
  })

  it('contains none of the secret values', () => {
    const secrets = secretValues()
    expect(secrets.length).toBeGreaterThanOrEqual(2)
    for (const { label, value } of secrets) {
      const leaked = files.filter((f) => f.text.includes(value)).map((f) => f.file)
      // The message names the secret, never its value.
      expect(leaked, `${label} found in the bundle`).toEqual([])
    }
  })

  it('carries no server-only code: token signing, password hashing, D1 secret columns, secret names', () => {
    const markers = [
      'TOKEN_SECRET',
      'INVALIDATE_KEY',
      'RAZORPAY_KEY_SECRET',
      'RAZORPAY_WEBHOOK_SECRET',
      'PAYPAL_CLIENT_SECRET',
      'FB_ACCESS_TOKEN',
      'MAILCHIMP_API_KEY',
      'pbkdf2-sha256',
      'password_hash',
      'reset_token_hash',
      'access_key_hash',
      'token_hash',
      'deriveBits',
    ]
    for (const marker of markers) {
      const hits = files.filter((f) => f.file.endsWith('.js') && f.text.includes(marker)).map((f) => f.file)
      expect(hits, marker).toEqual([])
    }
  })
})
