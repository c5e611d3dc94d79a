-- "Notify me": shoppers who asked to hear when an out-of-stock product (or one size of it) is back.
-- One row per address and sku; asking again changes nothing. notified_at is set once a mail went out.
CREATE TABLE stock_alerts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  email TEXT NOT NULL,
  sku TEXT NOT NULL,
  parent_sku TEXT,
  created_at INTEGER NOT NULL,
  notified_at INTEGER,
  UNIQUE (email, sku)
);
CREATE INDEX stock_alerts_sku ON stock_alerts (sku) WHERE notified_at IS NULL;
