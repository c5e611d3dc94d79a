// The client build's id, built in a copy of the tree (the build rewrites public/build and the
// manifest, which the other tiers read): it names everything the service worker keeps under it.
import { execFileSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const root = path.resolve(import.meta.dirname, '../../..')
const copy = mkdtempSync(path.join(tmpdir(), 'build-client-'))
afterAll(() => rmSync(copy, { recursive: true, force: true }))

for (const p of ['client', 'shared', 'scripts/build-client.mjs', 'scripts/lib.mjs', 'public/offline.html'])
  cpSync(path.join(root, p), path.join(copy, p), { recursive: true })
for (const p of ['package.json', 'tsconfig.json']) cpSync(path.join(root, p), path.join(copy, p))
symlinkSync(path.join(root, 'node_modules'), path.join(copy, 'node_modules'))
mkdirSync(path.join(copy, 'worker/platform/render'), { recursive: true })

/** Builds the copy and returns its build id. */
function build(): string {
  execFileSync(process.execPath, [path.join(copy, 'scripts/build-client.mjs'), '--quiet'], { cwd: copy })
  const manifest = readFileSync(path.join(copy, 'worker/platform/render/manifest.generated.json'), 'utf8')
  return JSON.parse(manifest).buildId
}

describe('the client build id', () => {
  it('changes with the offline page, which the service worker precaches under it, and only then', () => {
    const offline = path.join(copy, 'public/offline.html')
    const page = readFileSync(offline, 'utf8')
    const first = build()
    expect(build()).toBe(first)
    writeFileSync(offline, page.replace('You are offline', 'You are offline now'))
    expect(build()).not.toBe(first)
    writeFileSync(offline, page)
    expect(build()).toBe(first)
  })
})
