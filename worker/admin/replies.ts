/**
 * A refused form post is answered with the page it came from, not an error page: the page is
 * rendered again (status of the refusal: 400, 403, 404, 409, 429) with what the operator typed in
 * the form's fields and the reason beside the field it concerns, or above the form's button.
 * The page is rendered by its own GET route, for the same operator, in the same request.
 */
import { type Context, Hono } from 'hono'
import type { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { fail } from '../platform/http'
import type { AdminEnv } from './env'
import { backOfficePath, isFormPost } from './input'
import { pageRoutes } from './page-routes'
import type { FormReply } from './pages/components'
import { taxDocumentRoutes } from './tax-documents'

/** What a typed value keeps for the re-rendered form (longer text is cut). */
const MAX_VALUE_CHARS = 20_000

/** The variables of the refused request, handed to its page's rendering. */
const carried = new WeakMap<Request, Record<string, unknown>>()

const pages = new Hono<AdminEnv>()
pages.use('*', async (c, next) => {
  const vars = carried.get(c.req.raw)
  if (!vars) return fail(404, 'Not found')
  for (const [k, v] of Object.entries(vars)) c.set(k as never, v as never)
  await next()
})
pages.route('/admin', pageRoutes)
pages.route('/admin', taxDocumentRoutes)

/** The page of a refused form post with the refusal in its form, or null to answer as usual. */
export async function replyOnPage(c: Context<AdminEnv>, err: HTTPException): Promise<Response | null> {
  if (!isFormPost(c) || err.status >= 500 || !c.var.operator) return null
  let form: Record<string, unknown>
  try {
    form = await c.req.parseBody()
  } catch {
    return null
  }
  const back = backOfficePath(form.return_to)
  if (!back) return null
  const values: Record<string, string> = {}
  for (const [k, v] of Object.entries(form)) {
    // A password is never sent back into a page.
    if (typeof v !== 'string' || k.startsWith('_') || k === 'return_to' || /password/i.test(k)) continue
    values[k] = v.slice(0, MAX_VALUE_CHARS)
  }
  const reply: FormReply = {
    action: new URL(c.req.url).pathname,
    form: typeof form._form === 'string' ? form._form : '',
    values,
    message: err.message,
    fields: (err.cause as { fields?: Record<string, string> } | undefined)?.fields ?? {},
  }
  return renderBack(c, back, reply, err.status as ContentfulStatusCode)
}

/**
 * A form post that only asks for its draft back (a block editor's preview, add, move or remove):
 * its page with `values` in the form and no refusal, status 200; nothing was saved.
 */
export async function draftOnPage(c: Context<AdminEnv>, values: Record<string, string>): Promise<Response> {
  const form = await c.req.parseBody()
  const back = backOfficePath(form.return_to)
  if (!back) return fail(400, 'Invalid form: return_to must be a page of the back office')
  const reply: FormReply = { action: new URL(c.req.url).pathname, form: '', values, message: '', fields: {} }
  return (await renderBack(c, back, reply, 200)) ?? fail(404, 'Not found')
}

/** The page at `back`, rendered by its GET route for the same operator with `reply` in its form. */
async function renderBack(
  c: Context<AdminEnv>,
  back: string,
  reply: FormReply,
  status: ContentfulStatusCode,
): Promise<Response | null> {
  const req = new Request(new URL(back, c.req.url))
  carried.set(req, { ...c.var, formReply: reply })
  const page = await pages.fetch(req, c.env, c.executionCtx)
  if (page.status !== 200) return null
  return c.body(await page.text(), status, { 'content-type': 'text/html; charset=utf-8' })
}
