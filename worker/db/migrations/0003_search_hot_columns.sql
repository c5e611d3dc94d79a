-- Search index: copies of the fields every listing filters or sorts on (owner: worker/search).
-- The engine checks these columns first and falls back to the generic facts tables when a column is
-- NULL (a product indexed before this migration, or a field that is not a single scalar), so the
-- answers are the same either way; the columns only make the common listing fast.
ALTER TABLE search_docs ADD COLUMN h_visibility TEXT;
ALTER TABLE search_docs ADD COLUMN h_status TEXT;
ALTER TABLE search_docs ADD COLUMN h_type_id TEXT;
ALTER TABLE search_docs ADD COLUMN h_price REAL;
ALTER TABLE search_docs ADD COLUMN h_final_price REAL;
ALTER TABLE search_docs ADD COLUMN h_created_at TEXT;
ALTER TABLE search_docs ADD COLUMN h_updated_at TEXT;
