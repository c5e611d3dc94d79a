-- Slow-down of password checks per account (login) or per customer (password and e-mail change),
-- instead of a lockout: after k recent failures the next check is allowed only after a spacing
-- that doubles per failure (capped). Attempts inside the spacing are refused without being
-- counted. Times are ms epoch.
CREATE TABLE IF NOT EXISTS auth_throttle (
  key TEXT PRIMARY KEY,                  -- 'login:acct:<email>' | 'login:device:<id>' | 'password:<customer id>'
  failures INTEGER NOT NULL,             -- recent consecutive failures (forgotten after 15 quiet minutes)
  last_failure_at INTEGER NOT NULL,
  next_allowed_at INTEGER NOT NULL       -- the next password check is refused before this
);
CREATE INDEX IF NOT EXISTS auth_throttle_last_failure ON auth_throttle(last_failure_at);
