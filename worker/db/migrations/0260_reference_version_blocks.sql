-- CMS blocks and size guides are reference data too: any write of them moves the reference-data
-- version in the same transaction (as 0160 does for categories, attributes, tax rules and content
-- documents), so the per-isolate memos of their reads stay exact.
CREATE TRIGGER IF NOT EXISTS cms_blocks_insert_moves_reference AFTER INSERT ON cms_blocks
BEGIN
  UPDATE search_meta SET value = abs(random() % 9007199254740991) WHERE key = 'reference';
END;
CREATE TRIGGER IF NOT EXISTS cms_blocks_update_moves_reference AFTER UPDATE ON cms_blocks
BEGIN
  UPDATE search_meta SET value = abs(random() % 9007199254740991) WHERE key = 'reference';
END;
CREATE TRIGGER IF NOT EXISTS cms_blocks_delete_moves_reference AFTER DELETE ON cms_blocks
BEGIN
  UPDATE search_meta SET value = abs(random() % 9007199254740991) WHERE key = 'reference';
END;

CREATE TRIGGER IF NOT EXISTS size_guides_insert_moves_reference AFTER INSERT ON size_guides
BEGIN
  UPDATE search_meta SET value = abs(random() % 9007199254740991) WHERE key = 'reference';
END;
CREATE TRIGGER IF NOT EXISTS size_guides_update_moves_reference AFTER UPDATE ON size_guides
BEGIN
  UPDATE search_meta SET value = abs(random() % 9007199254740991) WHERE key = 'reference';
END;
CREATE TRIGGER IF NOT EXISTS size_guides_delete_moves_reference AFTER DELETE ON size_guides
BEGIN
  UPDATE search_meta SET value = abs(random() % 9007199254740991) WHERE key = 'reference';
END;
