-- Field data: each local sample names the address that sent it, as a day-scoped one-way key
-- (SHA-256 of a secret, the UTC day and the address; an IPv6 /64 counts as one address), never the
-- address itself. The insert caps the samples one address adds per page type, metric and day, and
-- the p75 gives every address one vote, so one address cannot set the figure. Rows written before
-- this column have no source and count as one address each.
ALTER TABLE vitals_samples ADD COLUMN source TEXT;
CREATE INDEX IF NOT EXISTS vitals_samples_source ON vitals_samples(day, page, metric, source);
