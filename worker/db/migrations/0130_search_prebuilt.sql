-- What the first request of a new catalogue version would otherwise build, pre-built by the
-- catalogue writer in the same write as the facet postings (owner: worker/search/prebuilt.ts):
-- the default listing of every category (its matches in the default order, total and aggregations)
-- and the search vocabulary (distinct tokens per text field).
--
-- Validity: rows exist only while they equal the search index. Any write to the index tables
-- empties the table built from them in the same statement, through the triggers below; the next
-- build (import, seed, or the scheduled rebuild) fills it again from the index of that moment.

-- One row per category listing, keyed by the listing's category ids (ascending, JSON). The ids in
-- the default order are written as the differences between neighbours (JSON), with their number,
-- their sum and the sum of rank × id, which the reader checks after adding the differences up. The
-- row with the empty key says a build is present and names the listing shape it was built for.
CREATE TABLE IF NOT EXISTS search_listings (
  cats TEXT PRIMARY KEY,
  total INTEGER NOT NULL,
  n INTEGER NOT NULL,
  id_sum INTEGER NOT NULL,
  rank_sum INTEGER NOT NULL,
  gaps TEXT NOT NULL,
  min_score REAL,
  max_score REAL,
  aggs TEXT NOT NULL,
  aterms TEXT NOT NULL
) WITHOUT ROWID;

-- Distinct tokens per text field in ascending order, in parts of at most a few thousand tokens
-- (JSON arrays), each with its count. The row with the empty field holds the number of tokens in
-- all and says a build is present.
CREATE TABLE IF NOT EXISTS search_vocabulary (
  field TEXT NOT NULL,
  part INTEGER NOT NULL,
  n INTEGER NOT NULL,
  tokens TEXT NOT NULL,
  PRIMARY KEY (field, part)
) WITHOUT ROWID;

CREATE TRIGGER IF NOT EXISTS search_terms_insert_drops_listings AFTER INSERT ON search_terms
WHEN EXISTS (SELECT 1 FROM search_listings)
BEGIN
  DELETE FROM search_listings;
END;

CREATE TRIGGER IF NOT EXISTS search_terms_delete_drops_listings AFTER DELETE ON search_terms
WHEN EXISTS (SELECT 1 FROM search_listings)
BEGIN
  DELETE FROM search_listings;
END;

CREATE TRIGGER IF NOT EXISTS search_terms_update_drops_listings AFTER UPDATE ON search_terms
WHEN EXISTS (SELECT 1 FROM search_listings)
BEGIN
  DELETE FROM search_listings;
END;

CREATE TRIGGER IF NOT EXISTS search_numbers_insert_drops_listings AFTER INSERT ON search_numbers
WHEN EXISTS (SELECT 1 FROM search_listings)
BEGIN
  DELETE FROM search_listings;
END;

CREATE TRIGGER IF NOT EXISTS search_numbers_delete_drops_listings AFTER DELETE ON search_numbers
WHEN EXISTS (SELECT 1 FROM search_listings)
BEGIN
  DELETE FROM search_listings;
END;

CREATE TRIGGER IF NOT EXISTS search_numbers_update_drops_listings AFTER UPDATE ON search_numbers
WHEN EXISTS (SELECT 1 FROM search_listings)
BEGIN
  DELETE FROM search_listings;
END;

CREATE TRIGGER IF NOT EXISTS search_docs_insert_drops_listings AFTER INSERT ON search_docs
WHEN EXISTS (SELECT 1 FROM search_listings)
BEGIN
  DELETE FROM search_listings;
END;

CREATE TRIGGER IF NOT EXISTS search_docs_delete_drops_listings AFTER DELETE ON search_docs
WHEN EXISTS (SELECT 1 FROM search_listings)
BEGIN
  DELETE FROM search_listings;
END;

CREATE TRIGGER IF NOT EXISTS search_docs_update_drops_listings AFTER UPDATE ON search_docs
WHEN EXISTS (SELECT 1 FROM search_listings)
BEGIN
  DELETE FROM search_listings;
END;

CREATE TRIGGER IF NOT EXISTS search_tokens_insert_drops_vocabulary AFTER INSERT ON search_tokens
WHEN EXISTS (SELECT 1 FROM search_vocabulary)
BEGIN
  DELETE FROM search_vocabulary;
END;

CREATE TRIGGER IF NOT EXISTS search_tokens_delete_drops_vocabulary AFTER DELETE ON search_tokens
WHEN EXISTS (SELECT 1 FROM search_vocabulary)
BEGIN
  DELETE FROM search_vocabulary;
END;

CREATE TRIGGER IF NOT EXISTS search_tokens_update_drops_vocabulary AFTER UPDATE ON search_tokens
WHEN EXISTS (SELECT 1 FROM search_vocabulary)
BEGIN
  DELETE FROM search_vocabulary;
END;
