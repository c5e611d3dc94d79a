// Stopping a step of `npm test` stops everything it started, even processes that moved to a process
// group of their own (as Playwright's web servers do): none is left running, orphaned.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { signalProcessTree } from '../../../scripts/lib.mjs'

/** Running (a process that ended but was not reaped yet counts as ended). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z'
  } catch {
    return false
  }
}

async function until(check: () => boolean, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (check()) return true
    await new Promise((r) => setTimeout(r, 20))
  }
  return check()
}

describe.runIf(process.platform === 'linux')('signalProcessTree', () => {
  it('stops a step and the processes it started in a group of their own', async () => {
    // A step (its own group, as npm test starts it) that starts a server in yet another group.
    const step = spawn(
      process.execPath,
      [
        '-e',
        `const { spawn } = require('node:child_process')
         const server = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: 'ignore' })
         console.log(server.pid)
         setInterval(() => {}, 1000)`,
      ],
      { detached: true, stdio: ['ignore', 'pipe', 'ignore'] },
    )
    const [line] = (await once(step.stdout, 'data')) as [Buffer]
    const server = Number(line.toString().trim())
    expect(running(server)).toBe(true)
    try {
      signalProcessTree(step.pid as number, 'SIGTERM')
      expect(await until(() => !running(step.pid as number))).toBe(true)
      expect(await until(() => !running(server))).toBe(true)
    } finally {
      for (const pid of [server, step.pid as number])
        try {
          process.kill(pid, 'SIGKILL')
        } catch {}
    }
  })
})
