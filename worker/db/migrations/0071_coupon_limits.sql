-- Coupon usage rules managed from the back office: a coupon only for a shopper's first order,
-- how many orders one shopper (account or e-mail) may use it on, and how many orders in all.
-- Use is counted from the orders that carry the code (indexed below).
ALTER TABLE coupons ADD COLUMN first_order_only INTEGER NOT NULL DEFAULT 0;
ALTER TABLE coupons ADD COLUMN per_customer_limit INTEGER;   -- NULL = no limit
ALTER TABLE coupons ADD COLUMN total_limit INTEGER;          -- NULL = no limit
ALTER TABLE coupons ADD COLUMN updated_at TEXT;
CREATE INDEX IF NOT EXISTS orders_coupon_code ON orders(json_extract(doc, '$.coupon_code') COLLATE NOCASE);
