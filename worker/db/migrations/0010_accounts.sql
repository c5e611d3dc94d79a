-- Customer accounts (the /api/user endpoints; read and written by worker/api/user).
-- Passwords are PBKDF2-SHA256 strings 'pbkdf2-sha256$iterations$salt$hash' and never leave D1.
CREATE TABLE IF NOT EXISTS customers (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  email TEXT NOT NULL COLLATE NOCASE UNIQUE,
  firstname TEXT NOT NULL,
  lastname TEXT NOT NULL,
  password_hash TEXT,                    -- NULL for accounts created by social login only
  group_id INTEGER NOT NULL DEFAULT 1,
  token_version INTEGER NOT NULL DEFAULT 0, -- bumped on password change/reset: old access tokens die
  default_billing INTEGER,
  default_shipping INTEGER,
  store_id INTEGER NOT NULL DEFAULT 1,
  website_id INTEGER NOT NULL DEFAULT 1,
  created_in TEXT NOT NULL DEFAULT 'Default Store View',
  reset_token_hash TEXT,                 -- SHA-256 of the mailed reset token (single use)
  reset_expires_at INTEGER,              -- ms epoch
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

-- Address book; the Magento address document lives in `doc`, ownership in `customer_id`.
CREATE TABLE IF NOT EXISTS customer_addresses (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  customer_id INTEGER NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
  doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS customer_addresses_customer ON customer_addresses(customer_id);

-- Refresh tokens: stored as SHA-256 only, rotated on use (rotated_at set atomically);
-- presenting a rotated token again revokes its whole family.
CREATE TABLE IF NOT EXISTS refresh_tokens (
  token_hash TEXT PRIMARY KEY,
  customer_id INTEGER NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
  family_id TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  rotated_at INTEGER,
  revoked_at INTEGER
);
CREATE INDEX IF NOT EXISTS refresh_tokens_family ON refresh_tokens(family_id);

-- Fixed-window attempt counters (login / reset-password per account and per IP, mail).
CREATE TABLE IF NOT EXISTS rate_limits (
  key TEXT PRIMARY KEY,
  window_start INTEGER NOT NULL,
  count INTEGER NOT NULL
);

-- Social login identities (provider + verified subject → customer).
CREATE TABLE IF NOT EXISTS social_identities (
  provider TEXT NOT NULL,
  subject TEXT NOT NULL,
  customer_id INTEGER NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
  PRIMARY KEY (provider, subject)
);
