-- Cart reminders for guests: the consent a guest gave at checkout for their own cart (the cart's
-- token proves the cart is theirs) with the e-mail typed there, and the addresses that stopped
-- cart reminders from a reminder's signed link (none is sent to them again).
CREATE TABLE IF NOT EXISTS guest_reminder_consent (
  cart_id INTEGER PRIMARY KEY REFERENCES carts(id) ON DELETE CASCADE,
  email TEXT NOT NULL COLLATE NOCASE,
  opted_in INTEGER NOT NULL CHECK (opted_in IN (0, 1)),
  updated_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS guest_reminder_consent_email ON guest_reminder_consent(email, updated_at);

CREATE TABLE IF NOT EXISTS reminder_stopped (
  email TEXT PRIMARY KEY COLLATE NOCASE,
  stopped_at INTEGER NOT NULL
);
