/**
 * The operator's cash-on-delivery rules that live in data (migration 0330), read by the one COD
 * decider (worker/api/checkout/cod.ts) before the review and at placement: PIN codes and phone
 * numbers that never get cash on delivery, and products made to order (never sent cash on
 * delivery; a configurable's SKU covers all its sizes). Values are typed as people write them and
 * kept in the form the decider compares: a PIN as its six digits ("110 001" is 110001; a PIN never
 * starts with 0), a phone as the ten digits of an Indian mobile number (+91, a leading 0, spaces
 * and dashes dropped; a mobile number starts with 6, 7, 8 or 9). Every add and remove writes its
 * audit row in the same batch. The prepaid discount a COD order is offered for paying by link
 * (worker/api/payment/prepaid-discount.ts) is set here too.
 */
import { HTTPException } from 'hono/http-exception'
import { z } from 'zod'
import { codPhoneKey } from '../api/checkout/cod'
import { type PrepaidDiscountSetting, prepaidDiscountSetting } from '../api/payment/prepaid-discount'
import { magentoDate } from '../api/user/repo'
import { fail } from '../platform/http'
import { auditStatement } from './audit'
import { readAmount } from './input'

/** Rows the screen lists of each kind. */
const LIST_LIMIT = 500

const refuse = (field: string, why: string): never => {
  throw new HTTPException(400, { message: `Invalid rule: ${why}`, cause: { fields: { [field]: why } } })
}

/** A PIN code as the blocklist keeps it, or null when it is no Indian PIN code. */
function pinKey(typed: string): string | null {
  const digits = typed.replace(/[\s-]/g, '')
  return /^[1-9]\d{5}$/.test(digits) ? digits : null
}

/** A mobile number as the blocklist keeps it (its ten digits), or null when it is none. */
function phoneKey(typed: string): string | null {
  if (/[^\d\s+()-]/.test(typed)) return null
  const digits = typed.replace(/\D/g, '')
  // +91 / 91 / 0 in front of ten digits, or the ten digits alone.
  if (!/^(?:91|0)?[6-9]\d{9}$/.test(digits)) return null
  const key = codPhoneKey(digits)
  return key || null
}

export const BlockSchema = z.object({
  kind: z.enum(['pin', 'phone'], { error: 'kind must be pin or phone' }),
  value: z
    .string({ error: 'type the PIN code or phone number' })
    .trim()
    .min(1, 'type the PIN code or phone number')
    .max(30),
  note: z.string().trim().max(200, 'the note is too long (at most 200 characters)').default(''),
})

export const MadeToOrderSchema = z.object({
  sku: z
    .string({ error: 'type the SKU' })
    .trim()
    .min(1, 'type the SKU')
    .max(64, 'a SKU has at most 64 characters'),
})

export interface BlockRow {
  kind: 'pin' | 'phone'
  value: string
  note: string
  created_at: string
}

/** The blocklists and the products made to order. */
export async function listRules(db: D1Database) {
  const [blocked, made, prepaid] = await db.batch([
    db.prepare(
      `SELECT kind, value, note, created_at FROM cod_blocklist ORDER BY kind, value LIMIT ${LIST_LIMIT * 2}`,
    ),
    db.prepare(
      `SELECT m.sku, p.name FROM made_to_order m LEFT JOIN products p ON p.sku = m.sku ORDER BY m.sku LIMIT ${LIST_LIMIT}`,
    ),
    db.prepare('SELECT kind, percent, cap_minor, fixed_minor FROM prepaid_discount WHERE id = 1'),
  ])
  const rows = (blocked?.results ?? []) as BlockRow[]
  return {
    pins: rows.filter((r) => r.kind === 'pin'),
    phones: rows.filter((r) => r.kind === 'phone'),
    madeToOrder: (made?.results ?? []) as { sku: string; name: string | null }[],
    prepaid: ((prepaid?.results ?? [])[0] as PrepaidDiscountSetting | undefined) ?? null,
  }
}

/** Blocks a PIN code or phone number from cash on delivery. */
export async function addBlock(
  db: D1Database,
  input: z.infer<typeof BlockSchema>,
  actor: string,
  now: number,
) {
  const value = input.kind === 'pin' ? pinKey(input.value) : phoneKey(input.value)
  if (!value)
    refuse(
      'value',
      input.kind === 'pin'
        ? 'a PIN code is six digits and does not start with 0, like 110001'
        : 'a mobile number is ten digits starting with 6, 7, 8 or 9, like +91 98765 43210',
    )
  const [written] = await db.batch([
    db
      .prepare(
        'INSERT INTO cod_blocklist (kind, value, note, created_at) VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING',
      )
      .bind(input.kind, value, input.note, magentoDate(now)),
    auditStatement(
      db,
      {
        actor,
        action: `cod.block.${input.kind}`,
        target: `cod-${input.kind}:${value}`,
        after: { note: input.note },
      },
      now,
      { onlyIfChanged: true },
    ),
  ])
  if (!written?.meta.changes)
    refuse('value', `${input.kind === 'pin' ? 'PIN code' : 'phone number'} ${value} is already blocked`)
  return { kind: input.kind, value }
}

