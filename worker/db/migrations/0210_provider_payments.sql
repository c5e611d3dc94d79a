-- Every payment a provider reported for one of our orders (a Razorpay payment, a PayPal capture),
-- one row each, beside the provider order it was made on (`payments`). One provider order can be
-- paid more than once (a second tab, a double tap): the payment that paid the order is 'paid', a
-- later one is given back ('refunded_late', with the provider's refund id; 'refund_failed' when the
-- provider refused, tried again on the next report of it) or waits for an operator ('flagged':
-- amount or currency differ from the order). A row is never overwritten by another payment, so
-- refunds always go back through the payment that paid the order. 'refunding' is the claim of the
-- one request that gives a late payment back, so a payment reported by several paths at once is
-- refunded once.
CREATE TABLE IF NOT EXISTS provider_payments (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  provider TEXT NOT NULL,                      -- razorpay | paypal
  provider_payment_id TEXT NOT NULL,           -- Razorpay payment id / PayPal capture id
  provider_order_id TEXT NOT NULL,
  client_order_id TEXT NOT NULL REFERENCES orders(client_order_id) ON DELETE CASCADE,
  amount_minor INTEGER NOT NULL,
  currency TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('paid', 'refunding', 'refunded_late', 'refund_failed', 'flagged')),
  refund_id TEXT,                              -- the provider's refund of a late payment
  detail TEXT NOT NULL DEFAULT '{}',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (provider, provider_payment_id)
);
CREATE INDEX IF NOT EXISTS provider_payments_order ON provider_payments(client_order_id, id);

-- The payments that paid orders before this table existed: the provider order row held the one
-- payment id it had seen last.
INSERT OR IGNORE INTO provider_payments (provider, provider_payment_id, provider_order_id, client_order_id,
    amount_minor, currency, status, detail, created_at, updated_at)
  SELECT provider, provider_payment_id, provider_order_id, client_order_id, amount_minor, currency,
         status, detail, created_at, updated_at
  FROM payments WHERE provider_payment_id IS NOT NULL AND status IN ('paid', 'refunded_late', 'flagged');

-- Refunds are recorded before the provider is asked ('requested'), so each carries its own row id
-- in the provider request id (PayPal-Request-Id, Razorpay receipt): two refunds at once are two
-- refunds at the provider. A refund the provider refused is kept as 'failed' (not counted).
