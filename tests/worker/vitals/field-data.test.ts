// Field data: the beacon endpoint's validation and limits (nothing stored from a bad beacon, a
// per-address burst limit, a daily cap), the p75 the back office shows checked against an
// independent computation, retention by the scheduled job, Analytics Engine in production, and
// the page type every document names for the beacon.
import { env, SELF } from 'cloudflare:test'
import { VITALS_DAILY_CAP, VITALS_PER_ADDRESS_DAILY, VITALS_PER_MINUTE } from '@shared/config/vitals'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { appFetch, runCron } from '../../helpers/in-isolate'
import { inOneWindow } from '../../helpers/rate-window'
import { admin, operator } from '../admin/operator'

afterEach(() => vi.restoreAllMocks())

let ip = 0
const nextIp = () => `203.0.113.${(++ip % 250) + 1}`

function beacon(body: unknown, init: { ip?: string; raw?: string } = {}) {
  return SELF.fetch('https://shop.test/api/vitals', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': init.ip ?? nextIp() },
    body: init.raw ?? JSON.stringify(body),
  })
}

const count = async (where = '1 = 1', ...binds: unknown[]) =>
  (
    await env.DB.prepare(`SELECT COUNT(*) AS n FROM vitals_samples WHERE ${where}`)
      .bind(...binds)
      .first<{ n: number }>()
  )?.n ?? 0

const today = () => new Date().toISOString().slice(0, 10)

