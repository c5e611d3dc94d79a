-- Shipping through a courier aggregator (docs/fulfilment.md).
--
-- shipments: one row per parcel the courier carries for an order: the forward shipment, a
-- re-shipment, an exchange's replacement (kind 'forward'), or a reverse pickup (kind 'return').
--   ref              our reference at the courier (its channel order id): the order number, with a
--                    suffix for later parcels ("000000123-X1", "000000123-R1"); never reused
--   step             how far booking got: new | created | awb | label | booked
--   state            the parcel's state as the shop reads it (worker/fulfilment/states.ts)
--   state_rank       how far along that state is; a courier event never lowers it
--   status_id        the courier's shipment_status_id last applied
CREATE TABLE IF NOT EXISTS shipments (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  client_order_id TEXT NOT NULL REFERENCES orders(client_order_id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('forward', 'return')),
  ref TEXT NOT NULL UNIQUE,
  return_id INTEGER,
  step TEXT NOT NULL DEFAULT 'new',
  courier_order_id TEXT,
  courier_shipment_id TEXT,
  awb TEXT UNIQUE,
  courier_name TEXT,
  label_url TEXT,
  pickup_date TEXT,
  etd TEXT,
  state TEXT NOT NULL DEFAULT 'booking',
  state_rank INTEGER NOT NULL DEFAULT 0,
  status_id INTEGER,
  status_at TEXT,
  ndr_reason TEXT,
  ndr_attempts INTEGER NOT NULL DEFAULT 0,
  ndr_action TEXT,
  cod_minor INTEGER NOT NULL DEFAULT 0,
  received_at TEXT,
  scans TEXT NOT NULL DEFAULT '[]',      -- the courier's scans as last read back (JSON, newest first)
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS shipments_order ON shipments(client_order_id, id);
CREATE INDEX IF NOT EXISTS shipments_state ON shipments(state, id);
-- At most one forward shipment being booked or carried per order at a time.
CREATE UNIQUE INDEX IF NOT EXISTS shipments_one_open_forward ON shipments(client_order_id)
  WHERE kind = 'forward' AND return_id IS NULL AND state NOT IN ('canceled', 'rto_delivered');

-- The courier outbox: booking a shipment (create, AWB, label, pickup) step by step, retried by
-- the scheduled drain with the same pauses, claim and attempt limit as the mail outbox.
--   status: queued | sending | sent (done) | failed (will retry) | dead
CREATE TABLE IF NOT EXISTS courier_outbox (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  shipment_id INTEGER NOT NULL UNIQUE REFERENCES shipments(id) ON DELETE CASCADE,
  status TEXT NOT NULL DEFAULT 'queued',
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL DEFAULT 0,
  provider_response TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS courier_outbox_due ON courier_outbox (next_attempt_at)
  WHERE status IN ('queued', 'sending', 'failed');

-- Every tracking webhook as received (raw body), once per distinct body, with what became of it:
-- applied | duplicate | stale | disagrees (the read-back said otherwise) | unknown (no such AWB)
CREATE TABLE IF NOT EXISTS courier_events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  body_hash TEXT NOT NULL UNIQUE,
  body TEXT NOT NULL,
  awb TEXT,
  status_id INTEGER,
  outcome TEXT NOT NULL DEFAULT 'received',
  received_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS courier_events_awb ON courier_events(awb, id);

-- The courier's API token, cached with its expiry (one login per ten days, not per call).
CREATE TABLE IF NOT EXISTS courier_tokens (
  service TEXT PRIMARY KEY,
  token TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);

-- Serviceability answers cached per delivery PIN (the courier's word on couriers, COD, days).
CREATE TABLE IF NOT EXISTS pin_serviceability (
  postcode TEXT NOT NULL,
  cod INTEGER NOT NULL,
  serviceable INTEGER NOT NULL,
  cod_available INTEGER NOT NULL,
  days INTEGER,
  rate_minor INTEGER,
  fetched_at INTEGER NOT NULL,
  PRIMARY KEY (postcode, cod)
);

-- Cash on delivery settled: collected on delivery (courier event or by hand), remitted by the
-- courier (with its UTR).
CREATE TABLE IF NOT EXISTS cod_settlements (
  client_order_id TEXT PRIMARY KEY REFERENCES orders(client_order_id) ON DELETE CASCADE,
  amount_minor INTEGER NOT NULL CHECK (amount_minor >= 0),
  collected_at TEXT NOT NULL,
  collected_by TEXT NOT NULL,
  remitted_at TEXT,
  remittance_utr TEXT
);
