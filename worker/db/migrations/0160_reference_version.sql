-- The reference-data version: a second number in search_meta that moves on whenever a category, an
-- attribute, a tax rule or a content document (the home page's) is written, by any path (seed,
-- importer, back office, a hand-written statement), in the same transaction as the write.
-- Per-isolate memos of those reads are kept while it is unchanged, so an import of products alone
-- (which moves the catalogue version) does not make every isolate read them again.
INSERT OR IGNORE INTO search_meta (key, value) VALUES ('reference', abs(random() % 9007199254740991));

CREATE TRIGGER IF NOT EXISTS categories_insert_moves_reference AFTER INSERT ON categories
BEGIN
  UPDATE search_meta SET value = abs(random() % 9007199254740991) WHERE key = 'reference';
END;
CREATE TRIGGER IF NOT EXISTS categories_update_moves_reference AFTER UPDATE ON categories
BEGIN
  UPDATE search_meta SET value = abs(random() % 9007199254740991) WHERE key = 'reference';
END;
CREATE TRIGGER IF NOT EXISTS categories_delete_moves_reference AFTER DELETE ON categories
BEGIN
  UPDATE search_meta SET value = abs(random() % 9007199254740991) WHERE key = 'reference';
END;

CREATE TRIGGER IF NOT EXISTS attributes_insert_moves_reference AFTER INSERT ON attributes
BEGIN
  UPDATE search_meta SET value = abs(random() % 9007199254740991) WHERE key = 'reference';
END;
CREATE TRIGGER IF NOT EXISTS attributes_update_moves_reference AFTER UPDATE ON attributes
BEGIN
  UPDATE search_meta SET value = abs(random() % 9007199254740991) WHERE key = 'reference';
END;
CREATE TRIGGER IF NOT EXISTS attributes_delete_moves_reference AFTER DELETE ON attributes
BEGIN
  UPDATE search_meta SET value = abs(random() % 9007199254740991) WHERE key = 'reference';
END;

CREATE TRIGGER IF NOT EXISTS tax_rules_insert_moves_reference AFTER INSERT ON tax_rules
BEGIN
  UPDATE search_meta SET value = abs(random() % 9007199254740991) WHERE key = 'reference';
END;
CREATE TRIGGER IF NOT EXISTS tax_rules_update_moves_reference AFTER UPDATE ON tax_rules
BEGIN
  UPDATE search_meta SET value = abs(random() % 9007199254740991) WHERE key = 'reference';
END;
CREATE TRIGGER IF NOT EXISTS tax_rules_delete_moves_reference AFTER DELETE ON tax_rules
BEGIN
  UPDATE search_meta SET value = abs(random() % 9007199254740991) WHERE key = 'reference';
END;

CREATE TRIGGER IF NOT EXISTS content_docs_insert_moves_reference AFTER INSERT ON content_docs
BEGIN
  UPDATE search_meta SET value = abs(random() % 9007199254740991) WHERE key = 'reference';
END;
CREATE TRIGGER IF NOT EXISTS content_docs_update_moves_reference AFTER UPDATE ON content_docs
BEGIN
  UPDATE search_meta SET value = abs(random() % 9007199254740991) WHERE key = 'reference';
END;
CREATE TRIGGER IF NOT EXISTS content_docs_delete_moves_reference AFTER DELETE ON content_docs
BEGIN
  UPDATE search_meta SET value = abs(random() % 9007199254740991) WHERE key = 'reference';
END;
