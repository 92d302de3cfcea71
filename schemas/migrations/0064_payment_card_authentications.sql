-- PAY3D2: the 3-D Secure results a seller sent with a card leg (docs/payments.md "3-D Secure"),
-- one row per leg, written in the transaction that writes the leg. The authentication value
-- (CAVV/AAV) is 3DS sensitive data: kept here as evidence of the authentication the payment
-- relied on (PCI SSC FAQ 1603: not sensitive authentication data, storage allowed), read by no
-- answer and no log line. Legs paid without 3-D Secure have no row.
CREATE TABLE payment_card_authentications (
  leg_id TEXT PRIMARY KEY,
  eci TEXT NOT NULL,
  authentication_value TEXT,
  protocol_version TEXT,
  ds_trx_id TEXT,
  trx_status TEXT,
  created_at INTEGER NOT NULL
);
