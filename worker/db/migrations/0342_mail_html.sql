-- The HTML part of a mail (order mails have one beside their plain-text `body`); NULL for a mail
-- that is plain text only. Sent to the provider as `html` with `text`, so a mail client that shows
-- HTML shows the label's layout and one that does not shows the text.
ALTER TABLE mail_outbox ADD COLUMN html TEXT;
