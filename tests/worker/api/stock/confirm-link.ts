// The links of back-in-stock mails (the double opt-in's confirmation, unsubscribing), followed as a
// shopper follows them from the mail.
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

/**
 * Opens (GET) or submits (POST) a mailed link (confirmation or unsubscribe) as a browser (`page`,
 * `form`) or an API client (`json`), with `body` for a POST.
 */
export async function followLink(link: string, how: 'page' | 'form' | 'json', body?: string) {
  const headers: Record<string, string> =
    how === 'page'
      ? { accept: 'text/html' }
      : how === 'form'
        ? { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' }
        : { 'content-type': 'application/json' }
  const res = await SELF.fetch(link.replace(readConfig(env).PUBLIC_ORIGIN, 'https://shop.test'), {
    method: how === 'page' ? 'GET' : 'POST',
    headers,
    body: how === 'page' ? undefined : (body ?? ''),
  })
  const type = res.headers.get('content-type') ?? ''
  return { status: res.status, type, text: await res.text() }
}

/** Confirms back-in-stock mail for `email` with its confirmation mail's link, unless it has already. */
export async function confirmAddress(email: string): Promise<void> {
  const confirmed = await env.DB.prepare('SELECT 1 FROM stock_alert_addresses WHERE email = ?')
    .bind(email)
    .first()
  if (confirmed) return
  const res = await followLink(await confirmLinkOf(email), 'json')
  expect(res.status, res.text).toBe(200)
}
