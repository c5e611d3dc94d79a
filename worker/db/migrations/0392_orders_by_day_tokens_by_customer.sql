-- The dashboard counts today's orders and takings by placement time, and a password change or reset
-- revokes every refresh token of the customer: without these indexes each scanned the whole table
-- (every order the shop took; every sign-in's token).
CREATE INDEX IF NOT EXISTS orders_created ON orders(created_at);
CREATE INDEX IF NOT EXISTS refresh_tokens_customer ON refresh_tokens(customer_id);
