-- The media library: pictures the operator uploads to the CATALOGUE_IMAGES bucket for content
-- pages, blocks and the home page (docs/back-office.md). `path` is the picture's address on the
-- image route (the bucket key with a leading slash, named by the content's hash); `alt` describes
-- it for people who cannot see it and is what an image block uses unless it gives its own.
CREATE TABLE IF NOT EXISTS media (
  path TEXT PRIMARY KEY,
  content_type TEXT NOT NULL,
  bytes INTEGER NOT NULL,
  alt TEXT NOT NULL,
  uploaded_by TEXT NOT NULL,
  created_at TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS media_created ON media (created_at);
