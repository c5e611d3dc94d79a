/**
 * WhatsApp consent. A message goes only to a phone whose row in `message_consent` says opted in;
 * the row is written by the shopper: the box at checkout (unticked unless ticked), the switch in
 * the account, or a reply (STOP opts out, START opts back in). The last word wins, whoever said it.
 */

type Source = 'checkout' | 'account' | 'reply'

export function setConsent(
  db: D1Database,
  phone: string,
  optedIn: boolean,
  source: Source,
  customerId: number | null,
  now: number,
) {
  return db
    .prepare(
      `INSERT INTO message_consent (phone, opted_in, source, customer_id, updated_at) VALUES (?1, ?2, ?3, ?4, ?5)
       ON CONFLICT(phone) DO UPDATE SET opted_in = ?2, source = ?3,
         customer_id = COALESCE(?4, message_consent.customer_id), updated_at = ?5`,
    )
    .bind(phone, optedIn ? 1 : 0, source, customerId, now)
}

export async function hasConsent(db: D1Database, phone: string): Promise<boolean> {
  const row = await db
    .prepare('SELECT opted_in FROM message_consent WHERE phone = ?')
    .bind(phone)
    .first<{ opted_in: number }>()
  return row?.opted_in === 1
}

/** The phone an order's messages go to (recorded with the shopper's opt-in at checkout), if any. */
export async function orderPhone(db: D1Database, orderId: string): Promise<string | null> {
  const row = await db
    .prepare('SELECT phone FROM order_messaging WHERE client_order_id = ?')
    .bind(orderId)
    .first<{ phone: string }>()
  return row?.phone ?? null
}

/**
 * The checkout's opt-in: the order's messages go to `phone`, and the phone is opted in. Written
 * only when the shopper ticked the box; an order without it never gets a WhatsApp message.
 */
export async function recordCheckoutOptIn(
  db: D1Database,
  orderId: string,
  phone: string,
  customerId: number | null,
  now: number,
) {
  await db.batch([
    db
      .prepare(
        'INSERT INTO order_messaging (client_order_id, phone, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
      )
      .bind(orderId, phone, now),
    setConsent(db, phone, true, 'checkout', customerId, now),
  ])
}
