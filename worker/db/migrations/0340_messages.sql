-- WhatsApp order messages: consent per phone, the phone an order's messages go to, and the
-- message outbox (drained with the mail outbox's retry rules, worker/api/mail/outbox.ts).

-- A shopper's WhatsApp consent, per phone (E.164 digits without '+', e.g. 919812345678). Only a
-- row with opted_in = 1 lets a message go out; a STOP reply or an opt-out sets it to 0.
CREATE TABLE IF NOT EXISTS message_consent (
  phone TEXT PRIMARY KEY,
  opted_in INTEGER NOT NULL CHECK (opted_in IN (0, 1)),
  source TEXT NOT NULL,               -- checkout | account | reply | operator
  customer_id INTEGER,
  updated_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS message_consent_customer ON message_consent(customer_id);

-- The phone an order's WhatsApp messages go to (written only when the shopper opted in at checkout).
CREATE TABLE IF NOT EXISTS order_messaging (
  client_order_id TEXT PRIMARY KEY REFERENCES orders(client_order_id) ON DELETE CASCADE,
  phone TEXT NOT NULL,
  created_at INTEGER NOT NULL
);

-- Template messages to send. One row per (order, event): dedupe_key keeps a repeated event from
-- messaging twice. delivery_status is the furthest state Meta reported for the sent message
-- (sent < delivered < read; failed unless a later sent/delivered/read of the same id arrives).
CREATE TABLE IF NOT EXISTS message_outbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL,
  target_phone TEXT NOT NULL,
  client_order_id TEXT,
  payload TEXT NOT NULL,
  dedupe_key TEXT UNIQUE,
  status TEXT NOT NULL DEFAULT 'queued',  -- queued | sending | sent | failed | dead
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL DEFAULT 0,
  provider_response TEXT,
  provider_message_id TEXT UNIQUE,
  delivery_status TEXT,
  delivery_error TEXT,
  delivery_at INTEGER,
  created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS message_outbox_due ON message_outbox(status, next_attempt_at);
CREATE INDEX IF NOT EXISTS message_outbox_order ON message_outbox(client_order_id, id);
