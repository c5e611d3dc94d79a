-- Abandoned-cart snapshots are deleted once they have not been updated for the retention period:
-- the prune finds the oldest rows through this index instead of scanning the table.
CREATE INDEX IF NOT EXISTS cart_states_updated_at ON cart_states (updated_at);
