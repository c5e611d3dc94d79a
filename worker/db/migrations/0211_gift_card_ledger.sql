-- Gift cards as a ledger. A card is worth what was paid for it: `paid_minor` in `paid_currency`
-- (the order's charge currency: its line total after the coupon's share, split over the units),
-- and `amount_minor` is that value in the base currency (rounded down), which is what redeeming
-- it adds to store credit. A refund of the order may take part or all of an unredeemed card's
-- value back (`clawed_minor`, in paid_currency); a card taken back whole is 'void'. A redeemed
-- card's value cannot be refunded: it is store credit already.
-- Status: issued | redeemed | void.
ALTER TABLE gift_cards ADD COLUMN paid_minor INTEGER;
ALTER TABLE gift_cards ADD COLUMN paid_currency TEXT;
ALTER TABLE gift_cards ADD COLUMN clawed_minor INTEGER NOT NULL DEFAULT 0 CHECK (clawed_minor >= 0);

-- Cards issued before: their face value was the unit's list price in the order's currency.
UPDATE gift_cards SET paid_minor = amount_minor, paid_currency = currency WHERE paid_minor IS NULL;

CREATE INDEX IF NOT EXISTS gift_cards_order ON gift_cards(client_order_id, id);
-- An order's store credit (spent, returned) is read by order when it is refunded or canceled.
CREATE INDEX IF NOT EXISTS store_credit_ledger_order ON store_credit_ledger(order_id) WHERE order_id IS NOT NULL;
