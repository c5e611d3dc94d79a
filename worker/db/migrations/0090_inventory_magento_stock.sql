-- Magento's stock settings per sellable sku. An item whose stock is not managed (manage_stock 0)
-- is always sellable and orders leave its quantity alone; an item that allows backorders
-- (backorders > 0) stays sellable at and below zero, so its quantity may go negative. Every other
-- item keeps the rule that its quantity never goes below zero: that CHECK is what refuses an order
-- racing another one for the last units.
-- Sellable = manage_stock = 0 OR (is_in_stock = 1 AND (qty > 0 OR backorders > 0)); the one
-- definition lives in shared/domain/availability.ts and the search filter mirrors it in SQL.
CREATE TABLE inventory_new (
  sku TEXT PRIMARY KEY,
  product_id INTEGER NOT NULL,
  parent_sku TEXT,
  qty INTEGER NOT NULL,
  is_in_stock INTEGER NOT NULL,        -- 0/1: a switch; 0 = not sellable whatever the quantity
  manage_stock INTEGER NOT NULL DEFAULT 1,
  backorders INTEGER NOT NULL DEFAULT 0,
  CHECK (qty >= 0 OR backorders > 0 OR manage_stock = 0)
);
INSERT INTO inventory_new (sku, product_id, parent_sku, qty, is_in_stock)
  SELECT sku, product_id, parent_sku, qty, is_in_stock FROM inventory;
DROP TABLE inventory;
ALTER TABLE inventory_new RENAME TO inventory;
CREATE INDEX IF NOT EXISTS inventory_parent ON inventory(parent_sku);
-- Orders used to switch a sold-out sku off; the quantity alone says that now, so the switch is put
-- back on where only the quantity was the reason (a returned unit then makes it sellable again).
UPDATE inventory SET is_in_stock = 1 WHERE qty <= 0 AND is_in_stock = 0;
