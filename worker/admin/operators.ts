/**
 * Operators, managed by owners: the list, a new operator (role, optional password for the local
 * sign-in), a role change, disabling and enabling. An owner never changes their own role or
 * disables themselves, and the shop always keeps at least one active owner: the update that would
 * remove the last one changes nothing (its condition is part of the UPDATE, so two owners demoting
 * each other at the same instant cannot both succeed). Disabling ends the operator's sessions in
 * the same batch; every change writes its audit row in that batch, only if it applied.
 */
import { z } from 'zod'
import { hashPassword } from '../api/auth/crypto'
import { magentoDate } from '../api/user/repo'
import { fail } from '../platform/http'
import { auditStatement } from './audit'
import { ROLES, type Role } from './roles'

export const NewOperatorSchema = z.object({
  email: z.string().trim().toLowerCase().email('email is not an e-mail address').max(254),
  role: z.enum(ROLES, { error: 'role must be owner, staff or viewer' }),
  password: z.string().min(12, 'password must have at least 12 characters').max(200).optional(),
})

const flag = z.preprocess(
  (v) => (v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : v),
  z.boolean(),
)
export const OperatorPatchSchema = z
  .object({
    role: z.enum(ROLES, { error: 'role must be owner, staff or viewer' }).optional(),
    disabled: flag.optional(),
  })
  .strict()
  .refine((p) => p.role !== undefined || p.disabled !== undefined, 'give a role or disabled')

export interface OperatorRow {
  id: number
  email: string
  role: Role
  disabled_at: string | null
  created_at: string
  local_sign_in: number
}

/** Every operator, owners first. */
export async function listOperators(db: D1Database): Promise<OperatorRow[]> {
  const { results } = await db
    .prepare(
      `SELECT id, email, role, disabled_at, created_at, password_hash IS NOT NULL AS local_sign_in FROM operators
       ORDER BY CASE role WHEN 'owner' THEN 0 WHEN 'staff' THEN 1 ELSE 2 END, email LIMIT 500`,
    )
    .all<OperatorRow>()
  return results
}

/** Creates an operator (the first owner comes from the command line). */
export async function createOperator(
  db: D1Database,
  input: z.infer<typeof NewOperatorSchema>,
  actor: string,
  now: number,
): Promise<{ email: string; role: Role }> {
  const hash = input.password ? await hashPassword(input.password) : null
  const email = input.email.toLowerCase()
  const existing = await db.prepare('SELECT id FROM operators WHERE email = ?').bind(email).first()
  if (existing) fail(409, `An operator with e-mail ${email} already exists.`)
  await db.batch([
    db
      .prepare('INSERT INTO operators (email, role, password_hash, created_at) VALUES (?, ?, ?, ?)')
      .bind(email, input.role, hash, magentoDate(now)),
    auditStatement(
      db,
      { actor, action: 'operator.create', target: `operator:${email}`, after: { role: input.role } },
      now,
    ),
  ])
  return { email, role: input.role }
}

/** Changes an operator's role or disables / enables them, within the rules above. */
export async function updateOperator(
  db: D1Database,
  id: number,
  patch: z.infer<typeof OperatorPatchSchema>,
  actor: { id: number | null; email: string },
  now: number,
) {
  const row = await db
    .prepare('SELECT id, email, role, disabled_at FROM operators WHERE id = ?')
    .bind(id)
    .first<Pick<OperatorRow, 'id' | 'email' | 'role' | 'disabled_at'>>()
  if (!row) return fail(404, `Operator ${id} does not exist.`)
  if (row.email.toLowerCase() === actor.email.toLowerCase())
    return fail(409, 'You cannot change your own role or disable yourself; ask another owner.')
  const role = patch.role ?? row.role
  const disabledAt = patch.disabled === undefined ? row.disabled_at : patch.disabled ? magentoDate(now) : null
  const stillOwner = role === 'owner' && disabledAt === null ? 1 : 0
  const [update] = await db.batch([
    db
      .prepare(
        `UPDATE operators SET role = ?2, disabled_at = ?3 WHERE id = ?1
           AND (?4 = 1 OR EXISTS (SELECT 1 FROM operators o WHERE o.id != ?1 AND o.role = 'owner' AND o.disabled_at IS NULL))`,
      )
      .bind(id, role, disabledAt, stillOwner),
    auditStatement(
      db,
      {
        actor: actor.email,
        action: 'operator.update',
        target: `operator:${row.email}`,
        before: { role: row.role, disabled: row.disabled_at !== null },
        after: { role, disabled: disabledAt !== null },
      },
      now,
      { onlyIfChanged: true },
    ),
    db
      .prepare(
        `DELETE FROM operator_sessions WHERE operator_id = ?1
           AND EXISTS (SELECT 1 FROM operators WHERE id = ?1 AND disabled_at IS NOT NULL)`,
      )
      .bind(id),
  ])
  if (update?.meta.changes !== 1)
    return fail(409, 'The shop must keep at least one active owner: make someone else owner first.')
  return { id, email: row.email, role, disabled: disabledAt !== null }
}
