-- Refund clearances (issue 19 item 13; docs/payments.md "Clearance"): a settlement-plan payment
-- refunded after its clearance cleared gets a clearance of its own in the other direction, for
-- exactly the amount refunded, so the airline's settlement gives the money back through SwO as it
-- took it. `direction` says which way (a sale's clearance, or a refund's); `reverses` names the
-- sale clearance a refund clearance gives back. One live SALE clearance per payment still: the
-- partial unique index now covers sale rows only (a payment may have several refund clearances).
ALTER TABLE payment_clearances ADD COLUMN direction TEXT NOT NULL DEFAULT 'sale' CHECK (direction IN ('sale', 'refund'));
ALTER TABLE payment_clearances ADD COLUMN reverses TEXT;
DROP INDEX IF EXISTS payment_clearances_live_leg;
CREATE UNIQUE INDEX IF NOT EXISTS payment_clearances_live_leg ON payment_clearances (leg_id) WHERE status <> 'cancelled' AND direction = 'sale';
