-- Orders (POST /api/order). `client_order_id` is the client's order_id: UNIQUE, so a replayed or
-- concurrent duplicate submission can never create a second order; `result` is the first answer,
-- returned again on replay. `doc` is the Magento-shaped sales order shown in order history.
CREATE TABLE IF NOT EXISTS orders (
  entity_id INTEGER PRIMARY KEY AUTOINCREMENT,
  client_order_id TEXT NOT NULL UNIQUE,
  increment_id TEXT NOT NULL UNIQUE,
  customer_id INTEGER REFERENCES customers(id) ON DELETE SET NULL,
  customer_email TEXT NOT NULL,
  access_key_hash TEXT NOT NULL,         -- SHA-256 of the guest access key returned at placement
  status TEXT NOT NULL,                  -- pending | pending_payment | processing
  payment_method TEXT NOT NULL,
  grand_total REAL NOT NULL,
  doc TEXT NOT NULL,
  result TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS orders_customer ON orders(customer_id, entity_id);

-- Order lines; product_id is NOT NULL and read from inventory, so a line whose sku has no
-- inventory row fails the whole placement batch.
CREATE TABLE IF NOT EXISTS order_items (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  client_order_id TEXT NOT NULL REFERENCES orders(client_order_id) ON DELETE CASCADE,
  sku TEXT NOT NULL,
  product_id INTEGER NOT NULL,
  qty INTEGER NOT NULL CHECK (qty > 0),
  price_incl_tax REAL NOT NULL
);

-- Conversion-API events not forwarded (no FB secrets) or that failed to forward.
CREATE TABLE IF NOT EXISTS analytics_outbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  event_name TEXT NOT NULL,
  event_id TEXT NOT NULL,
  payload TEXT NOT NULL,
  status TEXT NOT NULL,                  -- recorded (no secrets) | sent | failed
  provider_response TEXT,
  created_at TEXT NOT NULL
);