describe('the beacon', () => {
  it('stores a page view’s metrics and answers 204', async () => {
    const before = await count("page = 'product'")
    const res = await beacon({
      page: 'product',
      metrics: [
        { name: 'LCP', value: 1830.5 },
        { name: 'INP', value: 96 },
        { name: 'CLS', value: 0.02 },
        { name: 'TTFB', value: 210 },
      ],
    })
    expect(res.status).toBe(204)
    expect(await count("page = 'product'")).toBe(before + 4)
  })

  it('refuses a bad beacon with a 400 naming what was wrong, storing nothing', async () => {
    const before = await count()
    const big = 'x'.repeat(2000)
    const cases: [unknown, RegExp, string?][] = [
      [{ page: 'admin', metrics: [{ name: 'LCP', value: 1 }] }, /page must be one of/],
      [{ page: 'home', metrics: [{ name: 'FID', value: 1 }] }, /name must be one of/],
      [{ page: 'home', metrics: [{ name: 'LCP', value: -1 }] }, /negative/],
      [{ page: 'home', metrics: [{ name: 'LCP', value: '12' }] }, /value must be a number/],
      [{ page: 'home', metrics: [{ name: 'CLS', value: 1e9 }] }, /beyond what a visit can report/],
      [
        {
          page: 'home',
          metrics: [
            { name: 'LCP', value: 1 },
            { name: 'LCP', value: 2 },
          ],
        },
        /one value per metric/,
      ],
      [{ page: 'home', metrics: [] }, /at least one/],
      [
        { page: 'home', metrics: [{ name: 'LCP', value: 1, extra: big }] },
        /too large|Unrecognized|unrecognized/,
      ],
      [{ page: 'home', metrics: [{ name: 'LCP', value: 1 }], user: 'x' }, /Unrecognized|unrecognized/],
      [null, /malformed|JSON/, '{"page":"home",'],
    ]
    for (const [body, message, raw] of cases) {
      const res = await beacon(body, { raw })
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(((await res.json()) as { result: string }).result, JSON.stringify(body)).toMatch(message)
    }
    expect(await count()).toBe(before)
  })

  it(`lets one address send at most ${VITALS_PER_MINUTE} beacons a minute`, async () => {
    // The binding counts per clock minute: the run is sent again, from another address, if a
    // minute turned inside it.
    const statuses = await inOneWindow(60_000, async (tryNumber) => {
      const from = `198.51.100.${76 + tryNumber}`
      const out: number[] = []
      for (let i = 0; i < VITALS_PER_MINUTE + 5; i++)
        out.push(
          (await beacon({ page: 'home', metrics: [{ name: 'TTFB', value: 100 + i }] }, { ip: from })).status,
        )
      return out
    })
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0)
    expect(statuses.filter((s) => s === 204).length).toBeLessThanOrEqual(VITALS_PER_MINUTE)
  })

  it('stops storing a page type’s metric for the day at the daily cap', async () => {
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2)
       INSERT INTO vitals_samples (day, page, metric, value) SELECT ?1, 'lists', 'CLS', 0.01 FROM n`,
    )
      .bind(today(), VITALS_DAILY_CAP)
      .run()
    const res = await beacon({
      page: 'lists',
      metrics: [
        { name: 'CLS', value: 0.5 },
        { name: 'LCP', value: 900 },
      ],
    })
    expect(res.status).toBe(204)
    expect(await count("page = 'lists' AND metric = 'CLS' AND day = ?", today())).toBe(VITALS_DAILY_CAP)
    expect(await count("page = 'lists' AND metric = 'LCP' AND day = ?", today())).toBe(1)
  })

  it('is the shop’s own endpoint also when /api is proxied to an upstream', async () => {
    const res = await appFetch(
      '/api/vitals',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'cf-connecting-ip': nextIp() },
        body: JSON.stringify({ page: 'category', metrics: [{ name: 'LCP', value: 1200 }] }),
      },
      { ...env, API_UPSTREAM: 'https://upstream.invalid' },
    )
    expect(res.status).toBe(204)
  })

  it('names the page type on every page for the beacon', async () => {
    const home = await (await SELF.fetch('https://shop.test/')).text()
    expect(home).toMatch(/<html[^>]* data-page="home"/)
  })
})

describe('what the back office shows', () => {
  it('the p75 per page type, metric and day: the nearest-rank 75th percentile of the samples', async () => {
    await env.DB.prepare("DELETE FROM vitals_samples WHERE page = 'checkout'").run()
    // 1..40 ms in a shuffled order, sent in beacons of one metric each.
    const values = Array.from({ length: 40 }, (_, i) => ((i * 17) % 40) + 1)
    await env.DB.batch(
      values.map((v) =>
        env.DB.prepare(
          "INSERT INTO vitals_samples (day, page, metric, value) VALUES (?, 'checkout', 'INP', ?)",
        ).bind(today(), v),
      ),
    )
    const sorted = [...values].sort((a, b) => a - b)
    const expected = sorted[Math.ceil(0.75 * sorted.length) - 1]
    const viewer = await operator('viewer')
    const res = await admin(viewer, '/api/field-data')
    expect(res.status).toBe(200)
    const row = (
      res.json.result.rows as { day: string; page: string; metric: string; p75: number; samples: number }[]
    ).find((r) => r.page === 'checkout' && r.metric === 'INP' && r.day === today())
    expect(row).toEqual({ day: today(), page: 'checkout', metric: 'INP', samples: 40, p75: expected })
    const page = await admin(viewer, '/field-data')
    expect(page.text).toContain(`${expected} ms`)
  })

  it('one address is one vote: 20 slow beacons a minute from one address do not set the p75', async () => {
    await env.DB.prepare("DELETE FROM vitals_samples WHERE page = 'content'").run()
    // Ten visitors, one page view each: LCP 1,000–1,900 ms.
    const honest = Array.from({ length: 10 }, (_, i) => 1000 + i * 100)
    for (const [i, value] of honest.entries())
      expect(
        (await beacon({ page: 'content', metrics: [{ name: 'LCP', value }] }, { ip: `192.0.2.${i + 1}` }))
          .status,
      ).toBe(204)
    // One address sends a beacon every 3 s for a minute, each as slow as a visit can report.
    const flood = '198.18.50.50'
    const answers: number[] = []
    for (let i = 0; i < VITALS_PER_MINUTE; i++)
      answers.push(
        (await beacon({ page: 'content', metrics: [{ name: 'LCP', value: 119_000 }] }, { ip: flood })).status,
      )
    expect(answers.every((s) => s === 204)).toBe(true)
    // It keeps at most its own share of samples…
    expect(await count("page = 'content' AND value = 119000")).toBe(VITALS_PER_ADDRESS_DAILY)
    // …and one vote: the p75 over the eleven addresses, each with its own p75 (computed here
    // independently: the flood's own p75 is 119,000; the visitors' are their one value).
    const votes = [...honest, 119_000].sort((a, b) => a - b)
    const expected = votes[Math.ceil(0.75 * votes.length) - 1]
    expect(expected).toBe(1800)
    const viewer = await operator('viewer')
    const row = (await admin(viewer, '/api/field-data')).json.result.rows.find(
      (r: { page: string; metric: string; day: string }) =>
        r.page === 'content' && r.metric === 'LCP' && r.day === today(),
    )
    expect(row).toEqual({
      day: today(),
      page: 'content',
      metric: 'LCP',
      samples: 10 + VITALS_PER_ADDRESS_DAILY,
      p75: expected,
    })
  })

  it('an IPv6 /64 is one address for the beacon limit (rotating the host part does not help)', async () => {
    const statuses = await inOneWindow(60_000, async (tryNumber) => {
      const out: number[] = []
      for (let i = 0; i < VITALS_PER_MINUTE + 5; i++)
        out.push(
          (
            await beacon(
              { page: 'home', metrics: [{ name: 'TTFB', value: 100 }] },
              { ip: `2001:db8:77:${tryNumber}::${(i + 1).toString(16)}` },
            )
          ).status,
        )
      return out
    })
    expect(statuses.filter((s) => s === 204).length).toBeLessThanOrEqual(VITALS_PER_MINUTE)
    expect(statuses).toContain(429)
  })

  it('drops local samples older than the retention period when the scheduled job runs', async () => {
    await env.DB.prepare(
      "INSERT INTO vitals_samples (day, page, metric, value) VALUES ('2020-01-01', 'home', 'LCP', 1)",
    ).run()
    await runCron()
    expect(await count("day = '2020-01-01'")).toBe(0)
  })
})

describe('in production (Analytics Engine bound)', () => {
  it('writes each sample as a data point and reads the p75 back through the SQL API', async () => {
    const points: AnalyticsEngineDataPoint[] = []
    const dataset: AnalyticsEngineDataset = { writeDataPoint: (p) => void points.push(p ?? {}) }
    const prod = {
      ...env,
      VITALS: dataset,
      CLOUDFLARE_ACCOUNT_ID: 'acc123',
      CLOUDFLARE_API_TOKEN: 'analytics-token',
      CLOUDFLARE_API_BASE: 'https://api.cloudflare.test/client/v4',
    } as Env
    const before = await count()
    const res = await appFetch(
      '/api/vitals',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'cf-connecting-ip': nextIp() },
        body: JSON.stringify({
          page: 'home',
          metrics: [
            { name: 'LCP', value: 1500 },
            { name: 'CLS', value: 0.05 },
          ],
        }),
      },
      prod,
    )
    expect(res.status).toBe(204)
    const source = expect.stringMatching(/^[0-9a-f]{16}$/)
    expect(points).toEqual([
      { indexes: ['home'], blobs: ['home', 'LCP', '', source], doubles: [1500] },
      { indexes: ['home'], blobs: ['home', 'CLS', '', source], doubles: [0.05] },
    ])
    // The sender's key, never its address.
    expect(JSON.stringify(points)).not.toMatch(/203\.0\.113/)
    expect(await count()).toBe(before)

    const seen: { url: string; auth: string | null; sql: string }[] = []
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const req = new Request(input, init)
      seen.push({ url: req.url, auth: req.headers.get('authorization'), sql: await req.text() })
      return Response.json({
        meta: [],
        data: [{ day: '2026-11-24', page: 'home', metric: 'LCP', samples: '120', p75: 2210.5 }],
        rows: 1,
      })
    })
    const { vitalsP75 } = await import('../../../worker/vitals/store')
    const read = await vitalsP75(prod, 14, Date.now())
    expect(read).toEqual({
      source: 'analytics-engine',
      rows: [{ day: '2026-11-24', page: 'home', metric: 'LCP', samples: 120, p75: 2210.5 }],
    })
    expect(seen[0]?.url).toBe('https://api.cloudflare.test/client/v4/accounts/acc123/analytics_engine/sql')
    expect(seen[0]?.auth).toBe('Bearer analytics-token')
    // Each source's p75 in a subquery grouped by the source blob, then the p75 over sources.
    expect(seen[0]?.sql).toMatch(
      /quantileExactWeighted\(0\.75\)\(vote, w\)[\s\S]*FROM \([\s\S]*blob4 AS source[\s\S]*quantileExactWeighted\(0\.75\)\(double1, _sample_interval\) AS vote[\s\S]*FROM storefront_vitals[\s\S]*GROUP BY day, page, metric, source\)/,
    )
    expect(await vitalsP75({ ...prod, CLOUDFLARE_API_TOKEN: '' }, 14, Date.now())).toMatchObject({
      failed: expect.stringMatching(/CLOUDFLARE_ACCOUNT_ID/),
    })
  })
})

describe('instant navigations', () => {
  const rulesOf = (html: string) => {
    const m = html.match(/<script type="speculationrules" nonce="[^"]+">([\s\S]*?)<\/script>/)
    return m ? (JSON.parse(m[1] as string) as { prefetch: { where: unknown; eagerness: string }[] }) : null
  }

  it('a listing carries prefetch rules that leave out every personal or stateful page', async () => {
    const html = await (await SELF.fetch('https://shop.test/c/sarees')).text()
    const rules = rulesOf(html)
    expect(rules?.prefetch[0]?.eagerness).toBe('moderate')
    const excluded = JSON.stringify(rules?.prefetch[0]?.where)
    for (const path of [
      '/cart',
      '/checkout',
      '/my-account',
      '/order/*',
      '/admin',
      '/api/*',
      '/search',
      '\\\\?',
    ])
      expect(excluded, path).toContain(path)
  })

  it('the checkout and the cart carry none', async () => {
    for (const path of ['/checkout', '/cart']) {
      const html = await (await SELF.fetch(`https://shop.test${path}`)).text()
      expect(rulesOf(html), path).toBeNull()
    }
  })

  it('a prefetch is answered from the output cache like the visit that follows it', async () => {
    const url = 'https://shop.test/c/sarees?speculation-probe=1'
    await SELF.fetch(url)
    const prefetch = await SELF.fetch(url, { headers: { 'sec-purpose': 'prefetch' } })
    expect(prefetch.status).toBe(200)
    expect(prefetch.headers.get('set-cookie')).toBeNull()
    expect(prefetch.headers.get('x-cache') ?? prefetch.headers.get('cf-cache-status') ?? '').toMatch(/HIT/i)
  })
})
