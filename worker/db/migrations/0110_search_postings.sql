-- Facet postings persisted for the engine's terms aggregations (owner: worker/search), so an
-- isolate that meets a new catalogue version reads a field's postings (one row per value) instead
-- of grouping every search_terms row of the field. Pre-built by the seed and the importer right
-- after their catalogue writes (worker/search/facet-postings.ts).
--
-- Validity: postings are present only while they equal search_terms. Any change to search_terms
-- (a product indexed, re-indexed or removed) empties both tables in the same statement, through
-- the triggers below; a later build fills them again from the terms of that moment. A catalogue
-- version change that does not touch the terms (stock, reviews, content) keeps them.

-- Fields whose postings are built: every field of search_terms with its number of distinct values.
-- A field with more values than the engine keeps in memory has a row here and no postings (it is
-- counted in SQL).
CREATE TABLE IF NOT EXISTS search_posting_fields (
  field TEXT PRIMARY KEY,
  n_values INTEGER NOT NULL
) WITHOUT ROWID;

-- One row per (field, value): the ids of the products holding it in ascending order, each written as
-- its difference from the one before (a JSON array; the first is the id itself), with their number
-- and sum, which the reader checks after adding the differences up.
CREATE TABLE IF NOT EXISTS search_postings (
  field TEXT NOT NULL,
  value TEXT NOT NULL,
  n INTEGER NOT NULL,
  id_sum INTEGER NOT NULL,
  gaps TEXT NOT NULL,
  PRIMARY KEY (field, value)
) WITHOUT ROWID;

CREATE TRIGGER IF NOT EXISTS search_terms_insert_drops_postings AFTER INSERT ON search_terms
WHEN EXISTS (SELECT 1 FROM search_posting_fields)
BEGIN
  DELETE FROM search_posting_fields;
  DELETE FROM search_postings;
END;

CREATE TRIGGER IF NOT EXISTS search_terms_delete_drops_postings AFTER DELETE ON search_terms
WHEN EXISTS (SELECT 1 FROM search_posting_fields)
BEGIN
  DELETE FROM search_posting_fields;
  DELETE FROM search_postings;
END;

CREATE TRIGGER IF NOT EXISTS search_terms_update_drops_postings AFTER UPDATE ON search_terms
WHEN EXISTS (SELECT 1 FROM search_posting_fields)
BEGIN
  DELETE FROM search_posting_fields;
  DELETE FROM search_postings;
END;
