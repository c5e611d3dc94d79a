-- When each cache tag was last purged (epoch ms). A page whose render began before a purge of one
-- of its tags is not kept in the output cache: the render may have read what the purge was for
-- (stock an order just took), and the purge could not drop a page that was not stored yet.
CREATE TABLE IF NOT EXISTS output_cache_purges (
  tag TEXT PRIMARY KEY,
  purged_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS output_cache_purges_at ON output_cache_purges (purged_at);
