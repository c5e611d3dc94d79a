-- The stock clock: a number in search_meta that moves on whenever a row of inventory is added,
-- removed, or changes a value (quantity, switches, sku, product), by any path (an order, a
-- release, a return, the back office, an import, a hand-written statement), in the same
-- transaction as the write. A random value, like the catalogue's versions, so a database restored
-- to an earlier state never meets a number an isolate already saw with other stock.
-- A page read tells the statement the clock at which the isolate last read that page's stock; while
-- it is unchanged the statement leaves the stock out and the isolate uses what it holds
-- (worker/search/held/live-stock.ts). An update that writes the same values does not move it.
INSERT OR IGNORE INTO search_meta (key, value) VALUES ('stock', abs(random() % 9007199254740991));

CREATE TRIGGER IF NOT EXISTS inventory_insert_moves_stock AFTER INSERT ON inventory
BEGIN
  UPDATE search_meta SET value = abs(random() % 9007199254740991) WHERE key = 'stock';
END;
CREATE TRIGGER IF NOT EXISTS inventory_update_moves_stock AFTER UPDATE ON inventory
WHEN OLD.sku IS NOT NEW.sku OR OLD.product_id IS NOT NEW.product_id OR OLD.parent_sku IS NOT NEW.parent_sku
  OR OLD.qty IS NOT NEW.qty OR OLD.is_in_stock IS NOT NEW.is_in_stock
  OR OLD.manage_stock IS NOT NEW.manage_stock OR OLD.backorders IS NOT NEW.backorders
BEGIN
  UPDATE search_meta SET value = abs(random() % 9007199254740991) WHERE key = 'stock';
END;
CREATE TRIGGER IF NOT EXISTS inventory_delete_moves_stock AFTER DELETE ON inventory
BEGIN
  UPDATE search_meta SET value = abs(random() % 9007199254740991) WHERE key = 'stock';
END;
