/**
 * Device tokens: the server hands one out at sign-in; it is kept per address across logouts (it
 * proves this browser, not a session) and sent with the next sign-in, so failed guesses by others
 * do not slow this browser down. Only the newest MAX_DEVICE_TOKENS addresses are kept.
 */
import type { SessionDeps } from './deps'

/** Device tokens by lower-cased address. */
export const DEVICE_TOKENS_KEY = 'device-tokens'
/** The most addresses a browser keeps device tokens for (the newest win). */
export const MAX_DEVICE_TOKENS = 5

type Store = Pick<SessionDeps['storage'], 'getItem' | 'setItem'>

const addressKey = (username: string) => username.trim().toLowerCase()

async function readDeviceTokens(storage: Store): Promise<Record<string, string>> {
  const stored = await storage.getItem(DEVICE_TOKENS_KEY).catch(() => null)
  return stored && typeof stored === 'object' ? (stored as Record<string, string>) : {}
}

/** The device token kept for `username`, if any. */
export async function deviceTokenFor(storage: Store, username: string): Promise<string | undefined> {
  return (await readDeviceTokens(storage))[addressKey(username)]
}

/** The kept tokens with `token` as the newest for `username`, the oldest dropped beyond the limit. */
export function withDeviceToken(
  tokens: Record<string, string>,
  username: string,
  token: string,
): Record<string, string> {
  const key = addressKey(username)
  const { [key]: _old, ...others } = tokens
  const kept = Object.entries(others).slice(-(MAX_DEVICE_TOKENS - 1))
  return Object.fromEntries([...kept, [key, token]])
}

export async function rememberDeviceToken(storage: Store, username: string, token: string): Promise<void> {
  await storage.setItem(DEVICE_TOKENS_KEY, withDeviceToken(await readDeviceTokens(storage), username, token))
}
