-- Who may be answered a replayed order id. A replay gets the first placement's result (and its
-- guest access key) only when it comes from the same caller: the same customer, the same guest
-- cart token, or a body identical to the first one. The columns hold SHA-256 digests only.
ALTER TABLE orders ADD COLUMN body_hash TEXT;       -- SHA-256 of the canonical order body
ALTER TABLE orders ADD COLUMN cart_key_hash TEXT;   -- SHA-256 of the guest cart token the order closed
