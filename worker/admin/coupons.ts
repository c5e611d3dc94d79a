/**
 * Coupons in the back office: list, create, edit and disable (a coupon is never deleted: orders
 * name it). Percent (1–100) or a fixed amount, a minimum subtotal, a validity window, and usage
 * limits (first order only, per shopper, in all) that the cart and order placement enforce.
 */
import { shopTimeZone } from '@shared/config/store'
import { zonedDayRange, zonedWallToInstant } from '@shared/domain/shop-clock'
import { z } from 'zod'
import { magentoDate } from '../api/user/repo'
import { fail } from '../platform/http'
import { auditStatement } from './audit'
import { rupeesTyped } from './input'

/**
 * A bound of a coupon's window as the operator enters it: a date, or a date and time, on the shop's
 * clock (SHOP_TIME_ZONE, Asia/Kolkata unless configured), or an ISO time in UTC ending in Z; kept
 * as ISO UTC. A date alone starts at that day's first moment; as the end of a window it covers the
 * whole day.
 */
const windowBound = (end: boolean) =>
  z
    .string()
    .trim()
    .regex(
      /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?Z?)?$/,
      'must be YYYY-MM-DD or YYYY-MM-DDTHH:MM (the shop’s time), or an ISO time in UTC ending in Z',
    )
    .transform((v, ctx) => {
      if (v.endsWith('Z')) return v
      const tz = shopTimeZone()
      const at = v.length === 10 && end ? zonedDayRange(v, tz).end - 1 : zonedWallToInstant(v, tz)
      if (at === null || Number.isNaN(at)) {
        ctx.addIssue({ code: 'custom', message: `${v} is not a date` })
        return z.NEVER
      }
      return new Date(at).toISOString()
    })
const limit = z.coerce
  .number()
  .int('must be a whole number')
  .min(1, 'must be at least 1')
  .max(10_000_000)
  .nullable()
const flag = z.preprocess((v) => v === true || v === 'true' || v === '1' || v === 'on', z.boolean())

const CouponFields = z.object({
  kind: z.enum(['percent', 'fixed'], { error: 'kind must be percent or fixed' }),
  // A percent (15, or 15%) or rupees as people write them (₹1,500); stored as the number.
  amount: z
    .preprocess((v) => (typeof v === 'string' ? v.replace(/%\s*$/, '') : v), rupeesTyped('amount'))
    .pipe(z.number().finite().positive('amount must be positive').max(10_000_000, 'amount is too large')),
  min_subtotal: rupeesTyped('minimum subtotal', { zero: true })
    .pipe(
      z
        .number()
        .finite()
        .min(0, 'minimum subtotal must not be negative')
        .max(100_000_000, 'minimum subtotal is too large'),
    )
    .default(0),
  starts_at: windowBound(false).nullable().default(null),
  expires_at: windowBound(true).nullable().default(null),
  label: z.string().trim().min(1, 'label is required').max(200, 'label is too long'),
  first_order_only: flag.default(false),
  per_customer_limit: limit.default(null),
  total_limit: limit.default(null),
  is_active: flag.default(true),
})

const checked = <
  T extends z.ZodType<{
    kind?: string
    amount?: number
    starts_at?: string | null
    expires_at?: string | null
  }>,
>(
  s: T,
) =>
  s
    .refine((c) => !(c.kind === 'percent' && (c.amount ?? 0) > 100), {
      message: 'a percent coupon gives at most 100',
      path: ['amount'],
    })
    .refine((c) => !(c.starts_at && c.expires_at && c.starts_at > c.expires_at), {
      message: 'the coupon must start before it expires',
      path: ['expires_at'],
    })

export const NewCouponSchema = checked(
  CouponFields.extend({
    code: z
      .string({ error: 'code is required' })
      .trim()
      .toUpperCase()
      .regex(/^[A-Z0-9_-]{3,32}$/, 'code must be 3–32 letters, digits, _ or -'),
  }),
)
export const CouponPatchSchema = checked(CouponFields.partial().strict())

export async function listCoupons(db: D1Database) {
  const { results } = await db
    .prepare(
      // `+c.code`: without the column's affinity, so the coupon-code index counts each coupon's uses
      // (compared with the column, D1 scanned every order once per coupon).
      `SELECT c.*, (SELECT COUNT(*) FROM orders WHERE json_extract(doc, '$.coupon_code') = +c.code COLLATE NOCASE
         AND status NOT IN ('canceled', 'expired')) AS used FROM coupons c ORDER BY c.code`,
    )
    .all()
  return results
}

const columns = (c: Partial<z.infer<typeof CouponFields>>) =>
  Object.entries(c).map(([k, v]) => [k, typeof v === 'boolean' ? (v ? 1 : 0) : v] as const)

export async function createCoupon(
  db: D1Database,
  input: z.infer<typeof NewCouponSchema>,
  actor: string,
  now: number,
) {
  const { code, ...fields } = input
  const cols = columns(fields)
  const [inserted] = await db.batch([
    db
      .prepare(
        `INSERT INTO coupons (code, ${cols.map(([k]) => k).join(', ')}, updated_at)
         VALUES (?, ${cols.map(() => '?').join(', ')}, ?) ON CONFLICT(code) DO NOTHING`,
      )
      .bind(code, ...cols.map(([, v]) => v), magentoDate(now)),
    auditStatement(db, { actor, action: 'coupon.create', target: `coupon:${code}`, after: fields }, now, {
      onlyIfChanged: true,
    }),
  ])
  if (inserted?.meta.changes !== 1) return fail(409, `A coupon with code ${code} already exists.`)
  return { code, ...fields }
}

/** Changes a coupon's rules (is_active false disables it). */
export async function updateCoupon(
  db: D1Database,
  code: string,
  patch: z.infer<typeof CouponPatchSchema>,
  actor: string,
  now: number,
) {
  const before = await db
    .prepare('SELECT * FROM coupons WHERE code = ?')
    .bind(code)
    .first<Record<string, unknown>>()
  if (!before) return fail(404, `Coupon ${code} does not exist.`)
  const cols = columns(patch)
  if (!cols.length) return fail(400, 'Invalid coupon change: nothing to change')
  const merged = { ...before, ...Object.fromEntries(cols) }
  if (merged.kind === 'percent' && Number(merged.amount) > 100)
    fail(400, 'Invalid coupon change: amount: a percent coupon gives at most 100')
  await db.batch([
    db
      .prepare(
        `UPDATE coupons SET ${cols.map(([k]) => `${k} = ?`).join(', ')}, updated_at = ? WHERE code = ?`,
      )
      .bind(...cols.map(([, v]) => v), magentoDate(now), before.code),
    auditStatement(
      db,
      {
        actor,
        action: patch.is_active === false ? 'coupon.disable' : 'coupon.update',
        target: `coupon:${before.code}`,
        before: Object.fromEntries(cols.map(([k]) => [k, before[k]])),
        after: Object.fromEntries(cols),
      },
      now,
    ),
  ])
  return { code: before.code, ...Object.fromEntries(cols) }
}
