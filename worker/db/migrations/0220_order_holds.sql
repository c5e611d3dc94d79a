-- Limits on what orders nobody has paid or confirmed may hold (worker/api/order/holds.ts).
-- placed_from: the client's network address as the limits count it (an IPv6 /64 as one address),
-- written at placement; NULL for orders placed before it was recorded.
ALTER TABLE orders ADD COLUMN placed_from TEXT;

-- The holding orders of one shopper, found per account, per order e-mail and per address. The
-- status list is the same literal list the limits' statements use, so these partial indexes serve
-- them; once an order is paid, confirmed, canceled or expired it leaves them.
CREATE INDEX IF NOT EXISTS orders_holding_customer ON orders(customer_id)
  WHERE status IN ('pending_payment', 'payment_failed', 'pending');
CREATE INDEX IF NOT EXISTS orders_holding_email ON orders(customer_email COLLATE NOCASE)
  WHERE status IN ('pending_payment', 'payment_failed', 'pending');
CREATE INDEX IF NOT EXISTS orders_holding_address ON orders(placed_from)
  WHERE status IN ('pending_payment', 'payment_failed', 'pending');

-- The hold limits are checked again inside the order's own write: the placement batch inserts a
-- row here only when the order it just wrote took its shopper past a limit, and the CHECK refuses
-- every such row, so the whole batch (order, items, stock, credit) is undone. Parallel orders of
-- one shopper cannot pass a limit together. The table never holds a row.
CREATE TABLE IF NOT EXISTS hold_limit_guard (
  shopper TEXT,
  CONSTRAINT hold_limit_reached CHECK (shopper IS NULL)
);
