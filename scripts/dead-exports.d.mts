// Types of scripts/dead-exports.mjs for the TypeScript test that runs it.
export interface ExportEntry {
  /** Path from the repository root. */
  file: string
  line: number
  name: string
  used: boolean
}
export function findDeadExports(options?: { root?: string; dirs?: string[] }): {
  exports: ExportEntry[]
  dead: ExportEntry[]
}
export function exportKey(e: { file: string; name: string }): string
export function readExportList(file: string): Record<string, string>
