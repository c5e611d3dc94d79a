-- Server carts (the /api/cart endpoints). Guest carts are addressed by an opaque 32-hex `guest_token`
-- (a bearer secret); customer carts by their numeric id and the owner's access token.
CREATE TABLE IF NOT EXISTS carts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  guest_token TEXT UNIQUE,
  customer_id INTEGER REFERENCES customers(id) ON DELETE CASCADE,
  is_active INTEGER NOT NULL DEFAULT 1,
  coupon_code TEXT,
  shipping_address TEXT,                 -- JSON Magento address
  billing_address TEXT,
  shipping_method TEXT,                  -- carrier_method
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  CHECK ((guest_token IS NULL) <> (customer_id IS NULL))
);
-- One active cart per customer.
CREATE UNIQUE INDEX IF NOT EXISTS carts_customer_active ON carts(customer_id) WHERE is_active = 1 AND customer_id IS NOT NULL;

CREATE TABLE IF NOT EXISTS cart_items (
  item_id INTEGER PRIMARY KEY AUTOINCREMENT,
  cart_id INTEGER NOT NULL REFERENCES carts(id) ON DELETE CASCADE,
  sku TEXT NOT NULL,                     -- sellable sku (child sku of a configurable)
  parent_sku TEXT,
  product_id INTEGER NOT NULL,
  qty INTEGER NOT NULL CHECK (qty > 0),
  product_option TEXT,                   -- JSON as sent by the client
  created_at TEXT NOT NULL,
  UNIQUE (cart_id, sku)
);

-- Coupons with real rules: percent or fixed, validity window, minimum subtotal (INR incl. tax).
CREATE TABLE IF NOT EXISTS coupons (
  code TEXT PRIMARY KEY COLLATE NOCASE,
  kind TEXT NOT NULL CHECK (kind IN ('percent', 'fixed')),
  amount REAL NOT NULL CHECK (amount > 0),
  min_subtotal REAL NOT NULL DEFAULT 0,
  starts_at TEXT,                        -- ISO date-time, NULL = always
  expires_at TEXT,
  is_active INTEGER NOT NULL DEFAULT 1,
  label TEXT NOT NULL
);
-- No rows here: the demo coupons come with the demo catalogue (npm run seed), so a shop that is
-- never seeded has none. Databases created before this change keep the rows they already have.

-- Abandoned cart snapshots (POST /api/state/send-state).
CREATE TABLE IF NOT EXISTS cart_states (
  id TEXT PRIMARY KEY,
  state TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
