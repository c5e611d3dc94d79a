-- Tax documents the law asks for: tax invoices (CGST Rule 46) and credit notes (CGST Act s. 34).
-- Each is numbered in its own consecutive series per financial year (April-March, India's
-- calendar): seq is the next one of (kind, fy) when the row is written, inside the batch of the
-- event that issues it, so numbers are never shared, skipped or reused. The rendered document
-- (html) and its figures (data, JSON) are stored when it is issued and never change: the triggers
-- below refuse every UPDATE and DELETE. The columns beside them are the figures the GST reports
-- read without parsing every document.
CREATE TABLE IF NOT EXISTS tax_documents (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL CHECK (kind IN ('invoice', 'credit_note')),
  fy TEXT NOT NULL CHECK (length(fy) = 5),         -- '26-27'
  seq INTEGER NOT NULL CHECK (seq BETWEEN 1 AND 999999),
  number TEXT NOT NULL UNIQUE CHECK (length(number) <= 16),
  client_order_id TEXT NOT NULL,
  -- A credit note's invoice; NULL for an invoice.
  invoice_id INTEGER REFERENCES tax_documents(id),
  -- What a credit note answers (one per refund, cancel or return), so a replay writes none twice.
  source TEXT UNIQUE,
  issued_at TEXT NOT NULL,                        -- UTC, 'YYYY-MM-DD HH:MM:SS'
  issued_on TEXT NOT NULL,                        -- the document's date in India, YYYY-MM-DD
  period TEXT NOT NULL,                           -- the tax period in India, YYYY-MM
  recipient_gstin TEXT,                           -- NULL: an unregistered recipient
  place_of_supply TEXT NOT NULL,                  -- GST state code, '96' for an export
  regime TEXT NOT NULL,                           -- cgst_sgst | cgst_utgst | igst | export_lut | export_igst
  taxable_minor INTEGER NOT NULL,                 -- paise
  cgst_minor INTEGER NOT NULL,
  sgst_minor INTEGER NOT NULL,                    -- SGST or UTGST
  igst_minor INTEGER NOT NULL,
  other_tax_minor INTEGER NOT NULL,               -- a destination's tax inside an export's price
  total_minor INTEGER NOT NULL,
  data TEXT NOT NULL,
  html TEXT NOT NULL,
  UNIQUE (kind, fy, seq),
  CHECK (taxable_minor + cgst_minor + sgst_minor + igst_minor + other_tax_minor = total_minor),
  CHECK ((kind = 'invoice') = (invoice_id IS NULL))
);
-- One invoice per order.
CREATE UNIQUE INDEX IF NOT EXISTS tax_documents_one_invoice ON tax_documents(client_order_id)
  WHERE kind = 'invoice';
CREATE INDEX IF NOT EXISTS tax_documents_order ON tax_documents(client_order_id, id);
CREATE INDEX IF NOT EXISTS tax_documents_period ON tax_documents(period, kind, seq);

-- Each document's lines as figures (the shipping line included), written with the document in its
-- batch: what the GST reports add up by rate, state and HSN code.
CREATE TABLE IF NOT EXISTS tax_document_lines (
  document_id INTEGER NOT NULL REFERENCES tax_documents(id),
  line_no INTEGER NOT NULL,
  hsn TEXT,                                       -- NULL: none named (shipping, or not in the catalogue)
  uqc TEXT NOT NULL,
  qty INTEGER NOT NULL,
  rate REAL NOT NULL,                             -- percent: the GST rate (0 on an export under LUT)
  value_minor INTEGER NOT NULL,
  taxable_minor INTEGER NOT NULL,
  cgst_minor INTEGER NOT NULL,
  sgst_minor INTEGER NOT NULL,
  igst_minor INTEGER NOT NULL,
  other_tax_minor INTEGER NOT NULL,
  PRIMARY KEY (document_id, line_no),
  CHECK (taxable_minor + cgst_minor + sgst_minor + igst_minor + other_tax_minor = value_minor)
);

CREATE TRIGGER IF NOT EXISTS tax_document_lines_never_updated BEFORE UPDATE ON tax_document_lines
BEGIN
  SELECT RAISE(ABORT, 'tax documents are immutable once issued');
END;
CREATE TRIGGER IF NOT EXISTS tax_document_lines_never_deleted BEFORE DELETE ON tax_document_lines
BEGIN
  SELECT RAISE(ABORT, 'tax documents are immutable once issued');
END;
CREATE TRIGGER IF NOT EXISTS tax_documents_never_updated BEFORE UPDATE ON tax_documents
BEGIN
  SELECT RAISE(ABORT, 'tax documents are immutable once issued');
END;
CREATE TRIGGER IF NOT EXISTS tax_documents_never_deleted BEFORE DELETE ON tax_documents
BEGIN
  SELECT RAISE(ABORT, 'tax documents are immutable once issued');
END;
