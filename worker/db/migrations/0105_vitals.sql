-- Field data (Core Web Vitals of real visits) where no Analytics Engine dataset is bound, i.e. in
-- development and tests: one row per sampled metric, kept 30 days (the scheduled job prunes it),
-- at most a fixed number per page type, metric and day (the insert checks it).
CREATE TABLE IF NOT EXISTS vitals_samples (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  day TEXT NOT NULL,            -- YYYY-MM-DD (UTC)
  page TEXT NOT NULL,           -- page type (the client entry)
  metric TEXT NOT NULL CHECK (metric IN ('LCP', 'INP', 'CLS', 'TTFB')),
  value REAL NOT NULL CHECK (value >= 0),
  country TEXT
);
CREATE INDEX IF NOT EXISTS vitals_samples_group ON vitals_samples(day, page, metric, value);
