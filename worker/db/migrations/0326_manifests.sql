-- The day's pickup manifests (docs/fulfilment.md): the courier's handover sheet for the parcels
-- booked for pickup, generated once per parcel.
--   day           the day in India (YYYY-MM-DD) the manifest was generated for
--   manifest_url  the courier's document (printed again through its print call)
--   status        pending (parcels claimed, the courier asked) | ready (the courier answered)
CREATE TABLE IF NOT EXISTS courier_manifests (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  day TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'ready')),
  manifest_url TEXT,
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS courier_manifests_day ON courier_manifests(day, id);

-- The manifest a parcel is in: set once (claimed before the courier is asked), so no parcel is
-- put in a second manifest however often or concurrently the operator asks.
ALTER TABLE shipments ADD COLUMN manifest_id INTEGER REFERENCES courier_manifests(id);
CREATE INDEX IF NOT EXISTS shipments_manifest ON shipments(manifest_id);
