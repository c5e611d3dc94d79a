-- A shopper's orders are found by account or by order e-mail, compared without case: the coupon
-- rules (a first order, uses per shopper) and the back office's customer pages. Without this index
-- each such count scanned every order the shop ever took (orders_holding_email covers only orders
-- still holding stock).
CREATE INDEX IF NOT EXISTS orders_email ON orders(customer_email COLLATE NOCASE);
