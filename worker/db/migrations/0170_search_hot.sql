-- The index's hot columns pre-built for the isolates' copies (owner: worker/search/hot-columns.ts):
-- one row per hot field and part of the product ids (ids / 32768), holding the part's ids and their
-- values as text, built by the catalogue writer with the facet postings, so an isolate reads a
-- column as a few stored strings instead of making SQLite convert and rank every row.
--
-- Validity: rows exist only while they equal search_docs. Any write to search_docs empties the
-- table in the same statement (triggers below); the next build (import, seed, or the scheduled
-- rebuild) fills it again. A field's rows are written by one statement, each with the number of
-- index rows at that moment (`total`): the reader uses a field only when its parts add up to it.
CREATE TABLE IF NOT EXISTS search_hot (
  field TEXT NOT NULL,
  part INTEGER NOT NULL,
  total INTEGER NOT NULL,
  n INTEGER NOT NULL,
  ids TEXT NOT NULL,
  vals TEXT NOT NULL,
  PRIMARY KEY (field, part)
) WITHOUT ROWID;

CREATE TRIGGER IF NOT EXISTS search_docs_insert_drops_hot AFTER INSERT ON search_docs
WHEN EXISTS (SELECT 1 FROM search_hot)
BEGIN
  DELETE FROM search_hot;
END;

CREATE TRIGGER IF NOT EXISTS search_docs_update_drops_hot AFTER UPDATE ON search_docs
WHEN EXISTS (SELECT 1 FROM search_hot)
BEGIN
  DELETE FROM search_hot;
END;

CREATE TRIGGER IF NOT EXISTS search_docs_delete_drops_hot AFTER DELETE ON search_docs
WHEN EXISTS (SELECT 1 FROM search_hot)
BEGIN
  DELETE FROM search_hot;
END;
