-- An order's lines are read by its id everywhere (the order page, mails, stock release, holds,
-- shipping, returns): without this index each read scanned every order line the shop ever sold.
-- parent_sku second: the hold limits look up the pieces a bundle or grouped line consumed.
CREATE INDEX IF NOT EXISTS order_items_order ON order_items(client_order_id, parent_sku);
