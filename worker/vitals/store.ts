/**
 * Where field data goes and how it is read back. In production the shop binds a Workers Analytics
 * Engine dataset (`VITALS`): each sample is one data point (page type, metric, country and the
 * sender's source key as blobs, the value as a double), and the p75 per page type and day is read
 * back through the Analytics Engine SQL API (CLOUDFLARE_ACCOUNT_ID + CLOUDFLARE_API_TOKEN with
 * Account Analytics read). Without the binding (development, tests) samples go to the D1 table
 * `vitals_samples`, capped per page type, metric and day (and per source) and kept
 * VITALS_RETENTION_DAYS days; the p75 is computed in SQL.
 *
 * One address, one vote: every sample carries its sender's source key (`vitalsSource`: a
 * day-scoped one-way key of the address, never the address). The figure is the p75 over sources,
 * each source counting once with its own p75, so an address that sends many beacons (a bot, or
 * somebody forging slow values) moves the figure as much as one ordinary visitor. Within a source,
 * and across sources, the p75 is the nearest-rank 75th percentile: the smallest value at or above
 * which a quarter of the values lie (rank ≥ 0.75 n), the way the Core Web Vitals thresholds are
 * assessed. For ordinary traffic (a shopper sends one beacon per page view, and only a fifth of
 * views report) it is the samples' own p75.
 */

import {
  VITALS_DAILY_CAP,
  VITALS_PER_ADDRESS_DAILY,
  VITALS_RETENTION_DAYS,
  type VitalMetric,
  type VitalPageType,
} from '@shared/config/vitals'
import { sha256Hex } from '../api/auth/crypto'
import { fetchOutbound, type OutboundError } from '../platform/fetch'
import { addressKey } from '../platform/http'

export interface VitalSample {
  page: VitalPageType
  metric: VitalMetric
  value: number
}

export interface VitalsRow {
  day: string
  page: string
  metric: string
  /** Samples behind the figure. */
  samples: number
  p75: number
}

interface VitalsEnv {
  DB: D1Database
  TOKEN_SECRET?: string
  VITALS?: AnalyticsEngineDataset
  VITALS_DATASET?: string
  CLOUDFLARE_ACCOUNT_ID?: string
  CLOUDFLARE_API_TOKEN?: string
  CLOUDFLARE_API_BASE?: string
}

const DEFAULT_API_BASE = 'https://api.cloudflare.com/client/v4'
const DEFAULT_DATASET = 'storefront_vitals'
const SQL_TIMEOUT_MS = 5000
const DAY_MS = 86_400_000

const dayOf = (now: number) => new Date(now).toISOString().slice(0, 10)

/**
 * The source key of a sender on a day: the first 16 hex digits of SHA-256 over the token secret,
 * the UTC day and the address (an IPv6 /64 is one address). The same address gives the same key
 * all day in every isolate; the key cannot be turned back into the address without the secret,
 * and says nothing about the same address on another day.
 */
export async function vitalsSource(env: { TOKEN_SECRET?: string }, ip: string, now: number): Promise<string> {
  const digest = await sha256Hex(`vitals-source|${env.TOKEN_SECRET ?? ''}|${dayOf(now)}|${addressKey(ip)}`)
  return digest.slice(0, 16)
}

/**
 * Stores one beacon's samples (Analytics Engine when bound, else D1 within the daily cap and the
 * per-source cap). `source` is the sender's vitalsSource key.
 */
export async function recordVitals(
  env: VitalsEnv,
  samples: readonly VitalSample[],
  country: string | null,
  source: string,
  now: number,
): Promise<void> {
  if (env.VITALS) {
    for (const s of samples)
      env.VITALS.writeDataPoint({
        indexes: [s.page],
        blobs: [s.page, s.metric, country ?? '', source],
        doubles: [s.value],
      })
    return
  }
  const day = dayOf(now)
  await env.DB.batch(
    samples.map((s) =>
      env.DB.prepare(
        `INSERT INTO vitals_samples (day, page, metric, value, country, source)
         SELECT ?1, ?2, ?3, ?4, ?5, ?7
         WHERE (SELECT COUNT(*) FROM vitals_samples WHERE day = ?1 AND page = ?2 AND metric = ?3) < ?6
           AND (SELECT COUNT(*) FROM vitals_samples
                WHERE day = ?1 AND page = ?2 AND metric = ?3 AND source = ?7) < ?8`,
      ).bind(day, s.page, s.metric, s.value, country, VITALS_DAILY_CAP, source, VITALS_PER_ADDRESS_DAILY),
    ),
  )
}

/** Deletes local samples older than the retention period; returns how many went. */
export async function pruneVitals(env: VitalsEnv, now: number): Promise<number> {
  const res = await env.DB.prepare('DELETE FROM vitals_samples WHERE day < ?')
    .bind(dayOf(now - VITALS_RETENTION_DAYS * DAY_MS))
    .run()
  return res.meta.changes ?? 0
}

