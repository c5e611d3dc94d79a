// The double opt-in of back-in-stock mails: the confirmation mail's link, and an address confirmed
// by following it as a shopper does.
import { env } from 'cloudflare:test'
import { expect } from 'vitest'
import { followLink } from '../../../helpers/user'

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

/** Confirms back-in-stock mail for `email` with its confirmation mail's link, unless it has already. */
export async function confirmAddress(email: string): Promise<void> {
  const confirmed = await env.DB.prepare('SELECT 1 FROM stock_alert_addresses WHERE email = ?')
    .bind(email)
    .first()
  if (confirmed) return
  const res = await followLink(await confirmLinkOf(email), 'json')
  expect(res.status, res.text).toBe(200)
}
