-- Back-office reads that scanned a table growing with the catalogue (1.1 million stock rows at
-- 100,000 products): the product editor's stock of one product (by product id), and the set editor's
-- pieces named by SKU in any case (by the upper-cased SKU).
CREATE INDEX IF NOT EXISTS inventory_product ON inventory(product_id);
CREATE INDEX IF NOT EXISTS products_sku_upper ON products(upper(sku));
