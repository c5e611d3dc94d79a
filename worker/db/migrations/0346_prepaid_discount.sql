-- The discount offered to a cash-on-delivery order that switches to prepaid through a payment
-- link: one operator setting (no row, or kind 'off', means none). 'percent' takes `percent` % of
-- the goods, at most `cap_minor` paise; 'fixed' takes `fixed_minor` paise.
CREATE TABLE IF NOT EXISTS prepaid_discount (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  kind TEXT NOT NULL CHECK (kind IN ('off', 'percent', 'fixed')),
  percent INTEGER NOT NULL DEFAULT 0 CHECK (percent BETWEEN 0 AND 50),
  cap_minor INTEGER NOT NULL DEFAULT 0 CHECK (cap_minor >= 0),
  fixed_minor INTEGER NOT NULL DEFAULT 0 CHECK (fixed_minor >= 0),
  updated_at TEXT NOT NULL
);

-- The discount a payment link was made with (its amount is the order's total less it): the
-- payment is settled by this, whatever the setting says later.
ALTER TABLE payments ADD COLUMN discount_minor INTEGER NOT NULL DEFAULT 0;