/** Gives a PIN code or phone number cash on delivery again. */
export async function removeBlock(db: D1Database, kind: string, value: string, actor: string, now: number) {
  if (kind !== 'pin' && kind !== 'phone') return fail(400, 'Invalid rule: kind must be pin or phone')
  const [gone] = await db.batch([
    db.prepare('DELETE FROM cod_blocklist WHERE kind = ?1 AND value = ?2').bind(kind, value),
    auditStatement(db, { actor, action: `cod.unblock.${kind}`, target: `cod-${kind}:${value}` }, now, {
      onlyIfChanged: true,
    }),
  ])
  if (!gone?.meta.changes)
    return fail(404, `${kind === 'pin' ? 'PIN code' : 'Phone number'} ${value} is not blocked.`)
  return { kind, value, removed: true }
}

/** Marks a product made to order (its SKU must be a product's). */
export async function addMadeToOrder(db: D1Database, sku: string, actor: string, now: number) {
  const product = await db.prepare('SELECT sku FROM products WHERE sku = ?1').bind(sku).first()
  if (!product) refuse('sku', `no product has the SKU ${sku}`)
  const [written] = await db.batch([
    db.prepare('INSERT INTO made_to_order (sku) VALUES (?1) ON CONFLICT DO NOTHING').bind(sku),
    auditStatement(db, { actor, action: 'cod.made_to_order.add', target: `product:${sku}` }, now, {
      onlyIfChanged: true,
    }),
  ])
  if (!written?.meta.changes) refuse('sku', `${sku} is already made to order`)
  return { sku }
}

/** Unmarks a product made to order. */
export async function removeMadeToOrder(db: D1Database, sku: string, actor: string, now: number) {
  const [gone] = await db.batch([
    db.prepare('DELETE FROM made_to_order WHERE sku = ?1').bind(sku),
    auditStatement(db, { actor, action: 'cod.made_to_order.remove', target: `product:${sku}` }, now, {
      onlyIfChanged: true,
    }),
  ])
  if (!gone?.meta.changes) return fail(404, `${sku} is not made to order.`)
  return { sku, removed: true }
}

export const PrepaidDiscountSchema = z.object({
  kind: z.enum(['off', 'percent', 'fixed'], { error: 'choose no discount, a percentage or a fixed amount' }),
  percent: z.string().trim().max(10).default(''),
  cap: z.string().trim().max(20).default(''),
  fixed: z.string().trim().max(20).default(''),
})

/** The largest prepaid discount or cap, in whole rupees. */
const MAX_RUPEES = 100_000

/**
 * Whole rupees as typed ("₹1,500", "200", "₹1,500.00"; read like every amount, `readAmount`), in
 * paise; null when it is not a whole number of rupees from 1 to MAX_RUPEES.
 */
function rupeesKey(typed: string): number | null {
  const minor = readAmount(typed, 'amount')
  return typeof minor === 'number' && minor % 100 === 0 && minor >= 100 && minor <= MAX_RUPEES * 100
    ? minor
    : null
}

/**
 * Sets the prepaid discount a COD order is offered on its payment link: none, a whole percentage
 * (1–50) of the goods with a cap in whole rupees, or a fixed number of rupees. Audited with what it
 * was before, in the same batch.
 */
export async function savePrepaidDiscount(
  db: D1Database,
  input: z.infer<typeof PrepaidDiscountSchema>,
  actor: string,
  now: number,
) {
  let percent = 0
  let capMinor = 0
  let fixedMinor = 0
  if (input.kind === 'percent') {
    percent = /^\d{1,2}$/.test(input.percent.replace(/%$/, '').trim())
      ? Number(input.percent.replace(/%$/, '').trim())
      : 0
    if (percent < 1 || percent > 50)
      refuse('percent', 'the percentage is a whole number from 1 to 50, like 5')
    capMinor =
      rupeesKey(input.cap) ??
      refuse(
        'cap',
        `the cap is a whole number of rupees from 1 to ${MAX_RUPEES.toLocaleString('en-IN')}, like 200`,
      )
  } else if (input.kind === 'fixed') {
    fixedMinor =
      rupeesKey(input.fixed) ??
      refuse(
        'fixed',
        `the amount is a whole number of rupees from 1 to ${MAX_RUPEES.toLocaleString('en-IN')}, like 100`,
      )
  }
  const before = await prepaidDiscountSetting(db)
  const after = { kind: input.kind, percent, cap_minor: capMinor, fixed_minor: fixedMinor }
  await db.batch([
    db
      .prepare(
        `INSERT INTO prepaid_discount (id, kind, percent, cap_minor, fixed_minor, updated_at) VALUES (1, ?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (id) DO UPDATE SET kind = ?1, percent = ?2, cap_minor = ?3, fixed_minor = ?4, updated_at = ?5`,
      )
      .bind(input.kind, percent, capMinor, fixedMinor, magentoDate(now)),
    auditStatement(
      db,
      { actor, action: 'cod.prepaid_discount', target: 'prepaid-discount', before, after },
      now,
    ),
  ])
  return after
}
