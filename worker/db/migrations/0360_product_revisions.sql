-- A product's revision: every write of the product moves it on by one (no row: revision 0). An
-- edit made from revision N is stored only while the product is still at N (compare-and-set): its
-- batch starts with a statement that, when the product has moved on, writes a row this CHECK
-- refuses, and the whole batch is rolled back (no lost update).
CREATE TABLE IF NOT EXISTS product_revisions (
  product_id INTEGER PRIMARY KEY,
  revision INTEGER NOT NULL CONSTRAINT stale_edit CHECK (revision >= 0)
);
