-- The output cache prunes tag rows whose pages have expired (created_at older than FRESH + STALE).
CREATE INDEX IF NOT EXISTS output_cache_tags_created ON output_cache_tags (created_at);