/** p75 per day, page type and metric over the last `days` days (one vote per source), newest day first. */
export async function vitalsP75(
  env: VitalsEnv,
  days: number,
  now: number,
): Promise<
  { source: 'analytics-engine' | 'd1'; rows: VitalsRow[] } | { source: 'analytics-engine'; failed: string }
> {
  if (env.VITALS) return analyticsEngineP75(env, days)
  // Each source's own p75 (a sample without a source, written before sources were kept, is a
  // source of its own), then the p75 over those votes; `samples` counts every sample behind it.
  const { results } = await env.DB.prepare(
    `WITH per_sample AS (
       SELECT day, page, metric, value, COALESCE(source, 'row:' || id) AS source,
              ROW_NUMBER() OVER (PARTITION BY day, page, metric, COALESCE(source, 'row:' || id) ORDER BY value) AS rank,
              COUNT(*) OVER (PARTITION BY day, page, metric, COALESCE(source, 'row:' || id)) AS n
       FROM vitals_samples WHERE day >= ?1),
     votes AS (
       SELECT day, page, metric, MIN(value) AS vote, MAX(n) AS n FROM per_sample
       WHERE rank * 4 >= n * 3 GROUP BY day, page, metric, source),
     ranked AS (
       SELECT day, page, metric, vote,
              ROW_NUMBER() OVER (PARTITION BY day, page, metric ORDER BY vote) AS rank,
              COUNT(*) OVER (PARTITION BY day, page, metric) AS voters,
              SUM(n) OVER (PARTITION BY day, page, metric) AS samples
       FROM votes)
     SELECT day, page, metric, MAX(samples) AS samples, MIN(vote) AS p75 FROM ranked
     WHERE rank * 4 >= voters * 3
     GROUP BY day, page, metric ORDER BY day DESC, page, metric`,
  )
    .bind(dayOf(now - (days - 1) * DAY_MS))
    .all<VitalsRow>()
  return { source: 'd1', rows: results }
}

/**
 * The same figures from the Analytics Engine SQL API: each source's p75 (weighted by
 * `_sample_interval`, so sampling by the engine is accounted for) in a subquery, then the p75 over
 * sources, each weighted by the sampling interval it was seen at (a source seen in a 1-in-k sample
 * stands for k sources). Data points without a source blob (written before it was kept) share one.
 */
async function analyticsEngineP75(env: VitalsEnv, days: number) {
  const account = env.CLOUDFLARE_ACCOUNT_ID
  const token = env.CLOUDFLARE_API_TOKEN
  if (!account || !token)
    return {
      source: 'analytics-engine' as const,
      failed: 'set CLOUDFLARE_ACCOUNT_ID and the CLOUDFLARE_API_TOKEN secret to read field data',
    }
  const dataset = env.VITALS_DATASET || DEFAULT_DATASET
  if (!/^[A-Za-z0-9_]{1,64}$/.test(dataset))
    return { source: 'analytics-engine' as const, failed: 'VITALS_DATASET is not a dataset name' }
  const sql = `SELECT day, page, metric, SUM(n) AS samples, quantileExactWeighted(0.75)(vote, w) AS p75
    FROM (
      SELECT formatDateTime(timestamp, '%Y-%m-%d') AS day, blob1 AS page, blob2 AS metric, blob4 AS source,
        SUM(_sample_interval) AS n, MAX(_sample_interval) AS w,
        quantileExactWeighted(0.75)(double1, _sample_interval) AS vote
      FROM ${dataset} WHERE timestamp > NOW() - INTERVAL '${Math.trunc(days)}' DAY
      GROUP BY day, page, metric, source)
    GROUP BY day, page, metric ORDER BY day DESC, page, metric FORMAT JSON`
  const base = (env.CLOUDFLARE_API_BASE || DEFAULT_API_BASE).replace(/\/+$/, '')
  try {
    const res = await fetchOutbound(
      'Analytics Engine SQL API',
      `${base}/accounts/${encodeURIComponent(account)}/analytics_engine/sql`,
      { method: 'POST', timeoutMs: SQL_TIMEOUT_MS, headers: { authorization: `Bearer ${token}` }, body: sql },
    )
    if (!res.ok) return { source: 'analytics-engine' as const, failed: `the SQL API answered ${res.status}` }
    const body = (await res.json()) as { data?: Record<string, unknown>[] }
    const rows = (body.data ?? []).map((r) => ({
      day: String(r.day),
      page: String(r.page),
      metric: String(r.metric),
      samples: Number(r.samples),
      p75: Number(r.p75),
    }))
    return { source: 'analytics-engine' as const, rows }
  } catch (err) {
    return { source: 'analytics-engine' as const, failed: (err as OutboundError).message ?? String(err) }
  }
}
