-- Returns and size exchanges (docs/fulfilment.md). A return names pieces of a delivered order,
-- each either going back for money (to the original method or store credit) or exchanged for
-- another size of the same product (the new size's stock is held at once).
--   status: requested | pickup_booked | picked_up | received | closed | qc_failed | canceled
--   resolution: refund (original method) | store_credit | exchange
CREATE TABLE IF NOT EXISTS returns (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  client_order_id TEXT NOT NULL REFERENCES orders(client_order_id) ON DELETE CASCADE,
  number INTEGER NOT NULL,                 -- 1, 2, … within the order (the courier reference's -R suffix)
  status TEXT NOT NULL DEFAULT 'requested',
  resolution TEXT NOT NULL CHECK (resolution IN ('refund', 'store_credit', 'exchange')),
  reason TEXT NOT NULL,
  refund_minor INTEGER NOT NULL DEFAULT 0 CHECK (refund_minor >= 0),
  credit_minor INTEGER NOT NULL DEFAULT 0 CHECK (credit_minor >= 0),
  -- An exchange's price difference: above 0 the shopper owes it, below 0 it is credited to them.
  difference_minor INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (client_order_id, number)
);
CREATE INDEX IF NOT EXISTS returns_status ON returns(status, id);

CREATE TABLE IF NOT EXISTS return_items (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  return_id INTEGER NOT NULL REFERENCES returns(id) ON DELETE CASCADE,
  order_item_id INTEGER NOT NULL REFERENCES order_items(id) ON DELETE CASCADE,
  sku TEXT NOT NULL,
  qty INTEGER NOT NULL CHECK (qty > 0),
  unit_minor INTEGER NOT NULL CHECK (unit_minor >= 0),
  size TEXT,
  -- The size asked for in exchange, its price, and whether its stock is held for it.
  exchange_sku TEXT,
  exchange_unit_minor INTEGER,
  exchange_held INTEGER NOT NULL DEFAULT 0,
  -- pending | accepted | rejected (the operator's inspection)
  decision TEXT NOT NULL DEFAULT 'pending',
  restocked INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS return_items_return ON return_items(return_id, id);
CREATE INDEX IF NOT EXISTS return_items_order_item ON return_items(order_item_id);

-- Shipments of a return (its reverse pickup and an exchange's replacement) point at it.
CREATE INDEX IF NOT EXISTS shipments_return ON shipments(return_id) WHERE return_id IS NOT NULL;

-- Which products may come back, and how (the operator sets it; a product not listed follows the
-- shop's rule): none (made to order, altered) | exchange_only | store_credit_only | any
CREATE TABLE IF NOT EXISTS return_rules (
  sku TEXT PRIMARY KEY,
  rule TEXT NOT NULL CHECK (rule IN ('none', 'exchange_only', 'store_credit_only', 'any'))
) WITHOUT ROWID;
