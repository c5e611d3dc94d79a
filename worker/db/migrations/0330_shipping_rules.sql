-- The operator's shipping and cash-on-delivery rules that live in data (docs/fulfilment.md).
-- The payment method the shopper chose at checkout: the cart's totals add the cash-on-delivery
-- fee when it is cash on delivery, so the review states the total the order will be placed for.
ALTER TABLE carts ADD COLUMN payment_method TEXT;

-- Pieces made to order (cut after the order): never sent cash on delivery. A configurable
-- product's sku covers all its sizes.
CREATE TABLE IF NOT EXISTS made_to_order (
  sku TEXT PRIMARY KEY
) WITHOUT ROWID;

-- PIN codes and phone numbers (the last ten digits of an Indian mobile number) that never get
-- cash on delivery, e.g. after parcels refused at the door.
CREATE TABLE IF NOT EXISTS cod_blocklist (
  kind TEXT NOT NULL CHECK (kind IN ('pin', 'phone')),
  value TEXT NOT NULL,
  note TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL,
  PRIMARY KEY (kind, value)
) WITHOUT ROWID;
