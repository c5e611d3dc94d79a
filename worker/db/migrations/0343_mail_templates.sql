-- The operator's own words for an order mail, one row per mail event (`placed`, `shipped`, …):
-- the subject, the opening text and a closing note. A NULL or missing field keeps the shop's
-- default words; deleting the row resets the mail to its defaults. Each field is plain text with
-- a few placeholders ({order}, {total}, …) and **bold**; everything else is escaped when rendered.
CREATE TABLE IF NOT EXISTS mail_templates (
  event TEXT PRIMARY KEY,
  subject TEXT,
  intro TEXT,
  note TEXT,
  updated_by TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
