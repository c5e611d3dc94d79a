-- Cart reminders: a signed-in shopper's consent to them, and what was sent for each cart (at most
-- two: the CHECK refuses a third, whatever runs at once).
CREATE TABLE IF NOT EXISTS reminder_consent (
  customer_id INTEGER PRIMARY KEY REFERENCES customers(id) ON DELETE CASCADE,
  opted_in INTEGER NOT NULL CHECK (opted_in IN (0, 1)),
  updated_at INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS cart_reminders (
  cart_id INTEGER PRIMARY KEY REFERENCES carts(id) ON DELETE CASCADE,
  sent_count INTEGER NOT NULL CHECK (sent_count BETWEEN 1 AND 2),
  channel TEXT NOT NULL,                -- mail | whatsapp
  first_sent_at INTEGER NOT NULL,
  second_sent_at INTEGER,
  clicked_at INTEGER
);
CREATE INDEX IF NOT EXISTS cart_reminders_first ON cart_reminders(first_sent_at);
