-- The back office: operators (people who run the shop, never shopper accounts), their local
-- sign-in sessions, and the audit log every operator change writes.

-- An operator is identified by e-mail (the Access identity, or the local sign-in name). The
-- password is used only by the local sign-in (disabled when Access protects the back office).
CREATE TABLE IF NOT EXISTS operators (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  email TEXT NOT NULL COLLATE NOCASE UNIQUE,
  role TEXT NOT NULL CHECK (role IN ('owner', 'staff', 'viewer')),
  password_hash TEXT,                    -- PBKDF2 string; NULL = Access only
  disabled_at TEXT,
  created_at TEXT NOT NULL
);

-- Local sign-in sessions: the cookie holds a random token, only its SHA-256 is stored.
CREATE TABLE IF NOT EXISTS operator_sessions (
  token_hash TEXT PRIMARY KEY,
  operator_id INTEGER NOT NULL REFERENCES operators(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,           -- ms epoch
  expires_at INTEGER NOT NULL            -- ms epoch
);
CREATE INDEX IF NOT EXISTS operator_sessions_operator ON operator_sessions(operator_id);

-- One row per operator change: who, what, on which record, the state before and after.
CREATE TABLE IF NOT EXISTS admin_audit (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  actor TEXT NOT NULL,
  action TEXT NOT NULL,
  target TEXT NOT NULL,
  before TEXT,
  after TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS admin_audit_target ON admin_audit(target, id);
