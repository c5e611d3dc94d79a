-- Online payments. Every order opened at a payment provider (a Razorpay order, a PayPal order) is
-- one row: the provider's id is unique, so a provider order belongs to exactly one of our orders
-- and its amount and currency are fixed when it is created. A payment the provider reports is
-- matched against this row, never against ids a browser sends.
CREATE TABLE IF NOT EXISTS payments (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  provider TEXT NOT NULL,                      -- razorpay | paypal
  provider_order_id TEXT NOT NULL UNIQUE,
  client_order_id TEXT NOT NULL REFERENCES orders(client_order_id) ON DELETE CASCADE,
  amount_minor INTEGER NOT NULL CHECK (amount_minor > 0),
  currency TEXT NOT NULL,
  -- created | paid | failed | flagged (amount or currency differ: an operator decides)
  -- | refunded_late (paid after the order expired or was canceled: given back)
  status TEXT NOT NULL DEFAULT 'created',
  provider_payment_id TEXT,                    -- Razorpay payment id / PayPal capture id
  detail TEXT NOT NULL DEFAULT '{}',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS payments_order ON payments(client_order_id, id);

-- Webhook deliveries already handled, so a provider's retry or duplicate changes nothing twice.
CREATE TABLE IF NOT EXISTS webhook_events (
  provider TEXT NOT NULL,
  event_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  received_at TEXT NOT NULL,
  PRIMARY KEY (provider, event_id)
);

-- Refunds recorded against an order: through the provider (with its refund id) or 'manual' (cash
-- on delivery collected, store credit), each counted once in orders.refunded_minor.
CREATE TABLE IF NOT EXISTS refunds (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  client_order_id TEXT NOT NULL REFERENCES orders(client_order_id) ON DELETE CASCADE,
  provider TEXT NOT NULL,                      -- razorpay | paypal | manual
  provider_refund_id TEXT UNIQUE,
  amount_minor INTEGER NOT NULL CHECK (amount_minor > 0),
  currency TEXT NOT NULL,
  status TEXT NOT NULL,                        -- pending | processed
  actor TEXT NOT NULL,
  reason TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS refunds_order ON refunds(client_order_id, id);
