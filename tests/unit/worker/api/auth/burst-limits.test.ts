// The burst limits' numbers live twice: in wrangler.toml (the Rate Limiting bindings' settings) and
// in the worker (its messages, and the isolate's own count, which refuses a key once it alone has
// seen more than the limit: a number lower than the binding's would refuse what the binding allows).
// Every environment of wrangler.toml must give each binding the worker's number and period.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { VITALS_PER_MINUTE } from '@shared/config/vitals'
import { describe, expect, it } from 'vitest'
import { CLIENT_ADDRESS_LIMIT } from '../../../../../worker/api/auth/rate-limit'
import { ORDER_BURST_PER_MINUTE } from '../../../../../worker/api/order/holds'

const toml = readFileSync(path.join(import.meta.dirname, '../../../../../wrangler.toml'), 'utf8')

/** Every [[ratelimits]] / [[env.X.ratelimits]] block: its binding name, limit and period. */
const blocks = [
  ...toml.matchAll(
    /^\[\[(?:env\.\w+\.)?ratelimits\]\]\s*name = "(\w+)"\s*namespace_id = "\w+"\s*simple = \{ limit = (\d+), period = (\d+) \}/gm,
  ),
].map(([, name, limit, period]) => ({ name: String(name), limit: Number(limit), period: Number(period) }))

const worker: Record<string, number> = {
  AUTH_LIMITER: CLIENT_ADDRESS_LIMIT,
  VITALS_LIMITER: VITALS_PER_MINUTE,
  ORDER_LIMITER: ORDER_BURST_PER_MINUTE,
}

describe('the burst limits of wrangler.toml', () => {
  it('are read, every binding in every environment', () => {
    const declared = (toml.match(/^\[\[(?:env\.\w+\.)?ratelimits\]\]/gm) ?? []).length
    expect(blocks.length).toBe(declared)
    expect(new Set(blocks.map((b) => b.name))).toEqual(new Set(Object.keys(worker)))
  })

  it.each(blocks.map((b, i) => [`${b.name} (block ${i + 1})`, b] as const))(
    '%s: the worker counts the same limit a minute',
    (_, b) => {
      expect(b.limit).toBe(worker[b.name])
      expect(b.period).toBe(60)
    },
  )
})
