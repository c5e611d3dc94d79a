-- An operator can disable a customer account: a disabled account cannot sign in, and its tokens
-- stop working (the shop reads customers only where disabled_at IS NULL).
ALTER TABLE customers ADD COLUMN disabled_at TEXT;
