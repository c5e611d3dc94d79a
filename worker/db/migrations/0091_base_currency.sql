-- The base currency (the catalogue's currency, BASE_CURRENCY) a cart was opened in and an order was
-- placed in, next to the order's own charge currency (`orders.currency`). Rows written before this
-- migration were all in INR, the only base there was then.
ALTER TABLE carts ADD COLUMN base_currency TEXT NOT NULL DEFAULT 'INR';
ALTER TABLE orders ADD COLUMN base_currency TEXT NOT NULL DEFAULT 'INR';
-- The grand total in minor units of the base currency (the charged total converted back at the
-- rate of the moment); NULL for orders placed before this migration.
ALTER TABLE orders ADD COLUMN base_grand_total_minor INTEGER;
