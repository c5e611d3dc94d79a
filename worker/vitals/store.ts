/**
 * Where field data goes and how it is read back. In production the shop binds a Workers Analytics
 * Engine dataset (`VITALS`): each sample is one data point (page type, metric and country as blobs,
 * the value as a double), and the p75 per page type and day is read back through the Analytics
 * Engine SQL API (CLOUDFLARE_ACCOUNT_ID + CLOUDFLARE_API_TOKEN with Account Analytics read). Without
 * the binding (development, tests) samples go to the D1 table `vitals_samples`, capped per page
 * type, metric and day and kept VITALS_RETENTION_DAYS days; the p75 is computed in SQL.
 *
 * The p75 is the nearest-rank 75th percentile: the smallest value at or above which a quarter of
 * the samples lie (rank ≥ 0.75 n), the way the Core Web Vitals thresholds are assessed.
 */
import {
  VITALS_DAILY_CAP,
  VITALS_RETENTION_DAYS,
  type VitalMetric,
  type VitalPageType,
} from '@shared/config/vitals'
import { fetchOutbound, type OutboundError } from '../platform/fetch'

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

/** Stores one beacon's samples (Analytics Engine when bound, else D1 within the daily cap). */
export async function recordVitals(
  env: VitalsEnv,
  samples: readonly VitalSample[],
  country: string | null,
  now: number,
): Promise<void> {
  if (env.VITALS) {
    for (const s of samples)
      env.VITALS.writeDataPoint({
        indexes: [s.page],
        blobs: [s.page, s.metric, country ?? ''],
        doubles: [s.value],
      })
    return
  }
  const day = dayOf(now)
  await env.DB.batch(
    samples.map((s) =>
      env.DB.prepare(
        `INSERT INTO vitals_samples (day, page, metric, value, country)
         SELECT ?1, ?2, ?3, ?4, ?5
         WHERE (SELECT COUNT(*) FROM vitals_samples WHERE day = ?1 AND page = ?2 AND metric = ?3) < ?6`,
      ).bind(day, s.page, s.metric, s.value, country, VITALS_DAILY_CAP),
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

/** p75 per day, page type and metric over the last `days` days, newest day first. */
export async function vitalsP75(
  env: VitalsEnv,
  days: number,
  now: number,
): Promise<
  { source: 'analytics-engine' | 'd1'; rows: VitalsRow[] } | { source: 'analytics-engine'; failed: string }
> {
  if (env.VITALS) return analyticsEngineP75(env, days)
  const { results } = await env.DB.prepare(
    `WITH ranked AS (
       SELECT day, page, metric, value,
              ROW_NUMBER() OVER (PARTITION BY day, page, metric ORDER BY value) AS rank,
              COUNT(*) OVER (PARTITION BY day, page, metric) AS n
       FROM vitals_samples WHERE day >= ?1)
     SELECT day, page, metric, MAX(n) AS samples, MIN(value) AS p75 FROM ranked
     WHERE rank * 4 >= n * 3
     GROUP BY day, page, metric ORDER BY day DESC, page, metric`,
  )
    .bind(dayOf(now - (days - 1) * DAY_MS))
    .all<VitalsRow>()
  return { source: 'd1', rows: results }
}

/** The same figures from the Analytics Engine SQL API (sampling-aware, weighted by _sample_interval). */
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
  const sql = `SELECT formatDateTime(timestamp, '%Y-%m-%d') AS day, blob1 AS page, blob2 AS metric,
      SUM(_sample_interval) AS samples, quantileExactWeighted(0.75)(double1, _sample_interval) AS p75
    FROM ${dataset} WHERE timestamp > NOW() - INTERVAL '${Math.trunc(days)}' DAY
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
