-- The PSP's reason for a declined card leg (do_not_honour, insufficient_funds, expired_card...;
-- docs/payments.md). decline_code keeps the wire code of the decline (payment_declined,
-- psp_unavailable, voucher_invalid...); this column says why the card was declined, so the
-- order's Warning and the request log can name a reason the seller can act on. NULL for legs
-- declined before this column existed, and for every leg the PSP never answered for.
ALTER TABLE payment_legs ADD COLUMN decline_reason TEXT;
