-- "Notify me" is double opt-in: an address gets back-in-stock mail only after it has confirmed,
-- with the signed link of a confirmation mail, that it wants such mail from the shop. One row per
-- confirmed address; "stop all back-in-stock mail" deletes it with the address's alerts. Alerts of
-- an address without a row are not mailed and lapse after a week. Alerts made before this change
-- were never confirmed: they are treated like any other unconfirmed alert.
CREATE TABLE IF NOT EXISTS stock_alert_addresses (
  email TEXT PRIMARY KEY,
  confirmed_at INTEGER NOT NULL
);
