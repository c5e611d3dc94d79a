-- A coupon's usage limits are checked inside the order's own write: the placement batch inserts a
-- row here only when the order it just wrote took a coupon past its limit (in all, or for that
-- shopper), and the CHECK refuses every such row, so the whole batch (order, items, stock, credit)
-- is undone. Two orders placed at the same instant cannot both pass a limit of one. The table
-- never holds a row.
CREATE TABLE IF NOT EXISTS coupon_limit_guard (
  code TEXT,
  CONSTRAINT coupon_limit_reached CHECK (code IS NULL)
);
