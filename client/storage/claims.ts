/** Claims (code, value, description, created_at), kept locally. */
import type { UniversalStorage } from './universal-storage'

interface Claim {
  code: string
  value: unknown
  description: string
  created_at: string
}

export function createClaims(storage: UniversalStorage<Claim>, now: () => number = Date.now) {
  return {
    /** Stores (or replaces) a claim; created_at is kept when the claim already exists. */
    async set(code: string, value: unknown, description = ''): Promise<Claim> {
      const existing = await storage.getItem(code)
      const claim: Claim = {
        code,
        value,
        description,
        created_at: existing?.created_at ?? new Date(now()).toISOString(),
      }
      await storage.setItem(code, claim)
      return claim
    },
    get: (code: string) => storage.getItem(code),
    remove: (code: string) => storage.removeItem(code),
    async list(): Promise<Claim[]> {
      return (await storage.entries()).map(([, c]) => c)
    },
  }
}
