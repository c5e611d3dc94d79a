/**
 * A scratch folder of the system's temporary space for one test file: created before its tests,
 * removed after them, with `write` to lay out files in it (folders made as needed).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll } from 'vitest'

export function scratchFolder(prefix: string) {
  const scratch = {
    dir: '',
    write(file: string, text: string) {
      mkdirSync(path.dirname(path.join(scratch.dir, file)), { recursive: true })
      writeFileSync(path.join(scratch.dir, file), text)
    },
  }
  beforeAll(() => {
    scratch.dir = mkdtempSync(path.join(tmpdir(), `${prefix}-`))
  })
  afterAll(() => rmSync(scratch.dir, { recursive: true, force: true }))
  return scratch
}
