/**
 * For test files that share one runtime one after another (Vitest's `isolate: false`): before a
 * file runs, every module `afresh(id)` names is marked unevaluated, so the file evaluates it again
 * and sees no memo, counter or other module-level value an earlier file left. A module's code is
 * kept and not asked for again: Vitest's module runner asks its server for a module at every
 * import statement, even one it holds, and in a run that watches no files the answer is always
 * "unchanged" (in watch mode it still asks, so an edited file is seen). Stubbed globals and fake
 * timers an earlier file left are undone.
 */
import { vi } from 'vitest'

type ModuleNode = { promise?: unknown; exports?: unknown; evaluated: boolean; importers: Set<string> }
type Runner = {
  getModuleInformation: (url: string, importer: unknown, cached: unknown) => Promise<unknown>
}
type VitestGlobals = {
  __vitest_worker__?: {
    config?: { watch?: boolean }
    evaluatedModules?: { idToModuleMap: Map<string, ModuleNode> }
  }
  __vitest_mocker__?: { moduleRunner?: Runner }
  /** The module runners already told to keep the code they hold (globalThis outlives module resets). */
  moduleCodeHeld?: WeakSet<object>
}

/** The project's own modules (not packages under node_modules, not Vitest's mocks). */
const projectModule = (id: string): boolean => !id.includes('/node_modules/') && !id.startsWith('mock:')

export function evaluateModulesAfresh(afresh: (id: string) => boolean = projectModule): void {
  vi.unstubAllGlobals()
  vi.useRealTimers()
  const vitest = globalThis as VitestGlobals
  const modules = vitest.__vitest_worker__?.evaluatedModules
  if (!modules) throw new Error('Vitest keeps its evaluated modules elsewhere: they cannot be reset')
  for (const [id, node] of modules.idToModuleMap) {
    if (!afresh(id)) continue
    node.promise = undefined
    node.exports = undefined
    node.evaluated = false
    node.importers.clear()
  }
  const runner = vitest.__vitest_mocker__?.moduleRunner
  vitest.moduleCodeHeld ??= new WeakSet()
  if (runner && vitest.__vitest_worker__?.config?.watch === false && !vitest.moduleCodeHeld.has(runner)) {
    vitest.moduleCodeHeld.add(runner)
    const ask = runner.getModuleInformation.bind(runner)
    runner.getModuleInformation = (url, importer, cached) =>
      (cached as { meta?: unknown } | undefined)?.meta ? Promise.resolve(cached) : ask(url, importer, cached)
  }
}
