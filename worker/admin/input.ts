/**
 * Operator input: the same zod schema validates a JSON body (the /admin/api callers) and an HTML
 * form post (the pages work without script), and refusals read like every other 400 of the shop:
 * `Invalid <what>: <field>: <rule>`. A form post is answered with a redirect back to its page.
 */
import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { z } from 'zod'
import { describeIssues, fail, MAX_API_BODY_BYTES, ok } from '../platform/http'
import type { AdminEnv } from './env'

const MAX_BODY_BYTES = MAX_API_BODY_BYTES

export function isFormPost(c: Context<AdminEnv>): boolean {
  const type = c.req.header('content-type') ?? ''
  return type.includes('application/x-www-form-urlencoded') || type.includes('multipart/form-data')
}

/**
 * A text the operator must give: trimmed, at least one character and at most `max`, each refusal
 * naming the field (`tooLong` words the refusal of a longer one).
 */
export const requiredText = (label: string, max: number, tooLong = `${label} is too long`) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, tooLong)

/** The request's input, validated by `schema`; bad or over-long input is a 400 naming what was wrong. */
export async function readInput<S extends z.ZodType>(
  c: Context<AdminEnv>,
  schema: S,
  what: string,
): Promise<z.output<S>> {
  const declared = Number(c.req.header('content-length') ?? 0)
  if (declared > MAX_BODY_BYTES) fail(400, `Request body is too large (at most ${MAX_BODY_BYTES} bytes)`)
  let value: unknown
  if (isFormPost(c)) {
    const form = await c.req.parseBody()
    // An empty form field means "not given" (optional fields keep their defaults). A repeated
    // field keeps its last value, so a hidden "false" before a checkbox is the unchecked state.
    value = Object.fromEntries(
      Object.entries(form).filter(
        ([k, v]) =>
          k !== '_csrf' && k !== 'return_to' && k !== '_form' && typeof v === 'string' && v.trim() !== '',
      ),
    )
  } else {
    const text = await c.req.text()
    if (text.length > MAX_BODY_BYTES) fail(400, `Request body is too large (at most ${MAX_BODY_BYTES} bytes)`)
    try {
      value = text.trim() === '' ? {} : JSON.parse(text)
    } catch {
      fail(400, `Invalid ${what}: malformed JSON`)
    }
  }
  const parsed = await schema.safeParseAsync(value)
  if (!parsed.success) {
    // The reason of each refused field travels with the 400, so a form shows it beside the field.
    const fields: Record<string, string> = {}
    for (const issue of parsed.error.issues) {
      const name = String(issue.path[0] ?? '')
      if (name && !fields[name]) fields[name] = issue.message
    }
    throw new HTTPException(400, {
      message: `Invalid ${what}: ${describeIssues(parsed.error)}`,
      cause: { fields },
    })
  }
  return parsed.data as z.output<S>
}

/** A back-office page to return to, or null for anything else (never another site). */
export function backOfficePath(target: unknown): string | null {
  return typeof target === 'string' && /^\/admin(\/[A-Za-z0-9/_.?=&%+-]*)?$/.test(target) ? target : null
}

/** Where a form post returns to: a page of the back office only. */
async function returnTo(c: Context<AdminEnv>, fallback: string): Promise<string> {
  const form = await c.req.parseBody()
  return backOfficePath(form.return_to) ?? fallback
}

/** The answer of a change: the envelope for API callers, a redirect back for a form post. */
export async function answer(c: Context<AdminEnv>, result: unknown, fallback = '/admin') {
  if (isFormPost(c)) return c.redirect(await returnTo(c, fallback), 303)
  return ok(c as never, result)
}

/**
 * A LIKE pattern matching text that contains `q` literally (use with `ESCAPE '\\'`): the
 * operator's % and _ are ordinary characters, never wildcards.
 */
export function containsPattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (m) => `\\${m}`)}%`
}

/** The largest amount an operator types: ₹10,00,00,000.00 (in paise). */
const MAX_AMOUNT_MINOR = 10_000_000_000

/**
 * An amount typed in rupees (or the shop's currency), as operators write it: `5000` is ₹5,000,
 * `5,000`, `50,000.50`, `₹ 1,00,000` and what the forms show (`₹87,199.00`) are accepted (commas
 * group digits anywhere, a ₹, "Rs" or "INR" in front is ignored), at most two decimals. The answer
 * is in minor units (paise), a whole number, or the reason it is not an amount, in words.
 * `signed` also accepts a leading minus (revoking store credit); `zero` accepts ₹0 (a minimum
 * that is no minimum), which is otherwise never an amount to move.
 */
export function readAmount(
  raw: string,
  name: string,
  opts: { signed?: boolean; zero?: boolean } = {},
): number | { refused: string } {
  const text = raw
    .trim()
    .replace(/^(-?)\s*(?:₹|rs\.?|inr)\s*/i, '$1')
    .replace(/\s+/g, '')
  const m = /^(-?)(\d(?:\d|,(?=\d))*)(?:\.(\d{1,2}))?$/.exec(text)
  if (!m || (m[1] && !opts.signed))
    return { refused: `${name} must be an amount in rupees, like 5000 or 5,000.50` }
  const rupees = Number((m[2] as string).replace(/,/g, ''))
  const minor = rupees * 100 + Number((m[3] ?? '').padEnd(2, '0'))
  if (!Number.isSafeInteger(minor) || minor > MAX_AMOUNT_MINOR) return { refused: `${name} is too large` }
  if (minor === 0 && !opts.zero) return { refused: `${name} must not be ₹0` }
  return m[1] ? -minor : minor
}

/** A form's amount in rupees (`readAmount`), in paise; a field of a schema. */
export function amountTyped(name: string, opts: { signed?: boolean; zero?: boolean } = {}) {
  return z.string({ error: `${name} is required` }).transform((raw, ctx) => {
    const read = readAmount(raw, name, opts)
    if (typeof read === 'number') return read
    ctx.addIssue({ code: 'custom', message: read.refused })
    return z.NEVER
  })
}

/**
 * An amount of a document that keeps rupees (a product's price, a coupon's amount): a number from
 * a JSON caller, or what an operator typed (`readAmount`), to the paisa.
 */
export function rupeesTyped(name: string, opts: { zero?: boolean } = {}) {
  return z.union([z.number(), z.string()], { error: `${name} is required` }).transform((v, ctx) => {
    if (typeof v === 'number') return v
    const read = readAmount(v, name, opts)
    if (typeof read === 'number') return read / 100
    ctx.addIssue({ code: 'custom', message: read.refused })
    return z.NEVER
  })
}

/**
 * The amount of a money change: `amount` typed in rupees by a form, or `amount_minor` (paise) from
 * an API caller, whichever is given; a transform step for an object schema holding both.
 */
export function oneAmount<T extends { amount?: number; amount_minor?: number }>(
  v: T,
  ctx: z.RefinementCtx,
): Omit<T, 'amount'> & { amount_minor: number } {
  const { amount, ...rest } = v
  const minor = amount ?? v.amount_minor
  if (minor === undefined) {
    ctx.addIssue({ code: 'custom', path: ['amount'], message: 'amount is required' })
    return z.NEVER
  }
  return { ...rest, amount_minor: minor }
}
