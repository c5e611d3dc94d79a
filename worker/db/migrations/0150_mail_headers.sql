-- Extra headers a mail is sent with (a JSON object of header name to value, e.g. a back-in-stock
-- mail's List-Unsubscribe and List-Unsubscribe-Post for a mail client's one-click unsubscribe);
-- NULL for none.
ALTER TABLE mail_outbox ADD COLUMN headers TEXT;
