/**
 * The soak run's attack phase (Node side; bundled with lib.ts): a steady stream of cheap requests
 * (a static asset and a cached page) is measured alone first, then while N generated attacks
 * (tests/helpers/fuzz-attacks.ts, and the soak-only floods of ./flood-attacks.ts) are sent at a
 * fixed concurrency. Properties: every attack is answered 2xx/4xx within the bound with its
 * class's oracle holding, the invariants hold after the phase, and the stream's p99 under attack
 * stays within `maxRatio` × its idle p99.
 */
import http from 'node:http'
import fc from 'fast-check'
import { checkInvariants, type D1Like, type FuzzPools, snapshotInventory } from '../helpers/fuzz-api'
import {
  type Answer,
  ATTACK_CLASSES,
  type AttackCase,
  type AttackClass,
  type AttackContext,
  type AttackRequest,
  attackCase,
  attackProbes,
  checkAttackInvariants,
  describeAttack,
  prepareAttackWorld,
  runAttack,
  type SqlLike,
} from '../helpers/fuzz-attacks'
import {
  checkFloodInvariants,
  type FloodWorld,
  floodCase,
  mailFloodSummary,
  prepareFloodWorld,
  SOAK_ATTACK_CLASSES,
  type SoakAttackClass,
} from './flood-attacks'
import { type StallProfile, stallRecorder } from './stalls'
import { startStream } from './stream'

export interface AttackPhaseOptions {
  /** http://127.0.0.1:PORT of the worker. */
  base: string
  db: SqlLike & D1Like
  pools: FuzzPools
  seed: number
  /** Generated attacks to send (the probes come on top). */
  cases: number
  /** Classes of tests/helpers/fuzz-attacks.ts and of ./flood-attacks.ts. */
  classes: string[]
  /** Catalogue image paths in the bucket, for the img class: one to resize, one too large to. */
  images?: { path: string; huge?: string }
  concurrency: number
  /** Per-attack time bound (ms). */
  boundMs: number
  /** No new attack starts after this moment (epoch ms). */
  deadline: number
  /** Seconds the cheap stream is measured alone first. */
  idleSeconds: number
  /** The cheap requests, sent in turn every `streamIntervalMs`. */
  streamPaths: string[]
  streamIntervalMs: number
  /** The stream's p99 under attack may be at most this × its idle p99. */
  maxRatio: number
  log: (...a: unknown[]) => void
}

interface ClassStats {
  sent: number
  problems: number
  over: number
  fivexx: number
  worstMs: number
}

export interface AttackPhaseReport {
  seed: number
  planned: number
  tried: number
  requests: number
  seconds: number
  concurrency: number
  boundMs: number
  statuses: Record<string, number>
  byClass: Record<string, ClassStats>
  worst: { ms: number; status: number; attack: string }
  overBound: number
  fivexx: number
  problems: string[]
  /** Failures grouped by class, case kind and reason (most frequent first). */
  groups: { key: string; count: number; example: string }[]
  /** Set when an attack got no answer at all: the worker stopped answering, the phase stopped. */
  frozen: string | null
  stream: {
    paths: string[]
    idle: { n: number; p50: number; p99: number }
    attack: { n: number; p50: number; p99: number; errors: number }
    /** The stream alone again after the attacks (context for machine noise; not in the ratio). */
    after: { n: number; p50: number; p99: number }
    ratio: number
  }
  /** What was in flight while the stream was slow (./stalls.ts). */
  stalls: StallProfile
  invariantViolations: string[]
  /** What the mail flood's requests made each kind of mail send to its one inbox. */
  mailFlood: Record<string, number> | null
}

/** Bodies above this wait for "100 Continue" before they are sent. */
const LARGE_BODY_BYTES = 64 * 1024

/** An attack gets no answer within this: the worker is considered frozen. */
const NO_ANSWER_MS = 20_000

/**
 * Sends one request with full control of the headers (Host included) over node:http, on a fresh
 * connection each time: a kept-alive socket the server has just closed would fail the request on
 * the client's side ("socket hang up") and be taken for the server's failure.
 */
