// Types of tests/helpers/workerd.mjs for the TypeScript tests that import it.
import type { Log, Miniflare, MiniflareOptions } from 'miniflare'

export const root: string
export const migrationsDir: string
export const migrationFiles: string[]
export const migrationStatements: string[]
export const COMPAT_DATE: string
export const COMPAT_FLAGS: string[]
export function log(...args: unknown[]): void
export function sh(cmd: string, args: string[]): string
export const workerBuild: Record<string, unknown>
export function splitSql(sql: string): string[]
export function readManifest(): { entries: Record<string, { file: string }> }
export function buildFixtureWorker(entry: string, outfile: string): Promise<string>
export function buildProduction(dir?: string): Promise<{
  outdir: string
  script: string
  bundle: { bytes: number; gzipBytes: number }
  manifest: { entries: Record<string, { file: string }> }
  seedOut: string
}>
export function workerOptions(o: {
  script?: string
  state: string
  port: number
  cache?: boolean
  upstream?: string
  tokenSecret?: string
  invalidateKey?: string
}): MiniflareOptions & { log?: Log }
export function startWorker(o: {
  cache?: boolean
  upstream?: string
  state: string
  script?: string
  port?: number
}): Promise<{ mf: Miniflare; url: string }>
export function seedState(
  state: string,
  scale: number,
  seedOut?: string,
  opts?: { urlMappings?: boolean },
): Promise<{ products: number; variants: number }>
export function copyState(from: string, to: string): void
