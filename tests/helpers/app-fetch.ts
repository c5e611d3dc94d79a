// The worker app called inside the test's own isolate (not through SELF), so a test can hand it
// bindings of its choosing (keys set, a provider's base URL, a wrapped database).
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import app from '../../worker/app'

/** The app's answer to `init` at the shop's `path` under `bindings`, once its waitUntil work is done. */
export async function appFetch(path: string, init: RequestInit = {}, bindings: Env = env): Promise<Response> {
  const ctx = createExecutionContext()
  const res = await app.fetch(new Request(`https://shop.test${path}`, init), bindings, ctx)
  await waitOnExecutionContext(ctx)
  return res
}
