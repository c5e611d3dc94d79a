-- The order lifecycle every part of the shop reads and writes: the order's money in integer minor
-- units of the currency it is charged in, its payment state, when an unpaid order expires, whether
-- its stock has gone back (set exactly once), and an event row for every change (status, payment,
-- refund, note, mail) with who made it.
ALTER TABLE orders ADD COLUMN currency TEXT NOT NULL DEFAULT 'INR';
ALTER TABLE orders ADD COLUMN grand_total_minor INTEGER;   -- what the shopper is charged, in `currency`
-- none: nothing to collect online (cash on delivery, or paid with store credit) | awaiting |
-- paid | failed (still payable) | partially_refunded | refunded
ALTER TABLE orders ADD COLUMN payment_state TEXT NOT NULL DEFAULT 'none';
ALTER TABLE orders ADD COLUMN paid_minor INTEGER NOT NULL DEFAULT 0;
ALTER TABLE orders ADD COLUMN refunded_minor INTEGER NOT NULL DEFAULT 0 CHECK (refunded_minor >= 0 AND refunded_minor <= paid_minor);
ALTER TABLE orders ADD COLUMN expires_at INTEGER;          -- ms epoch; an unpaid order past it expires
ALTER TABLE orders ADD COLUMN stock_released_at TEXT;      -- set once, when the order's stock went back
ALTER TABLE orders ADD COLUMN updated_at TEXT;

UPDATE orders SET grand_total_minor = CAST(ROUND(grand_total * 100) AS INTEGER) WHERE grand_total_minor IS NULL;
UPDATE orders SET payment_state = 'awaiting' WHERE status = 'pending_payment';

CREATE INDEX IF NOT EXISTS orders_expiry ON orders(expires_at) WHERE expires_at IS NOT NULL;
CREATE INDEX IF NOT EXISTS orders_status ON orders(status, entity_id);

CREATE TABLE IF NOT EXISTS order_events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  client_order_id TEXT NOT NULL REFERENCES orders(client_order_id) ON DELETE CASCADE,
  kind TEXT NOT NULL,          -- status | payment | refund | note | mail
  from_status TEXT,
  to_status TEXT,
  actor TEXT NOT NULL,         -- 'shopper', 'system', 'provider:<name>' or an operator's e-mail
  detail TEXT NOT NULL DEFAULT '{}',
  created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS order_events_order ON order_events(client_order_id, id);
