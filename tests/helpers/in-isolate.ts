// The worker called inside the test's own isolate (not through SELF), so a test can hand it
// bindings of its choosing (keys set, a provider's base URL, a wrapped database), and waiting for
// the work it leaves running (waitUntil) before the test looks at what it did.
import {
  createExecutionContext,
  createScheduledController,
  env,
  waitOnExecutionContext,
} from 'cloudflare:test'
import app from '../../worker/app'
import worker from '../../worker/index'

/** The app's answer to `init` at the shop's `path` under `bindings`, once its waitUntil work is done. */
export async function appFetch(path: string, init: RequestInit = {}, bindings: Env = env): Promise<Response> {
  const ctx = createExecutionContext()
  const res = await app.fetch(new Request(`https://shop.test${path}`, init), bindings, ctx)
  await waitOnExecutionContext(ctx)
  return res
}

/** Runs the worker's five-minute cron as scheduled at `at` under `bindings`, and waits for all its work. */
export async function runCron(at: number = Date.now(), bindings: Env = env): Promise<void> {
  const ctx = createExecutionContext()
  await worker.scheduled(
    createScheduledController({ scheduledTime: new Date(at), cron: '*/5 * * * *' }),
    bindings,
    ctx,
  )
  await waitOnExecutionContext(ctx)
}
