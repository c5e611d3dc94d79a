/**
 * The account's requests. Reads and writes go through the task queue with the user's token (an
 * expired token is refreshed once); profile updates are queued by the session engine, which shows
 * its own notice ('Account data has successfully been updated').
 */
import { getRuntime } from '../../engines/runtime/runtime'
import type { Customer } from './account-model'

/** An authorised GET of /api/{path} with the query; the answer's code and result. */
export async function userGet<T>(path: string, query: Record<string, string | number> = {}) {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString()
  const res = await getRuntime().tasks.execute({
    url: `/api/${path}?token={{token}}${qs ? `&${qs}` : ''}`,
    silent: true,
  })
  return { code: res.code, result: res.result as T }
}

/** An authorised POST or DELETE of /api/{path} with a JSON body. */
export async function userSend<T>(path: string, method: 'POST' | 'DELETE', body: unknown) {
  const res = await getRuntime().tasks.execute({
    url: `/api/${path}?token={{token}}`,
    payload: { method, body },
    silent: true,
  })
  return { code: res.code, result: res.result as T }
}

/** Queues the profile update; null once queued, else the error message. */
export async function updateProfile(customer: Partial<Customer>): Promise<string | null> {
  try {
    await getRuntime().session.updateProfile(customer as Record<string, unknown>)
    return null
  } catch (err) {
    return (err as Error).message
  }
}

/** Changes the password (the engine confirms it); null on success, else the message. */
export async function changePassword(currentPassword: string, newPassword: string): Promise<string | null> {
  const r = await getRuntime().session.changePassword(currentPassword, newPassword)
  return r.ok ? null : r.message
}

/** Changes the e-mail address with the current password (sent at once, never queued); null on success, else the message. */
export async function changeEmail(
  customer: Partial<Customer>,
  currentPassword: string,
): Promise<string | null> {
  const r = await getRuntime().session.changeEmail(customer as Record<string, unknown>, currentPassword)
  return r.ok ? null : r.message
}
