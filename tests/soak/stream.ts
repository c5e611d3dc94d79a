/**
 * The attack phase's cheap stream, sent and timed from a thread of its own: one request every
 * `intervalMs` whether or not the previous one answered (a stalled worker shows as latency, not as
 * fewer samples), each on a fresh connection, timed from the request to the last byte of its answer.
 * The soak's main thread also runs the attacks' oracles and the local runtime's Node-side services;
 * when it stalls, the requests it times wait too, so a stream timed there would charge that stall to
 * the worker. Every sample is kept.
 */
import { Worker } from 'node:worker_threads'

export interface StreamSample {
  /** When the request was sent (performance.now() of the soak's main thread). */
  t: number
  ms: number
  ok: boolean
  /** The path requested, with the output cache's answer (`x-cache`) when it gave one. */
  what: string
}

/** The thread's code (CommonJS, evaluated by worker_threads). */
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads')
const http = require('node:http')
const { base, paths, intervalMs, timeoutMs } = workerData
const u = new URL(base)
let i = 0
let outstanding = 0
const send = () => {
  if (outstanding > 200) return
  const path = paths[i++ % paths.length]
  const t0 = performance.now()
  outstanding++
  let settled = false
  let what = path
  const done = (ok) => {
    if (settled) return
    settled = true
    outstanding--
    parentPort.postMessage({ t: performance.timeOrigin + t0, ms: performance.now() - t0, ok, what })
  }
  const req = http.request(
    { host: u.hostname, port: u.port, method: 'GET', path, agent: false, signal: AbortSignal.timeout(timeoutMs) },
    (res) => {
      const cache = res.headers['x-cache']
      if (cache) what = path + ' (' + cache + ')'
      res.on('data', () => {})
      res.on('end', () => done((res.statusCode ?? 0) < 400))
      res.on('error', () => done(false))
    },
  )
  req.on('error', () => done(false))
  req.end()
}
const timer = setInterval(send, intervalMs)
parentPort.on('message', () => {
  clearInterval(timer)
  const until = Date.now() + timeoutMs + 5000
  const check = setInterval(() => {
    if (outstanding === 0 || Date.now() > until) {
      clearInterval(check)
      parentPort.postMessage('stopped')
    }
  }, 20)
})
`

/** Starts the stream in its own thread; `stop` ends it once every request sent has answered. */
export function startStream(base: string, paths: string[], intervalMs: number, timeoutMs: number) {
  const samples: StreamSample[] = []
  const thread = new Worker(THREAD, { eval: true, workerData: { base, paths, intervalMs, timeoutMs } })
  let stopped: () => void = () => {}
  thread.on('message', (m: StreamSample | 'stopped') => {
    if (m === 'stopped') stopped()
    else samples.push({ ...m, t: m.t - performance.timeOrigin })
  })
  return {
    samples,
    async stop() {
      await new Promise<void>((resolve) => {
        stopped = resolve
        thread.postMessage('stop')
      })
      await thread.terminate()
    },
  }
}
