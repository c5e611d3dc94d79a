-- Outbox retries. A message the provider did not take (or that waited for a provider) is tried
-- again by the scheduled drain with growing pauses; one that can never be delivered ends 'dead'.
--   attempts         how many times the provider was called for this row
--   next_attempt_at  ms epoch from which the drain may take the row (for a row being sent: when
--                    its claim lapses, so a send cut short is picked up again); 0 = due now
-- mail_outbox.status:      queued (no provider yet) | sending | sent | failed (will retry) | dead
-- analytics_outbox.status: recorded (no provider yet) | sending | sent | failed (will retry) | dead
-- Newsletter confirmation mails are mail_outbox rows (kind newsletter-*), retried the same way.
ALTER TABLE mail_outbox ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE mail_outbox ADD COLUMN next_attempt_at INTEGER NOT NULL DEFAULT 0;
ALTER TABLE analytics_outbox ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE analytics_outbox ADD COLUMN next_attempt_at INTEGER NOT NULL DEFAULT 0;
-- Rows written before this migration: sent ones count one attempt; failed ones one attempt too.
UPDATE mail_outbox SET attempts = 1 WHERE status IN ('sent', 'failed');
UPDATE analytics_outbox SET attempts = 1 WHERE status IN ('sent', 'failed');
CREATE INDEX IF NOT EXISTS mail_outbox_due ON mail_outbox (next_attempt_at)
  WHERE status IN ('queued', 'sending', 'failed');
CREATE INDEX IF NOT EXISTS analytics_outbox_due ON analytics_outbox (next_attempt_at)
  WHERE status IN ('recorded', 'sending', 'failed');
-- The sender a mail goes out as (source_address keeps the reply-to address, as before), so a retry
-- sends exactly the mail the first attempt sent. NULL on older rows: the store's address.
ALTER TABLE mail_outbox ADD COLUMN from_address TEXT;
