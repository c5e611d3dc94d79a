-- Each product document's size in bytes, indexed (owner: worker/search/cost.ts): before a search's
-- statement runs, its cost estimate reads the largest one (MAX over this index: one lookup, exact
-- after any write or delete of a document) to bound the bytes of the page of documents the search
-- would read, so a request for thousands of hits is refused before any of them is read.
CREATE INDEX IF NOT EXISTS products_doc_bytes ON products (length(CAST(doc AS BLOB)));
