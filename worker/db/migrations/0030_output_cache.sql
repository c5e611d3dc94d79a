-- Tag index of the edge output cache: which cached page keys carry which cache tag, so a purge
-- by tag (GET /invalidate?tag=) deletes exactly the tagged entries from the Cache API.
CREATE TABLE IF NOT EXISTS output_cache_tags (
  tag TEXT NOT NULL,
  cache_key TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (tag, cache_key)
);
CREATE INDEX IF NOT EXISTS output_cache_tags_key ON output_cache_tags (cache_key);
