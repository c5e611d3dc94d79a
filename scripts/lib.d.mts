// Types of the part of scripts/lib.mjs the TypeScript tests call.
export function parseArgs(
  help: string,
  spec?: { flags?: string[]; options?: string[]; positionals?: number; argv?: string[] },
): { positionals: string[] } & Record<string, string | boolean | undefined | string[]>
export function shopCommandLine(
  help: string,
  spec?: { flags?: string[]; options?: string[]; positionals?: number; argv?: string[] },
): { positionals: string[]; where: string[]; deployed: boolean } & Record<
  string,
  string | boolean | undefined | string[]
>
// biome-ignore lint/suspicious/noExplicitAny: a bundled module's exports are whatever it exports
export function importTs(entry: string, options?: { platform?: 'node' | 'browser' }): Promise<any>
export function queryLocalD1(
  dir: string | undefined,
  sql: string,
): Promise<Record<string, unknown>[] | undefined>
export function localMigrationsApplied(dir: string | undefined): Promise<boolean>
export function signalProcessTree(pid: number, signal?: NodeJS.Signals): void
export function noLocalD1(dir: string | undefined): boolean
export function pendingMigrationsSql(applied?: ReadonlySet<string>, read?: (name: string) => string): string
