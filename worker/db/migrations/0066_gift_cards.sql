-- Gift card codes: one per gift card unit of a PAID order. Only a hash of the code is kept (the
-- shopper gets the code once, by mail); redeeming it turns its face value into the redeeming
-- customer's store credit exactly once. (order, line, unit) is unique, so issuing twice for the
-- same order issues nothing new.
CREATE TABLE IF NOT EXISTS gift_cards (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  code_hash TEXT NOT NULL UNIQUE,
  code_last4 TEXT NOT NULL,
  client_order_id TEXT NOT NULL REFERENCES orders(client_order_id) ON DELETE CASCADE,
  line_no INTEGER NOT NULL,
  unit_no INTEGER NOT NULL,
  sku TEXT NOT NULL,
  amount_minor INTEGER NOT NULL CHECK (amount_minor > 0),
  currency TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'issued',       -- issued | redeemed
  redeemed_by INTEGER REFERENCES customers(id) ON DELETE SET NULL,
  redemption_id TEXT,
  redeemed_at TEXT,
  created_at TEXT NOT NULL,
  UNIQUE (client_order_id, line_no, unit_no)
);
