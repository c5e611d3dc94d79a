-- E-gift card delivery: who a card is for, the buyer's message, and when it is mailed.
-- pending_code holds the code only until its mail is written to the mail outbox (then NULL);
-- send_at is the instant (ms) the card is due, sent_at when its mail was queued.
ALTER TABLE gift_cards ADD COLUMN recipient_name TEXT;
ALTER TABLE gift_cards ADD COLUMN recipient_email TEXT;
ALTER TABLE gift_cards ADD COLUMN gift_message TEXT;
ALTER TABLE gift_cards ADD COLUMN send_on TEXT;
ALTER TABLE gift_cards ADD COLUMN send_at INTEGER;
ALTER TABLE gift_cards ADD COLUMN pending_code TEXT;
ALTER TABLE gift_cards ADD COLUMN sent_at TEXT;

-- The scheduled job reads the cards due: only those still waiting carry a pending code.
CREATE INDEX IF NOT EXISTS gift_cards_due ON gift_cards(send_at) WHERE pending_code IS NOT NULL;
