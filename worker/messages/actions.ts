/**
 * What a shopper's reply button asks, and proof that the shop offered it: a quick-reply payload is
 * `<action>.<order number>.<mac>`, the mac an HMAC-SHA256 (the token secret) of the action and the
 * order number, cut to MAC_HEX characters. A payload nobody was sent (another order's number, a
 * different action) fails the mac; one replayed is answered once (the inbound message id is
 * remembered) and an action an order's status no longer allows changes nothing.
 */

import { constantTimeEqual, hmacSha256, toHex } from '../api/auth/crypto'
import { tokenSecret } from '../api/auth/tokens'
import type { AppConfig } from '../platform/env'

/** confirm / cancel a cash-on-delivery order; redeliver / call after a failed delivery. */
const BUTTON_ACTIONS = ['confirm', 'cancel', 'redeliver', 'call'] as const
type ButtonAction = (typeof BUTTON_ACTIONS)[number]

/** 128 bits of the HMAC: unguessable, and short enough for a quick-reply payload. */
const MAC_HEX = 32

async function mac(env: { TOKEN_SECRET?: string }, config: AppConfig, action: string, number: string) {
  return toHex(await hmacSha256(tokenSecret(env, config), `wa-button|${action}|${number}`)).slice(0, MAC_HEX)
}

export async function buttonPayload(
  env: { TOKEN_SECRET?: string },
  config: AppConfig,
  action: ButtonAction,
  number: string,
): Promise<string> {
  return `${action}.${number}.${await mac(env, config, action, number)}`
}

/** The action and order number a payload carries, when its mac is ours; null otherwise. */
export async function readButtonPayload(
  env: { TOKEN_SECRET?: string },
  config: AppConfig,
  payload: string,
): Promise<{ action: ButtonAction; number: string } | null> {
  if (payload.length > 200) return null
  const [action, number, given, ...rest] = payload.split('.')
  if (rest.length || !action || !number || !given) return null
  if (!(BUTTON_ACTIONS as readonly string[]).includes(action) || !/^[A-Za-z0-9-]{1,40}$/.test(number))
    return null
  const expected = await mac(env, config, action, number)
  const enc = new TextEncoder()
  if (!constantTimeEqual(enc.encode(expected), enc.encode(given))) return null
  return { action: action as ButtonAction, number }
}
