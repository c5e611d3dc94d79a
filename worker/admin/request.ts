/**
 * Reading a back-office request beyond its body (./input.ts): the role a route needs, the
 * operator as the actor of a change, and the path and query parameters, each refused with a 400
 * that names what it should be.
 */
import type { Context, MiddlewareHandler } from 'hono'
import { z } from 'zod'
import { describeIssues, fail } from '../platform/http'
import type { AdminEnv } from './env'
import { OrderFilterSchema } from './order-list'
import { can, type Permission } from './roles'

/** Refuses a request whose operator's role does not include `permission` (403 naming the role). */
export const allow =
  (permission: Permission): MiddlewareHandler<AdminEnv> =>
  async (c, next) => {
    const op = c.var.operator
    if (!can(op.role, permission)) fail(403, `Your role (${op.role}) may not do this (${permission}).`)
    await next()
  }

/** What an order change needs to know about who makes it and where. */
export const actorOf = (c: Context<AdminEnv>) => ({
  env: c.env,
  config: c.var.config,
  executionCtx: c.executionCtx,
  actor: c.var.operator.email,
})

const NumberParam = z.string().regex(/^[0-9]{1,18}$/, 'must be an order number')

/** The `:number` of the path: an order number (digits only). */
export const orderNumber = (c: Context<AdminEnv>) => {
  const parsed = NumberParam.safeParse(c.req.param('number'))
  return parsed.success
    ? parsed.data
    : fail(400, `Invalid order number: ${c.req.param('number')?.slice(0, 40)}`)
}

/** The `:id` of the path as a positive whole number, or a 400 naming what it should be. */
export const positiveId = (c: Context<AdminEnv>, what: string) => {
  const id = Number(c.req.param('id'))
  return Number.isSafeInteger(id) && id > 0
    ? id
    : fail(400, `Invalid ${what} id: must be a positive whole number`)
}

/** The `:kind` of a content path: a CMS page or a CMS block. */
export const contentKind = (c: Context<AdminEnv>) => {
  const kind = c.req.param('kind')
  return kind === 'page' || kind === 'block' ? kind : fail(400, 'Invalid content kind: page or block')
}

/** The order list's filter from the query string. */
export function orderFilter(c: Context<AdminEnv>) {
  const parsed = OrderFilterSchema.safeParse(c.req.query())
  if (!parsed.success) return fail(400, `Invalid order filter: ${describeIssues(parsed.error)}`)
  return parsed.data
}
