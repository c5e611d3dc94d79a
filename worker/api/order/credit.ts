/**
 * Store credit on an order ("apply my store credit" at checkout): only for a signed-in customer,
 * up to their balance and never more than the order's total, spent in the order's own batch
 * (where the balance CHECK (>= 0) fails the whole batch if a concurrent spend got there first).
 */
import { creditToApplyMinor } from '@shared/domain/money'
import { fail } from '../../platform/http'

/** Step 3: how much credit (minor units) the order spends; 0 when none is asked for. */
export async function storeCreditToApply(
  db: D1Database,
  customerId: number | null,
  wanted: boolean | undefined,
  grandTotal: number,
): Promise<number> {
  if (!wanted) return 0
  if (customerId === null)
    fail(400, 'Invalid order: store_credit_applied: store credit can only be applied when signed in')
  const balance = await db
    .prepare('SELECT balance_minor FROM store_credit WHERE customer_id = ?')
    .bind(customerId)
    .first<{ balance_minor: number }>()
  return creditToApplyMinor(balance?.balance_minor ?? 0, Math.round(grandTotal * 100))
}

/** The statements that spend `creditMinor` of a customer's balance on an order. */
export function spendCreditStatements(
  db: D1Database,
  customerId: number,
  creditMinor: number,
  orderId: string,
  stamp: string,
): D1PreparedStatement[] {
  return [
    db
      .prepare(
        'UPDATE store_credit SET balance_minor = balance_minor - ?, updated_at = ? WHERE customer_id = ?',
      )
      .bind(creditMinor, stamp, customerId),
    db
      .prepare(
        `INSERT INTO store_credit_ledger (customer_id, amount_minor, balance_after_minor, order_id, comment, created_at)
         SELECT customer_id, ?, balance_minor, ?, ?, ? FROM store_credit WHERE customer_id = ?`,
      )
      .bind(-creditMinor, orderId, `Spent on order ${orderId}`, stamp, customerId),
  ]
}
