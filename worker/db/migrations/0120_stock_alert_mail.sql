-- Back-in-stock mail. The scheduled job checks the skus shoppers wait for a batch at a time, the
-- least recently checked first (checked_at, ms epoch; 0 = never), and mails each waiting address
-- once its sku is sellable again: notified_at is set in the same batch as the mail's outbox row.
ALTER TABLE stock_alerts ADD COLUMN checked_at INTEGER NOT NULL DEFAULT 0;
CREATE INDEX IF NOT EXISTS stock_alerts_to_check ON stock_alerts (checked_at, sku) WHERE notified_at IS NULL;
-- How many alerts an address has waiting, and how many mails it got in the last day (its limits).
CREATE INDEX IF NOT EXISTS stock_alerts_email ON stock_alerts (email, notified_at);
-- Alerts lapse after a while, mailed or not (the job deletes them oldest first).
CREATE INDEX IF NOT EXISTS stock_alerts_created ON stock_alerts (created_at);
