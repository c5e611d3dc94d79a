-- Order lines also record the stocked products a bundle or grouped line consumed: one row per
-- linked product (price 0, parent_sku = the bundle/grouped sku), so the stock an order took is
-- exactly the sum of its rows per sku.
ALTER TABLE order_items ADD COLUMN parent_sku TEXT;
