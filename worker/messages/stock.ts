/**
 * Back in stock on WhatsApp. A shopper who asked "Notify me" with the address of their account,
 * and opted a number in (in the account or at checkout), gets the `back_in_stock` template (the
 * product and its page) when their alert is mailed. The mail always goes as well: it carries the
 * alert's unsubscribe link, and it is the fallback when WhatsApp is not configured, the number
 * opted out or the message fails. One message per alert (its dedupe key), recorded in the message
 * outbox and retried there; consent is checked when it is recorded and again when it is sent.
 */
import { queueMessage } from './send'

interface NotifiedAlert {
  id: number
  email: string
  product: { name: string; url: string }
}

/** Messages the alerts just mailed whose address has an account with an opted-in number. */
export async function messageBackInStock(env: Env, alerts: readonly NotifiedAlert[], now: number) {
  if (alerts.length === 0) return 0
  // One query: the newest opted-in number of each alert address's account.
  const { results } = await env.DB.prepare(
    `SELECT lower(cu.email) AS email,
       (SELECT phone FROM message_consent WHERE customer_id = cu.id AND opted_in = 1
          ORDER BY updated_at DESC LIMIT 1) AS phone
     FROM customers cu WHERE lower(cu.email) IN (SELECT lower(value) FROM json_each(?1))`,
  )
    .bind(JSON.stringify([...new Set(alerts.map((a) => a.email))]))
    .all<{ email: string; phone: string | null }>()
  const phoneOf = new Map(results.filter((r) => r.phone).map((r) => [r.email, r.phone as string]))
  let sent = 0
  for (const alert of alerts) {
    const phone = phoneOf.get(alert.email.toLowerCase())
    if (!phone) continue
    const outcome = await queueMessage(
      env,
      {
        phone,
        orderId: null,
        send: { template: 'back_in_stock', values: [alert.product.name, alert.product.url] },
        dedupeKey: `stock-alert:${alert.id}`,
      },
      now,
    )
    if (outcome === 'sent') sent++
  }
  return sent
}
