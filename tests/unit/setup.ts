// Runs before every unit test file. The files of one Vitest worker run one after another in one
// process (the config's `isolate: false`: a process per file cost about a quarter of the tier), so
// before a file's first test this gives it what a new process would: the project's modules
// evaluated afresh (tests/helpers/fresh-modules.ts), no stubbed global or fake timer an earlier
// file left, and no IndexedDB unless the file installs its own (tests/helpers/indexeddb.ts).
import { evaluateModulesAfresh } from '../helpers/fresh-modules'

for (const name of Object.getOwnPropertyNames(globalThis))
  if (name === 'indexedDB' || name.startsWith('IDB')) delete (globalThis as Record<string, unknown>)[name]
evaluateModulesAfresh()
