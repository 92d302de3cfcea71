-- Offers issued by AirShopping, OfferPrice, ServiceList and SeatAvailability (spec 4.5-4.7):
-- kept until they expire so OfferPrice and OrderCreate can resolve them. An offer belongs to
-- the seller (agency) it was issued to; nobody else can resolve it.
CREATE TABLE IF NOT EXISTS offers (
  offer_id        TEXT PRIMARY KEY,
  -- What issued it: air_shopping, offer_price, service_list, seat_availability.
  source          TEXT NOT NULL,
  owner_client_id TEXT NOT NULL,
  owner_agency_id TEXT NOT NULL,
  created_at      INTEGER NOT NULL,
  expires_at      INTEGER NOT NULL,
  -- JSON text: the priced items, owned by @ndc/shopping.
  payload         TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS offers_expiry ON offers (expires_at);
