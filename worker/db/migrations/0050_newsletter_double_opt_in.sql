-- Newsletter double opt-in: a sign-up is 'pending' until the mailed, signed confirmation link is
-- used. SQLite cannot change a CHECK constraint in place, so the table is rebuilt (rows kept).
CREATE TABLE newsletter_subscribers_next (
  email TEXT PRIMARY KEY COLLATE NOCASE,
  status TEXT NOT NULL CHECK (status IN ('pending', 'subscribed', 'unsubscribed')),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
INSERT INTO newsletter_subscribers_next (email, status, created_at, updated_at)
  SELECT email, status, created_at, updated_at FROM newsletter_subscribers;
DROP TABLE newsletter_subscribers;
ALTER TABLE newsletter_subscribers_next RENAME TO newsletter_subscribers;
