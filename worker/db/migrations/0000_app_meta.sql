-- Key/value facts about the database itself (seed version, catalogue generation time, ...).
CREATE TABLE IF NOT EXISTS app_meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
