#!/usr/bin/env node
// Provides the official AMP validator offline. amphtml-validator normally downloads
// validator_wasm.js from the AMP CDN; Next.js 15 vendors the same file, so we take it from the
// next@15.5.29 package on the npm registry (the only network we have) and cache it in .tmp/amp/.
// Usage: node scripts/amp-validator.mjs FILE.html… (validates), or import { validatorPath }.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

const root = path.resolve(import.meta.dirname, '..')
const dir = path.join(root, '.tmp/amp')
const file = path.join(dir, 'package/dist/compiled/amphtml-validator/validator_wasm.js')
const SHA256 = 'f1f4629a'

/** Path of validator_wasm.js, fetching it from the npm registry on first use. */
export function validatorPath() {
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true })
    execFileSync('npm', ['pack', 'next@15.5.29', '--pack-destination', dir, '--silent'], { stdio: 'ignore' })
    const tgz = readdirSync(dir).find((f) => f.startsWith('next-') && f.endsWith('.tgz'))
    if (!tgz) throw new Error('npm pack next@15.5.29 produced no tarball')
    execFileSync('tar', [
      '-xzf',
      path.join(dir, tgz),
      '-C',
      dir,
      'package/dist/compiled/amphtml-validator/validator_wasm.js',
    ])
  }
  const sha = createHash('sha256').update(readFileSync(file)).digest('hex')
  if (!sha.startsWith(SHA256)) throw new Error(`unexpected validator_wasm.js (sha256 ${sha})`)
  return file
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { parseArgs } = await import('./lib.mjs')
  const { positionals: files } = parseArgs(
    `
usage: node scripts/amp-validator.mjs FILE...

Validates AMP documents with the official validator (fetched from the npm registry once).
  -h, --help   print this help and do nothing else
`,
  )
  const { default: amphtmlValidator } = await import('amphtml-validator')
  const validator = await amphtmlValidator.getInstance(validatorPath())
  let failed = 0
  for (const f of files) {
    const result = validator.validateString(readFileSync(f, 'utf8'))
    console.log(`${result.status} ${f}`)
    for (const e of result.errors) console.log(`  ${e.severity} line ${e.line}: ${e.message}`)
    if (result.status !== 'PASS') failed++
  }
  process.exit(failed ? 1 : 0)
}
