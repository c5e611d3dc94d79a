-- Indian PIN codes where the courier collects cash on delivery. Cash on delivery is offered only
-- for an Indian shipping address whose PIN code is listed here. Operators load it from a CSV
-- (scripts/pincodes.mjs); a PIN code is six digits, the first not 0.
CREATE TABLE IF NOT EXISTS cod_pincodes (
  pincode TEXT PRIMARY KEY CHECK (length(pincode) = 6 AND pincode GLOB '[1-9][0-9][0-9][0-9][0-9][0-9]'),
  city TEXT NOT NULL DEFAULT '',
  state TEXT NOT NULL DEFAULT '',
  updated_at TEXT NOT NULL
) WITHOUT ROWID;
