-- Product photographs are pictures of the media library (table `media`, docs/back-office.md):
-- every photograph uploaded from a product's form before that (stored under `/u/{product id}/`)
-- gets its library row, its alt text the product's, its type from its extension. Its size was not
-- recorded, so `bytes` is 0 ("unknown" on the library screen). Rows already there are kept.
-- The table is the library's (0370_media_library.sql, the same definition), made here when this
-- file runs first on a new database.
CREATE TABLE IF NOT EXISTS media (
  path TEXT PRIMARY KEY,
  content_type TEXT NOT NULL,
  bytes INTEGER NOT NULL,
  alt TEXT NOT NULL,
  uploaded_by TEXT NOT NULL,
  created_at TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS media_created ON media (created_at);
INSERT OR IGNORE INTO media (path, content_type, bytes, alt, uploaded_by, created_at)
SELECT
  json_extract(g.value, '$.image'),
  CASE lower(substr(json_extract(g.value, '$.image'), -4))
    WHEN '.png' THEN 'image/png'
    WHEN 'webp' THEN 'image/webp'
    ELSE 'image/jpeg'
  END,
  0,
  COALESCE(NULLIF(trim(json_extract(g.value, '$.lab')), ''), p.name),
  'product photograph',
  p.updated_at
FROM products p, json_each(p.doc, '$.media_gallery') g
WHERE json_extract(g.value, '$.image') GLOB '/u/[0-9]*/*';