export function httpSender(base: string): (r: AttackRequest) => Promise<Answer> {
  const u = new URL(base)
  return (r) =>
    new Promise((resolve, reject) => {
      const body = r.body === undefined ? undefined : Buffer.from(r.body, 'utf8')
      const headers: Record<string, string | number> = { ...r.headers, host: r.host ?? u.host }
      // A server may answer (e.g. 413) and close before the whole body is written: the answer
      // counts, the failed write does not. A large body waits for the server's "100 Continue",
      // so a refusal that comes first is read instead of racing the upload.
      let answered = false
      if (body) headers['content-length'] = body.length
      const waitForContinue = body !== undefined && body.length > LARGE_BODY_BYTES
      if (waitForContinue) headers.expect = '100-continue'
      const req = http.request(
        {
          host: u.hostname,
          port: u.port,
          method: r.method,
          path: r.path,
          headers,
          setHost: false,
          agent: false,
          signal: AbortSignal.timeout(NO_ANSWER_MS),
        },
        (res) => {
          answered = true
          const chunks: Buffer[] = []
          res.on('data', (c: Buffer) => chunks.push(c))
          res.on('end', () => {
            if (waitForContinue) req.destroy()
            const headerText = Object.entries(res.headers)
              .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : v}`)
              .join('\n')
            resolve({
              status: res.statusCode ?? 0,
              type: (res.headers['content-type'] as string | undefined) ?? null,
              text: Buffer.concat(chunks).toString('utf8'),
              headerText,
            })
          })
          res.on('error', reject)
        },
      )
      req.on('error', (err) => {
        if (!answered) reject(err)
      })
      if (waitForContinue) {
        req.on('continue', () => req.end(body))
        req.flushHeaders()
      } else req.end(body)
    })
}

/** A failure's reason with the variable parts (numbers, quoted text) left out. */
function reason(problem: string): string {
  return problem
    .split('; ')
    .map((p) =>
      p
        .replace(/"(?:[^"\\]|\\.)*"/g, '…')
        .replace(/\{.*$/, '…')
        .replace(/\d+(\.\d+)?(?!xx)/g, 'N')
        .slice(0, 90),
    )
    .join('; ')
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0
}

const round = (n: number) => Math.round(n * 10) / 10

function summary(samples: { ms: number }[]) {
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b)
  return { n: sorted.length, p50: round(quantile(sorted, 0.5)), p99: round(quantile(sorted, 0.99)) }
}

/**
 * D1 reads from Node go through Miniflare's loopback, which can fail on the client side under
 * load ("fetch failed"); the oracles' reads are retried (they are SELECTs and idempotent updates).
 */
function retrying(db: SqlLike & D1Like): SqlLike & D1Like {
  const again = async <T>(run: () => Promise<T>): Promise<T> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await run()
      } catch (err) {
        if (attempt >= 3 || !/fetch failed|socket|ECONNRESET/i.test(String(err))) throw err
        await new Promise((r) => setTimeout(r, 100 * attempt))
      }
    }
  }
  return {
    prepare: (sql: string) => ({
      bind: (...values: unknown[]) => ({
        all: <T>() =>
          again(() =>
            db
              .prepare(sql)
              .bind(...values)
              .all<T>(),
          ),
      }),
      all: <T>() => again(() => db.prepare(sql).all<T>()),
    }),
  } as SqlLike & D1Like
}

export async function runAttackPhase(options: AttackPhaseOptions): Promise<AttackPhaseReport> {
  const o = { ...options, db: retrying(options.db) }
  const send = httpSender(o.base)
  const started = Date.now()
  const world = await prepareAttackWorld({ send, db: o.db, pools: o.pools, tag: `s${o.seed}` })
  const fuzzClasses = o.classes.filter((c): c is AttackClass =>
    (ATTACK_CLASSES as readonly string[]).includes(c),
  )
  const soakClasses = o.classes.filter((c): c is SoakAttackClass =>
    (SOAK_ATTACK_CLASSES as readonly string[]).includes(c),
  )
  const flood: FloodWorld | null = soakClasses.length
    ? await prepareFloodWorld({ send, db: o.db, world, images: o.images })
    : null
  const before = await snapshotInventory(o.db)
  const ctx: AttackContext = { send, db: o.db, world, boundMs: o.boundMs, now: () => performance.now() }
  // Generated up front, so generation does not compete with the measured stream; every class
  // equally likely.
  const cases: AttackCase[] = [
    ...attackProbes(fuzzClasses),
    ...fc.sample(
      fc.oneof(
        ...fuzzClasses.map((c) => attackCase([c])),
        ...soakClasses.map((c) => floodCase(c, flood as FloodWorld)),
      ),
      { seed: o.seed, numRuns: o.cases },
    ),
  ]

  // Warm the cheap requests (the page enters the output cache), then measure them alone.
  for (const path of o.streamPaths)
    for (let k = 0; k < 3; k++)
      await send({ endpoint: 'stream', method: 'GET', path, headers: {}, repeat: 1 })
  const idleStream = startStream(o.base, o.streamPaths, o.streamIntervalMs, NO_ANSWER_MS)
  await new Promise((r) => setTimeout(r, o.idleSeconds * 1000))
  await idleStream.stop()

  const stream = startStream(o.base, o.streamPaths, o.streamIntervalMs, NO_ANSWER_MS)
  const stalls = stallRecorder()
  const attackStart = performance.now()
  const statuses = new Map<number, number>()
  const byClass: Record<string, ClassStats> = {}
  for (const c of o.classes) byClass[c] = { sent: 0, problems: 0, over: 0, fivexx: 0, worstMs: 0 }
  const problems: string[] = []
  const groups = new Map<string, { key: string; count: number; example: string }>()
  let worst = { ms: 0, status: 0, attack: '' }
  let tried = 0
  let requests = 0
  let overBound = 0
  let fivexx = 0
  let frozen: string | null = null
  let next = 0
  const worker = async () => {
    while (next < cases.length && !frozen && Date.now() < o.deadline) {
      const a = cases[next++] as AttackCase
      tried++
      const t0 = performance.now()
      const out = await runAttack(a, ctx)
      stalls.span(`${a.cls}: ${a.kind}`, t0, performance.now())
      requests += out.requests
      const s = byClass[a.cls] as ClassStats
      s.sent++
      statuses.set(out.status, (statuses.get(out.status) ?? 0) + 1)
      if (out.ms > s.worstMs) s.worstMs = out.ms
      if (out.ms > worst.ms)
        worst = { ms: out.ms, status: out.status, attack: describeAttack(a, out.request, 160) }
      if (out.ms > o.boundMs) {
        overBound++
        s.over++
      }
      if (out.status >= 500) {
        fivexx++
        s.fivexx++
      }
      if (out.problem) {
        s.problems++
        problems.push(`${out.problem.slice(0, 400)}\n      ${describeAttack(a, out.request, 200)}`)
        const key = `${a.cls}: ${a.kind} → ${reason(out.problem)}`
        const g = groups.get(key)
        if (g) g.count++
        else groups.set(key, { key, count: 1, example: describeAttack(a, out.request, 160) })
        if (out.status === 0 && /request failed: (AbortError|TimeoutError)/.test(out.problem))
          frozen = `no answer within ${NO_ANSWER_MS / 1000} s to ${describeAttack(a, out.request, 160)}`
      }
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, o.concurrency) }, worker))
  const attackEnd = performance.now()
  await stream.stop()
  let after = { n: 0, p50: 0, p99: 0 }
  if (!frozen) {
    const afterStream = startStream(o.base, o.streamPaths, o.streamIntervalMs, NO_ANSWER_MS)
    await new Promise((r) => setTimeout(r, (o.idleSeconds * 1000) / 2))
    await afterStream.stop()
    after = summary(afterStream.samples)
  }
  const during = stream.samples.filter((s) => s.t >= attackStart && s.t <= attackEnd)
  const idle = summary(idleStream.samples)
  const attack = { ...summary(during), errors: during.filter((s) => !s.ok).length }
  const profile = stalls.profile(during, o.maxRatio * Math.max(idle.p99, 0.1))
  const invariantViolations = frozen
    ? ['not checked: the worker stopped answering']
    : [
        ...(await checkInvariants(o.db, before)),
        ...(await checkAttackInvariants(o.db, world)),
        ...(flood ? await checkFloodInvariants(o.db, flood, soakClasses) : []),
      ]
  return {
    seed: o.seed,
    planned: cases.length,
    tried,
    requests,
    seconds: Math.round((Date.now() - started) / 1000),
    concurrency: o.concurrency,
    boundMs: o.boundMs,
    statuses: Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])),
    byClass,
    worst: { ...worst, ms: round(worst.ms) },
    overBound,
    fivexx,
    problems,
    groups: [...groups.values()].sort((x, y) => y.count - x.count),
    frozen,
    stream: {
      paths: o.streamPaths,
      idle,
      attack,
      after,
      ratio: round(attack.p99 / Math.max(idle.p99, 0.1)),
    },
    stalls: profile,
    invariantViolations,
    mailFlood: flood && soakClasses.includes('mail') ? await mailFloodSummary(o.db, flood) : null,
  }
}
