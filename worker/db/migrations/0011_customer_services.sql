-- Store credit, newsletter, mail and wishlist of signed-in customers.

-- Store credit: balance in paise, never below 0 (the CHECK makes an overspend fail the whole
-- batch); the ledger keeps every movement with the balance after it.
CREATE TABLE IF NOT EXISTS store_credit (
  customer_id INTEGER PRIMARY KEY REFERENCES customers(id) ON DELETE CASCADE,
  balance_minor INTEGER NOT NULL DEFAULT 0 CHECK (balance_minor >= 0),
  updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS store_credit_ledger (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  customer_id INTEGER NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
  amount_minor INTEGER NOT NULL,         -- positive = credit, negative = spending
  balance_after_minor INTEGER NOT NULL,
  order_id TEXT,
  comment TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS store_credit_ledger_customer ON store_credit_ledger(customer_id, id);

-- Newsletter subscribers (used when Mailchimp is not configured).
CREATE TABLE IF NOT EXISTS newsletter_subscribers (
  email TEXT PRIMARY KEY COLLATE NOCASE,
  status TEXT NOT NULL CHECK (status IN ('subscribed', 'unsubscribed')),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

-- Mail-service tokens: SHA-256 stored, single use, short-lived.
CREATE TABLE IF NOT EXISTS mail_tokens (
  token_hash TEXT PRIMARY KEY,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
);

-- Mail outbox: every mail, with its delivery status (an operator reads 'queued' rows when no
-- provider is configured).
CREATE TABLE IF NOT EXISTS mail_outbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL,                    -- 'contact' | 'password-reset' | ...
  source_address TEXT NOT NULL,
  target_address TEXT NOT NULL,
  subject TEXT NOT NULL,
  body TEXT NOT NULL,
  status TEXT NOT NULL,                  -- queued (no provider) | sent | failed
  provider_response TEXT,
  created_at TEXT NOT NULL
);

-- Wishlist: one row per customer and product id.
CREATE TABLE IF NOT EXISTS wishlist_items (
  customer_id INTEGER NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
  product_id INTEGER NOT NULL,
  added_at TEXT NOT NULL,
  PRIMARY KEY (customer_id, product_id)
);
