-- Search index of the embedded catalogue search engine (owner: worker/search).
-- Rebuilt per product by indexProductStatements() whenever a product is written to `products`.
-- Field names are stored as data (never as SQL identifiers), so any document field can be queried
-- with bound parameters only.

-- One row per indexed product (the set every search starts from).
CREATE TABLE IF NOT EXISTS search_docs (
  product_id INTEGER PRIMARY KEY,
  sku TEXT NOT NULL,
  type_id TEXT NOT NULL
);

-- Exact-value facts: (field path, canonical text value) per product, e.g. ('color', '49'),
-- ('category_ids', '21'), ('stock.is_in_stock', 'true'), ('configurable_children.sku', 'S-1-RED-M').
-- Numbers are stored as JS String(n), booleans as 'true'/'false'.
CREATE TABLE IF NOT EXISTS search_terms (
  field TEXT NOT NULL,
  value TEXT NOT NULL,
  product_id INTEGER NOT NULL,
  PRIMARY KEY (field, value, product_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS search_terms_product ON search_terms(product_id, field, value);

-- Numeric facts for range filters, numeric sorts and min/max/range aggregations.
CREATE TABLE IF NOT EXISTS search_numbers (
  field TEXT NOT NULL,
  value REAL NOT NULL,
  product_id INTEGER NOT NULL,
  PRIMARY KEY (field, value, product_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS search_numbers_product ON search_numbers(product_id, field, value);

-- Full-text tokens of the text fields (name, sku, category.name ...), lower-cased and
-- accent-folded; `pos` is the token position (first occurrence) within the field.
CREATE TABLE IF NOT EXISTS search_tokens (
  token TEXT NOT NULL,
  field TEXT NOT NULL,
  product_id INTEGER NOT NULL,
  pos INTEGER NOT NULL,
  PRIMARY KEY (token, field, product_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS search_tokens_product ON search_tokens(product_id, field);

-- Index version: set to a fresh random number by every rebuild so per-isolate caches (the fuzzy vocabulary) know when
-- to reload.
CREATE TABLE IF NOT EXISTS search_meta (
  key TEXT PRIMARY KEY,
  value INTEGER NOT NULL
);
INSERT OR IGNORE INTO search_meta (key, value) VALUES ('version', 0);
