// Types of scripts/import-cycles.mjs for the TypeScript test that runs it.
/** file → (imported file → 'value' | 'type'), paths from the root. */
export type ImportGraph = Map<string, Map<string, 'value' | 'type'>>
export interface ImportCycle {
  /** The files of one strongly connected group, sorted. */
  files: string[]
  /** One way round the group, from its first file back to it. */
  path: string[]
}
export function importGraph(options?: { root?: string }): ImportGraph
export function findCycles(graph: ImportGraph): ImportCycle[]
export function cycleAllowed(cycle: ImportCycle, allowed: Record<string, string>): boolean
