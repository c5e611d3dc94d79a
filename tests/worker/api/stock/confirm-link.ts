// The confirmation link of "Notify me" (double opt-in), as a shopper follows it from the mail.
import { env, SELF } from 'cloudflare:test'
import { expect } from 'vitest'
import { readConfig } from '../../../../worker/platform/env'

const LINK = /https?:\/\/\S+\/api\/stock-alerts\/confirm\?key=\S+/

/** The link of the latest confirmation mail to `email`, once it is queued (it is sent after the answer). */
export async function confirmLinkOf(email: string): Promise<string> {
  let link = ''
  await expect
    .poll(
      async () => {
        const mail = await env.DB.prepare(
          "SELECT body FROM mail_outbox WHERE kind = 'stock-alert-confirm' AND target_address = ? ORDER BY id DESC",
        )
          .bind(email)
          .first<{ body: string }>()
        link = mail?.body.match(LINK)?.[0] ?? ''
        return link
      },
      { timeout: 3000, interval: 20 },
    )
    .not.toBe('')
  return link
}

/** Opens (GET) or submits (POST) a confirmation link as a browser (`page`, `form`) or an API client. */
export function followConfirm(link: string, how: 'page' | 'form' | 'json') {
  const headers: Record<string, string> =
    how === 'page'
      ? { accept: 'text/html' }
      : how === 'form'
        ? { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' }
        : { 'content-type': 'application/json' }
  return SELF.fetch(link.replace(readConfig(env).PUBLIC_ORIGIN, 'https://shop.test'), {
    method: how === 'page' ? 'GET' : 'POST',
    headers,
    body: how === 'page' ? undefined : '',
  })
}

/** Confirms back-in-stock mail for `email` with its confirmation mail's link, unless it has already. */
export async function confirmAddress(email: string): Promise<void> {
  const confirmed = await env.DB.prepare('SELECT 1 FROM stock_alert_addresses WHERE email = ?')
    .bind(email)
    .first()
  if (confirmed) return
  const res = await followConfirm(await confirmLinkOf(email), 'json')
  expect(res.status, await res.text()).toBe(200)
}
