-- PostgreSQL baseline: the schema SQLite has after migrations 0001-0067 (decision 0041).
-- GENERATED above the marker line by `bun scripts/pg-baseline.ts` from SQLite's catalogue: do not edit
-- that part by hand. A later schema change is one file per engine, same number, same commit:
-- schemas/migrations/NNNN_x.sql and schemas/migrations-postgres/NNNN_x.sql.
--
-- The runner (packages/store/src/migrate.ts) records each version listed as `-- covers` in
-- schema_migrations when it applies this file, so both engines list the same versions.
-- covers 0001_init
-- covers 0002_registry
-- covers 0003_actor_journal
-- covers 0004_offers
-- covers 0005_identity_documents
-- covers 0006_payments
-- covers 0007_inventory
-- covers 0008_orders
-- covers 0009_sagas_idempotency
-- covers 0010_commission_agreements
-- covers 0011_payment_decline_reason
-- covers 0012_request_idempotency_owner
-- covers 0013_registry_version
-- covers 0014_drop_gateway_meta
-- covers 0015_operations
-- covers 0016_freeze_fare_conditions
-- covers 0020_reconcile_failed
-- covers 0021_order_views
-- covers 0025_notifications
-- covers 0026_scheduler_jobs
-- covers 0030_servicing_overrides
-- covers 0037_order_operations
-- covers 0038_operations_feed
-- covers 0040_payment_clearances
-- covers 0041_orders_closing_index
-- covers 0043_identity_document_erasures
-- covers 0044_web_shop_accounts
-- covers 0046_signing_agreements
-- covers 0047_signature_evidence
-- covers 0050_staff
-- covers 0051_staff_order_deliveries
-- covers 0052_staff_queue_claims
-- covers 0055_reconcile_failed_capture_void
-- covers 0058_orders_created_index
-- covers 0059_operations_rowid
-- covers 0060_promotion_criteria
-- covers 0061_sandbox_clocks
-- covers 0063_clearance_reversals
-- covers 0064_payment_card_authentications
-- covers 0065_instances
-- covers 0066_failure_budgets_and_signing_key_version
-- covers 0067_order_views_key

CREATE TABLE actor_journal (
  kind text COLLATE "C" NOT NULL,
  key text COLLATE "C" NOT NULL,
  seq bigint NOT NULL,
  payload text COLLATE "C" NOT NULL,
  committed_at bigint NOT NULL,
  PRIMARY KEY (kind, key, seq),
  CHECK (seq >= 1),
  CHECK ((payload::jsonb IS NOT NULL))
);

CREATE TABLE actor_snapshots (
  kind text COLLATE "C" NOT NULL,
  key text COLLATE "C" NOT NULL,
  seq bigint NOT NULL,
  state text COLLATE "C" NOT NULL,
  updated_at bigint NOT NULL,
  PRIMARY KEY (kind, key),
  CHECK (seq >= 0),
  CHECK ((state::jsonb IS NOT NULL))
);

CREATE TABLE agencies (
  agency_id text COLLATE "C" NOT NULL,
  iata_number text COLLATE "C" NOT NULL,
  name text COLLATE "C" NOT NULL,
  active bigint NOT NULL DEFAULT 1,
  created_at bigint NOT NULL,
  signing_policy text COLLATE "C" NOT NULL DEFAULT 'none',
  airline_signs bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (agency_id),
  UNIQUE (iata_number),
  CHECK (active IN (0, 1)),
  CHECK (signing_policy IN ('none', 'optional', 'required')),
  CHECK (airline_signs IN (0, 1))
);

CREATE TABLE agency_signing_keys (
  agency_id text COLLATE "C" NOT NULL,
  fingerprint text COLLATE "C" NOT NULL,
  kind text COLLATE "C" NOT NULL,
  algorithm text COLLATE "C" NOT NULL,
  pem text COLLATE "C" NOT NULL,
  subject text COLLATE "C",
  not_before bigint,
  not_after bigint,
  added_at bigint NOT NULL,
  revoked_at bigint,
  PRIMARY KEY (agency_id, fingerprint),
  CHECK (kind IN ('certificate', 'public_key')),
  CHECK (algorithm IN ('rsa-sha256', 'ecdsa-p256-sha256'))
);

CREATE TABLE aggregator_grants (
  client_id text COLLATE "C" NOT NULL,
  agency_id text COLLATE "C" NOT NULL,
  created_at bigint NOT NULL,
  PRIMARY KEY (client_id, agency_id)
);

CREATE TABLE api_keys (
  key_id text COLLATE "C" NOT NULL,
  key_hash text COLLATE "C" NOT NULL,
  client_id text COLLATE "C" NOT NULL,
  local_only bigint NOT NULL DEFAULT 1,
  revoked bigint NOT NULL DEFAULT 0,
  created_at bigint NOT NULL,
  PRIMARY KEY (key_id),
  UNIQUE (key_hash),
  CHECK (local_only IN (0, 1)),
  CHECK (revoked IN (0, 1))
);

CREATE TABLE clients (
  client_id text COLLATE "C" NOT NULL,
  name text COLLATE "C",
  secret_hash text COLLATE "C" NOT NULL,
  secret_generation bigint NOT NULL DEFAULT 1,
  token_epoch bigint NOT NULL DEFAULT 1,
  scopes text COLLATE "C" NOT NULL DEFAULT '',
  agency_id text COLLATE "C" NOT NULL,
  suspended bigint NOT NULL DEFAULT 0,
  local_only bigint NOT NULL DEFAULT 0,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  PRIMARY KEY (client_id),
  CHECK (suspended IN (0, 1)),
  CHECK (local_only IN (0, 1))
);

CREATE TABLE commission_agreements (
  agency_id text COLLATE "C" NOT NULL,
  kind text COLLATE "C" NOT NULL,
  parameters text COLLATE "C" NOT NULL,
  currency text COLLATE "C",
  created_at bigint NOT NULL,
  PRIMARY KEY (agency_id),
  CHECK (kind IN ('percentage', 'tiered', 'flat')),
  CHECK ((parameters::jsonb IS NOT NULL)),
  CHECK ((kind = 'percentage') = (currency IS NULL))
);

CREATE TABLE failure_budgets (
  source text COLLATE "C" NOT NULL,
  tokens double precision NOT NULL,
  updated_at bigint NOT NULL,
  PRIMARY KEY (source)
);

CREATE TABLE identity_document_erasures (
  seq bigint NOT NULL,
  order_id text COLLATE "C" NOT NULL,
  path text COLLATE "C" NOT NULL,
  actor text COLLATE "C" NOT NULL,
  reason text COLLATE "C",
  documents bigint NOT NULL,
  erased_at bigint NOT NULL,
  PRIMARY KEY (seq),
  CHECK (path IN ('retention', 'account_deletion', 'supervisor')),
  CHECK (documents > 0)
);

CREATE TABLE identity_documents (
  document_id text COLLATE "C" NOT NULL,
  order_id text COLLATE "C" NOT NULL,
  pax_id text COLLATE "C" NOT NULL,
  type_code text COLLATE "C",
  citizenship text COLLATE "C",
  issuing_country text COLLATE "C",
  residence_country text COLLATE "C",
  issue_date text COLLATE "C",
  expiry_date text COLLATE "C",
  holder_surname text COLLATE "C",
  given_names text COLLATE "C",
  middle_names text COLLATE "C",
  suffix_name text COLLATE "C",
  title_name text COLLATE "C",
  birth_date text COLLATE "C",
  birthplace text COLLATE "C",
  gender text COLLATE "C",
  number_ciphertext text COLLATE "C",
  number_nonce text COLLATE "C",
  key_version bigint,
  created_at bigint NOT NULL,
  erased_at bigint,
  PRIMARY KEY (document_id),
  CHECK (erased_at IS NOT NULL OR (type_code IS NOT NULL AND holder_surname IS NOT NULL AND number_ciphertext IS NOT NULL AND number_nonce IS NOT NULL AND key_version IS NOT NULL)),
  CHECK (erased_at IS NULL OR (type_code IS NULL AND holder_surname IS NULL AND birth_date IS NULL AND number_ciphertext IS NULL AND number_nonce IS NULL AND given_names IS NULL))
);

CREATE TABLE instances (
  instance_id text COLLATE "C" NOT NULL,
  host text COLLATE "C" NOT NULL,
  pid bigint NOT NULL,
  started_at bigint NOT NULL,
  heartbeat_at bigint NOT NULL,
  PRIMARY KEY (instance_id)
);

CREATE TABLE loyalty_accounts (
  member_account text COLLATE "C" NOT NULL,
  programme text COLLATE "C" NOT NULL,
  points bigint NOT NULL,
  pending bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (member_account),
  CHECK (points >= 0),
  CHECK (pending >= 0 AND pending <= points)
);

CREATE TABLE loyalty_certificates (
  certificate_id text COLLATE "C" NOT NULL,
  member_account text COLLATE "C" NOT NULL,
  points bigint NOT NULL,
  expires_at bigint NOT NULL,
  state text COLLATE "C" NOT NULL,
  leg_id text COLLATE "C",
  issued_at bigint NOT NULL,
  PRIMARY KEY (certificate_id),
  CHECK (points > 0)
);

CREATE TABLE notification_deliveries (
  delivery_id text COLLATE "C" NOT NULL,
  subscription_id text COLLATE "C" NOT NULL,
  event text COLLATE "C" NOT NULL,
  message_name text COLLATE "C" NOT NULL,
  order_id text COLLATE "C",
  body text COLLATE "C" NOT NULL,
  status text COLLATE "C" NOT NULL,
  attempts bigint NOT NULL DEFAULT 0,
  next_attempt_at bigint,
  claimed_until bigint,
  last_http_status bigint,
  last_error text COLLATE "C",
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  PRIMARY KEY (delivery_id),
  CHECK (status IN ('pending', 'delivered', 'failed'))
);

CREATE TABLE notification_subscriptions (
  subscription_id text COLLATE "C" NOT NULL,
  agency_id text COLLATE "C" NOT NULL,
  client_id text COLLATE "C" NOT NULL,
  url text COLLATE "C" NOT NULL,
  events text COLLATE "C" NOT NULL,
  secret_ciphertext text COLLATE "C" NOT NULL,
  secret_nonce text COLLATE "C" NOT NULL,
  key_version bigint NOT NULL,
  created_at bigint NOT NULL,
  PRIMARY KEY (subscription_id)
);

CREATE TABLE offers (
  offer_id text COLLATE "C" NOT NULL,
  source text COLLATE "C" NOT NULL,
  owner_client_id text COLLATE "C" NOT NULL,
  owner_agency_id text COLLATE "C" NOT NULL,
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  payload text COLLATE "C" NOT NULL,
  PRIMARY KEY (offer_id)
);

CREATE TABLE operations (
  operation_id text COLLATE "C" NOT NULL,
  kind text COLLATE "C" NOT NULL,
  client_id text COLLATE "C",
  correlation_id text COLLATE "C",
  trx_id text COLLATE "C",
  fingerprint text COLLATE "C" NOT NULL,
  order_id text COLLATE "C",
  owner_client_id text COLLATE "C",
  owner_agency_id text COLLATE "C",
  phase text COLLATE "C" NOT NULL,
  status text COLLATE "C" NOT NULL,
  plan text COLLATE "C",
  error_code text COLLATE "C",
  lock_owner text COLLATE "C",
  locked_at bigint,
  response_status bigint,
  response_body text COLLATE "C",
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  completed_at bigint,
  PRIMARY KEY (operation_id),
  CHECK (status IN ('running', 'done', 'compensated', 'answered'))
);

CREATE TABLE operations_feed (
  flight_key text COLLATE "C" NOT NULL,
  kind text COLLATE "C" NOT NULL,
  minutes bigint,
  announced_at bigint NOT NULL,
  applied_at bigint NOT NULL,
  orders bigint NOT NULL,
  PRIMARY KEY (flight_key)
);

CREATE TABLE order_pax_index (
  order_id text COLLATE "C" NOT NULL,
  surname_digest text COLLATE "C" NOT NULL,
  PRIMARY KEY (order_id, surname_digest)
);

CREATE TABLE order_views (
  order_id text COLLATE "C" NOT NULL,
  owner_agency_id text COLLATE "C" NOT NULL,
  response text COLLATE "C" NOT NULL,
  meta text COLLATE "C" NOT NULL,
  valid_from bigint NOT NULL,
  valid_until bigint,
  view_key text COLLATE "C" NOT NULL DEFAULT '',
  PRIMARY KEY (order_id)
);

CREATE TABLE orders (
  order_id text COLLATE "C" NOT NULL,
  owner_client_id text COLLATE "C" NOT NULL,
  owner_agency_id text COLLATE "C" NOT NULL,
  state text COLLATE "C" NOT NULL,
  version bigint NOT NULL,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  payment_time_limit bigint,
  currency text COLLATE "C" NOT NULL,
  total_minor bigint NOT NULL,
  pax_count bigint NOT NULL,
  travel_from text COLLATE "C",
  travel_to text COLLATE "C",
  flight_keys text COLLATE "C",
  unflown_from text COLLATE "C",
  travel_end_at bigint,
  partner_awaiting bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (order_id),
  CHECK (state IN ('held_unpaid', 'held_payment_declined', 'booked', 'cancelled', 'closed')),
  CHECK (version >= 1),
  CHECK (total_minor >= 0),
  CHECK (pax_count >= 1)
);

CREATE TABLE partner_stock_units (
  product_code text COLLATE "C" NOT NULL,
  hold_id text COLLATE "C" NOT NULL,
  order_id text COLLATE "C" NOT NULL,
  unit bigint NOT NULL,
  stock_total bigint NOT NULL,
  status text COLLATE "C" NOT NULL,
  channel text COLLATE "C" NOT NULL,
  expires_at bigint NOT NULL,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  PRIMARY KEY (product_code, hold_id),
  CHECK (status IN ('held', 'sold', 'released', 'expired')),
  CHECK (unit >= 0 AND unit < stock_total)
);

CREATE TABLE payment_card_authentications (
  leg_id text COLLATE "C" NOT NULL,
  eci text COLLATE "C" NOT NULL,
  authentication_value text COLLATE "C",
  protocol_version text COLLATE "C",
  ds_trx_id text COLLATE "C",
  trx_status text COLLATE "C",
  created_at bigint NOT NULL,
  PRIMARY KEY (leg_id)
);

CREATE TABLE payment_clearances (
  clearance_id text COLLATE "C" NOT NULL,
  leg_id text COLLATE "C" NOT NULL,
  order_id text COLLATE "C" NOT NULL,
  agency_id text COLLATE "C" NOT NULL,
  status text COLLATE "C" NOT NULL,
  amount bigint NOT NULL,
  currency text COLLATE "C" NOT NULL,
  settlement_method text COLLATE "C" NOT NULL,
  committed_at bigint NOT NULL,
  remittance_date text COLLATE "C" NOT NULL,
  settlement_date text COLLATE "C" NOT NULL,
  requested_at bigint NOT NULL,
  cleared_by text COLLATE "C",
  cleared_at bigint,
  cancelled_at bigint,
  direction text COLLATE "C" NOT NULL DEFAULT 'sale',
  reverses text COLLATE "C",
  PRIMARY KEY (clearance_id),
  CHECK (status IN ('requested', 'cleared', 'cancelled')),
  CHECK (amount > 0),
  CHECK (direction IN ('sale', 'refund'))
);

CREATE TABLE payment_idempotency (
  idempotency_key text COLLATE "C" NOT NULL,
  operation text COLLATE "C" NOT NULL,
  fingerprint text COLLATE "C" NOT NULL,
  state text COLLATE "C" NOT NULL,
  response text COLLATE "C",
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  PRIMARY KEY (idempotency_key)
);

CREATE TABLE payment_ledger_entries (
  seq bigint NOT NULL,
  order_id text COLLATE "C" NOT NULL,
  leg_id text COLLATE "C" NOT NULL,
  type text COLLATE "C" NOT NULL,
  amount bigint NOT NULL,
  currency text COLLATE "C" NOT NULL,
  points bigint NOT NULL DEFAULT 0,
  idempotency_key text COLLATE "C" NOT NULL,
  at bigint NOT NULL,
  prev_hash text COLLATE "C" NOT NULL,
  hash text COLLATE "C" NOT NULL,
  PRIMARY KEY (seq),
  UNIQUE (hash)
);

CREATE TABLE payment_legs (
  leg_id text COLLATE "C" NOT NULL,
  order_id text COLLATE "C" NOT NULL,
  change_ref text COLLATE "C" NOT NULL,
  seq bigint NOT NULL,
  kind text COLLATE "C" NOT NULL,
  state text COLLATE "C" NOT NULL,
  currency text COLLATE "C" NOT NULL,
  authorised bigint NOT NULL DEFAULT 0,
  captured bigint NOT NULL DEFAULT 0,
  refunded bigint NOT NULL DEFAULT 0,
  requested bigint NOT NULL,
  authorise_key text COLLATE "C" NOT NULL,
  card_brand text COLLATE "C",
  card_last4 text COLLATE "C",
  psp_reference text COLLATE "C",
  voucher_code text COLLATE "C",
  settlement_account_id text COLLATE "C",
  settlement_method text COLLATE "C",
  member_account text COLLATE "C",
  certificate_id text COLLATE "C",
  points bigint,
  points_captured bigint NOT NULL DEFAULT 0,
  points_refunded bigint NOT NULL DEFAULT 0,
  decline_code text COLLATE "C",
  created_at bigint NOT NULL,
  ended_at bigint,
  decline_reason text COLLATE "C",
  PRIMARY KEY (leg_id),
  UNIQUE (authorise_key),
  UNIQUE (order_id, seq),
  CHECK (kind IN ('card', 'voucher', 'settlement', 'loyalty')),
  CHECK (authorised >= 0),
  CHECK (captured >= 0 AND captured <= authorised),
  CHECK (refunded >= 0 AND refunded <= captured)
);

CREATE TABLE promotion_criteria (
  id bigint NOT NULL,
  switched_on bigint NOT NULL,
  changed_at bigint NOT NULL,
  changed_by text COLLATE "C" NOT NULL,
  PRIMARY KEY (id),
  CHECK (id = 1),
  CHECK (switched_on IN (0, 1))
);

CREATE TABLE psp_sim_payments (
  psp_reference text COLLATE "C" NOT NULL,
  state text COLLATE "C" NOT NULL,
  currency text COLLATE "C" NOT NULL,
  authorised bigint NOT NULL,
  captured bigint NOT NULL DEFAULT 0,
  refunded bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (psp_reference)
);

CREATE TABLE psp_sim_requests (
  idempotency_key text COLLATE "C" NOT NULL,
  operation text COLLATE "C" NOT NULL,
  response text COLLATE "C" NOT NULL,
  PRIMARY KEY (idempotency_key)
);

CREATE TABLE reconcile_failures (
  operation_id text COLLATE "C" NOT NULL,
  kind text COLLATE "C" NOT NULL,
  order_id text COLLATE "C",
  phase text COLLATE "C" NOT NULL,
  attempts bigint NOT NULL,
  last_error text COLLATE "C" NOT NULL,
  first_failed_at bigint NOT NULL,
  last_failed_at bigint NOT NULL,
  raised_at bigint,
  resolution text COLLATE "C",
  resolved_by text COLLATE "C",
  resolved_at bigint,
  note text COLLATE "C",
  PRIMARY KEY (operation_id),
  CHECK (resolution IN ('retry', 'closed', 'captured', 'voided'))
);

CREATE TABLE registry_version (
  id bigint NOT NULL,
  version bigint NOT NULL,
  PRIMARY KEY (id),
  CHECK (id = 1)
);

CREATE TABLE sandbox_clocks (
  client_id text COLLATE "C" NOT NULL,
  offset_ms bigint NOT NULL,
  updated_at bigint NOT NULL,
  PRIMARY KEY (client_id)
);

CREATE TABLE scheduler_jobs (
  job text COLLATE "C" NOT NULL,
  holder text COLLATE "C",
  lease_until bigint NOT NULL DEFAULT 0,
  last_started_at bigint,
  last_finished_at bigint,
  last_outcome text COLLATE "C",
  last_summary text COLLATE "C",
  next_run_at bigint,
  updated_at bigint NOT NULL,
  PRIMARY KEY (job)
);

CREATE TABLE seat_inventory (
  flight_key text COLLATE "C" NOT NULL,
  seat_id text COLLATE "C" NOT NULL,
  hold_id text COLLATE "C" NOT NULL,
  status text COLLATE "C" NOT NULL,
  holder text COLLATE "C" NOT NULL,
  channel text COLLATE "C" NOT NULL,
  expires_at bigint NOT NULL,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  PRIMARY KEY (flight_key, hold_id, seat_id),
  CHECK (status IN ('held', 'sold', 'released', 'expired'))
);

CREATE TABLE servicing_overrides (
  seq bigint NOT NULL,
  at bigint NOT NULL,
  staff_id text COLLATE "C" NOT NULL,
  channel text COLLATE "C" NOT NULL,
  order_id text COLLATE "C" NOT NULL,
  operation_id text COLLATE "C" NOT NULL,
  rule_code text COLLATE "C" NOT NULL,
  rule_text text COLLATE "C" NOT NULL,
  prev_hash text COLLATE "C" NOT NULL,
  hash text COLLATE "C" NOT NULL,
  PRIMARY KEY (seq),
  UNIQUE (hash)
);

CREATE TABLE settlement_accounts (
  account_id text COLLATE "C" NOT NULL,
  agency_id text COLLATE "C" NOT NULL,
  method text COLLATE "C" NOT NULL,
  currency text COLLATE "C" NOT NULL,
  credit_limit bigint NOT NULL,
  used bigint NOT NULL DEFAULT 0,
  pending bigint NOT NULL DEFAULT 0,
  active bigint NOT NULL DEFAULT 1,
  PRIMARY KEY (account_id),
  CHECK (method IN ('CA', 'DP', 'MS')),
  CHECK (credit_limit >= 0),
  CHECK (used >= 0),
  CHECK (pending >= 0),
  CHECK (used + pending <= credit_limit)
);

CREATE TABLE signature_evidence (
  seq bigint NOT NULL,
  order_id text COLLATE "C" NOT NULL,
  message text COLLATE "C" NOT NULL,
  form text COLLATE "C" NOT NULL,
  agency_id text COLLATE "C" NOT NULL,
  client_id text COLLATE "C" NOT NULL,
  fingerprint text COLLATE "C" NOT NULL,
  signature_method text COLLATE "C" NOT NULL,
  canonicalization text COLLATE "C" NOT NULL,
  reference_uri text COLLATE "C" NOT NULL,
  original_sha256 text COLLATE "C" NOT NULL,
  verified_at bigint NOT NULL,
  prev_hash text COLLATE "C" NOT NULL,
  hash text COLLATE "C" NOT NULL,
  PRIMARY KEY (seq),
  UNIQUE (hash)
);

CREATE TABLE signed_originals (
  evidence_seq bigint NOT NULL,
  order_id text COLLATE "C" NOT NULL,
  ciphertext bytea,
  nonce bytea,
  key_version bigint,
  erased_at bigint,
  PRIMARY KEY (evidence_seq)
);

CREATE TABLE staff_accounts (
  staff_id text COLLATE "C" NOT NULL,
  username text COLLATE "C" NOT NULL,
  role text COLLATE "C" NOT NULL,
  password_hash text COLLATE "C" NOT NULL,
  totp_ciphertext text COLLATE "C" NOT NULL,
  totp_nonce text COLLATE "C" NOT NULL,
  totp_key_version bigint NOT NULL,
  totp_last_step bigint NOT NULL DEFAULT 0,
  failed_logins bigint NOT NULL DEFAULT 0,
  locked_until bigint,
  disabled_at bigint,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  PRIMARY KEY (staff_id),
  UNIQUE (username),
  CHECK (role IN ('agent', 'senior_agent', 'supervisor', 'admin'))
);

CREATE TABLE staff_audit (
  seq bigint NOT NULL,
  at bigint NOT NULL,
  staff_id text COLLATE "C" NOT NULL,
  username text COLLATE "C" NOT NULL,
  role text COLLATE "C" NOT NULL,
  remote text COLLATE "C" NOT NULL,
  action text COLLATE "C" NOT NULL,
  outcome text COLLATE "C" NOT NULL,
  order_id text COLLATE "C",
  document_ref text COLLATE "C",
  reason_category text COLLATE "C",
  reason text COLLATE "C",
  detail text COLLATE "C",
  prev_hash text COLLATE "C" NOT NULL,
  hash text COLLATE "C" NOT NULL,
  PRIMARY KEY (seq),
  UNIQUE (hash)
);

CREATE TABLE staff_queue_claims (
  queue text COLLATE "C" NOT NULL,
  item_id text COLLATE "C" NOT NULL,
  staff_id text COLLATE "C" NOT NULL,
  username text COLLATE "C" NOT NULL,
  taken_at bigint NOT NULL,
  PRIMARY KEY (queue, item_id)
);

CREATE TABLE staff_sessions (
  session_hash text COLLATE "C" NOT NULL,
  staff_id text COLLATE "C" NOT NULL,
  csrf_hash text COLLATE "C" NOT NULL,
  created_at bigint NOT NULL,
  last_seen_at bigint NOT NULL,
  ended_at bigint,
  remote text COLLATE "C" NOT NULL,
  PRIMARY KEY (session_hash)
);

CREATE TABLE token_signing_keys (
  key_id text COLLATE "C" NOT NULL,
  secret text COLLATE "C" NOT NULL,
  created_at bigint NOT NULL,
  PRIMARY KEY (key_id)
);

CREATE TABLE vouchers (
  code text COLLATE "C" NOT NULL,
  currency text COLLATE "C" NOT NULL,
  balance bigint NOT NULL,
  pending bigint NOT NULL DEFAULT 0,
  active bigint NOT NULL DEFAULT 1,
  expires_at bigint NOT NULL,
  PRIMARY KEY (code),
  CHECK (balance >= 0),
  CHECK (pending >= 0 AND pending <= balance)
);

CREATE TABLE web_shop_accounts (
  account_id text COLLATE "C" NOT NULL,
  email text COLLATE "C",
  name text COLLATE "C",
  created_at bigint NOT NULL,
  deleted_at bigint,
  PRIMARY KEY (account_id),
  CHECK ((deleted_at IS NULL AND email IS NOT NULL AND name IS NOT NULL) OR (deleted_at IS NOT NULL AND email IS NULL AND name IS NULL))
);

CREATE INDEX api_keys_client ON api_keys (client_id);
CREATE INDEX clients_agency ON clients (agency_id);
CREATE INDEX failure_budgets_updated_at ON failure_budgets (updated_at);
CREATE INDEX identity_document_erasures_order ON identity_document_erasures (order_id);
CREATE INDEX identity_documents_order ON identity_documents (order_id);
CREATE INDEX notification_deliveries_due ON notification_deliveries (status, next_attempt_at);
CREATE INDEX notification_deliveries_order ON notification_deliveries (order_id, created_at);
CREATE INDEX notification_deliveries_subscription ON notification_deliveries (subscription_id, created_at);
CREATE INDEX notification_subscriptions_agency ON notification_subscriptions (agency_id);
CREATE INDEX offers_expiry ON offers (expires_at);
CREATE INDEX operations_open ON operations (updated_at) WHERE status = 'running';
CREATE INDEX operations_order ON operations (order_id);
CREATE UNIQUE INDEX operations_request ON operations (client_id, correlation_id, trx_id, kind) WHERE client_id IS NOT NULL;
CREATE INDEX order_pax_index_digest ON order_pax_index (surname_digest);
CREATE INDEX orders_booked_travel ON orders (order_id, travel_to) WHERE state = 'booked';
CREATE INDEX orders_created ON orders (created_at);
CREATE INDEX orders_owner_created ON orders (owner_agency_id, created_at, order_id);
CREATE INDEX orders_partner_awaiting ON orders (travel_from) WHERE state = 'booked' AND partner_awaiting > 0;
CREATE INDEX orders_payment_due ON orders (payment_time_limit) WHERE state IN ('held_unpaid', 'held_payment_declined');
CREATE INDEX orders_travel_end ON orders (travel_end_at);
CREATE INDEX orders_unflown ON orders (unflown_from) WHERE state = 'booked' AND unflown_from IS NOT NULL;
CREATE UNIQUE INDEX partner_stock_units_live_order ON partner_stock_units (product_code, order_id) WHERE status IN ('held', 'sold');
CREATE UNIQUE INDEX partner_stock_units_live_unit ON partner_stock_units (product_code, unit) WHERE status IN ('held', 'sold');
CREATE INDEX payment_clearances_due ON payment_clearances (status, requested_at);
CREATE UNIQUE INDEX payment_clearances_live_leg ON payment_clearances (leg_id) WHERE status <> 'cancelled' AND direction = 'sale';
CREATE INDEX payment_clearances_order ON payment_clearances (order_id);
CREATE INDEX payment_ledger_entries_leg ON payment_ledger_entries (leg_id);
CREATE INDEX payment_legs_order ON payment_legs (order_id, seq);
CREATE INDEX payment_legs_state ON payment_legs (state);
CREATE INDEX reconcile_failures_open ON reconcile_failures (raised_at) WHERE raised_at IS NOT NULL AND resolved_at IS NULL;
CREATE INDEX seat_inventory_expiry ON seat_inventory (expires_at) WHERE status = 'held';
CREATE UNIQUE INDEX seat_inventory_live ON seat_inventory (flight_key, seat_id) WHERE status IN ('held', 'sold');
CREATE UNIQUE INDEX servicing_overrides_operation ON servicing_overrides (operation_id);
CREATE INDEX settlement_accounts_agency ON settlement_accounts (agency_id);
CREATE INDEX signature_evidence_order ON signature_evidence (order_id);
CREATE INDEX signed_originals_order ON signed_originals (order_id);
CREATE INDEX staff_audit_action ON staff_audit (action);
CREATE INDEX staff_audit_order ON staff_audit (order_id);
CREATE INDEX staff_sessions_staff ON staff_sessions (staff_id);
CREATE UNIQUE INDEX web_shop_accounts_email ON web_shop_accounts (email) WHERE deleted_at IS NULL;

ALTER TABLE agency_signing_keys ADD FOREIGN KEY (agency_id) REFERENCES agencies (agency_id);
ALTER TABLE aggregator_grants ADD FOREIGN KEY (agency_id) REFERENCES agencies (agency_id);
ALTER TABLE aggregator_grants ADD FOREIGN KEY (client_id) REFERENCES clients (client_id);
ALTER TABLE api_keys ADD FOREIGN KEY (client_id) REFERENCES clients (client_id);
ALTER TABLE clients ADD FOREIGN KEY (agency_id) REFERENCES agencies (agency_id);
ALTER TABLE loyalty_certificates ADD FOREIGN KEY (member_account) REFERENCES loyalty_accounts (member_account);
ALTER TABLE staff_sessions ADD FOREIGN KEY (staff_id) REFERENCES staff_accounts (staff_id);

INSERT INTO registry_version (id, version) VALUES (1, 1);
-- ==== hand-written below this line (scripts/pg-baseline.ts keeps it): triggers in plpgsql ====
--
-- SQLite's 36 triggers, under the same names, on the same tables, for the same events and
-- timing, each a row trigger calling one plpgsql function per kind of rule; plus what SQLite
-- does without a trigger (a rowid alias filled in on insert) and what SQLite cannot do (TRUNCATE).
-- test/store/pg-catalogue.test.ts compares them with SQLite's by name, table, event and timing;
-- test/store/pg-triggers.test.ts proves what they do.

-- Append-only tables (SQLite: BEFORE UPDATE / BEFORE DELETE ... RAISE(ABORT, '<table> is
-- append-only')). Same message; SQLSTATE 23000 (integrity_constraint_violation, the class of
-- constraint failures), which the store maps as it maps SQLite's SQLITE_CONSTRAINT_TRIGGER.
-- TRUNCATE skips row triggers, so each table also refuses it, statement-level.
CREATE FUNCTION refuse_append_only_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only', TG_TABLE_NAME USING ERRCODE = '23000';
END;
$$;
CREATE TRIGGER identity_document_erasures_no_update BEFORE UPDATE ON identity_document_erasures FOR EACH ROW EXECUTE FUNCTION refuse_append_only_change();
CREATE TRIGGER identity_document_erasures_no_delete BEFORE DELETE ON identity_document_erasures FOR EACH ROW EXECUTE FUNCTION refuse_append_only_change();
CREATE TRIGGER identity_document_erasures_no_truncate BEFORE TRUNCATE ON identity_document_erasures FOR EACH STATEMENT EXECUTE FUNCTION refuse_append_only_change();
CREATE TRIGGER payment_ledger_entries_no_update BEFORE UPDATE ON payment_ledger_entries FOR EACH ROW EXECUTE FUNCTION refuse_append_only_change();
CREATE TRIGGER payment_ledger_entries_no_delete BEFORE DELETE ON payment_ledger_entries FOR EACH ROW EXECUTE FUNCTION refuse_append_only_change();
CREATE TRIGGER payment_ledger_entries_no_truncate BEFORE TRUNCATE ON payment_ledger_entries FOR EACH STATEMENT EXECUTE FUNCTION refuse_append_only_change();
CREATE TRIGGER servicing_overrides_no_update BEFORE UPDATE ON servicing_overrides FOR EACH ROW EXECUTE FUNCTION refuse_append_only_change();
CREATE TRIGGER servicing_overrides_no_delete BEFORE DELETE ON servicing_overrides FOR EACH ROW EXECUTE FUNCTION refuse_append_only_change();
CREATE TRIGGER servicing_overrides_no_truncate BEFORE TRUNCATE ON servicing_overrides FOR EACH STATEMENT EXECUTE FUNCTION refuse_append_only_change();
CREATE TRIGGER signature_evidence_no_update BEFORE UPDATE ON signature_evidence FOR EACH ROW EXECUTE FUNCTION refuse_append_only_change();
CREATE TRIGGER signature_evidence_no_delete BEFORE DELETE ON signature_evidence FOR EACH ROW EXECUTE FUNCTION refuse_append_only_change();
CREATE TRIGGER signature_evidence_no_truncate BEFORE TRUNCATE ON signature_evidence FOR EACH STATEMENT EXECUTE FUNCTION refuse_append_only_change();
CREATE TRIGGER staff_audit_no_update BEFORE UPDATE ON staff_audit FOR EACH ROW EXECUTE FUNCTION refuse_append_only_change();
CREATE TRIGGER staff_audit_no_delete BEFORE DELETE ON staff_audit FOR EACH ROW EXECUTE FUNCTION refuse_append_only_change();
CREATE TRIGGER staff_audit_no_truncate BEFORE TRUNCATE ON staff_audit FOR EACH STATEMENT EXECUTE FUNCTION refuse_append_only_change();

-- The seller registry's change counter (SQLite 0013, 0046, 0066): any row written to a registry
-- table moves registry_version in the same transaction, row by row as on SQLite.
CREATE FUNCTION registry_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE registry_version SET version = version + 1 WHERE id = 1;
  RETURN NULL;
END;
$$;
CREATE TRIGGER registry_version_agencies_insert AFTER INSERT ON agencies FOR EACH ROW EXECUTE FUNCTION registry_version_bump();
CREATE TRIGGER registry_version_agencies_update AFTER UPDATE ON agencies FOR EACH ROW EXECUTE FUNCTION registry_version_bump();
CREATE TRIGGER registry_version_agencies_delete AFTER DELETE ON agencies FOR EACH ROW EXECUTE FUNCTION registry_version_bump();
CREATE TRIGGER registry_version_clients_insert AFTER INSERT ON clients FOR EACH ROW EXECUTE FUNCTION registry_version_bump();
CREATE TRIGGER registry_version_clients_update AFTER UPDATE ON clients FOR EACH ROW EXECUTE FUNCTION registry_version_bump();
CREATE TRIGGER registry_version_clients_delete AFTER DELETE ON clients FOR EACH ROW EXECUTE FUNCTION registry_version_bump();
CREATE TRIGGER registry_version_aggregator_grants_insert AFTER INSERT ON aggregator_grants FOR EACH ROW EXECUTE FUNCTION registry_version_bump();
CREATE TRIGGER registry_version_aggregator_grants_update AFTER UPDATE ON aggregator_grants FOR EACH ROW EXECUTE FUNCTION registry_version_bump();
CREATE TRIGGER registry_version_aggregator_grants_delete AFTER DELETE ON aggregator_grants FOR EACH ROW EXECUTE FUNCTION registry_version_bump();
CREATE TRIGGER registry_version_api_keys_insert AFTER INSERT ON api_keys FOR EACH ROW EXECUTE FUNCTION registry_version_bump();
CREATE TRIGGER registry_version_api_keys_update AFTER UPDATE ON api_keys FOR EACH ROW EXECUTE FUNCTION registry_version_bump();
CREATE TRIGGER registry_version_api_keys_delete AFTER DELETE ON api_keys FOR EACH ROW EXECUTE FUNCTION registry_version_bump();
CREATE TRIGGER registry_version_signing_keys_insert AFTER INSERT ON agency_signing_keys FOR EACH ROW EXECUTE FUNCTION registry_version_bump();
CREATE TRIGGER registry_version_signing_keys_update AFTER UPDATE ON agency_signing_keys FOR EACH ROW EXECUTE FUNCTION registry_version_bump();
CREATE TRIGGER registry_version_signing_keys_delete AFTER DELETE ON agency_signing_keys FOR EACH ROW EXECUTE FUNCTION registry_version_bump();
CREATE TRIGGER registry_version_token_signing_keys_insert AFTER INSERT ON token_signing_keys FOR EACH ROW EXECUTE FUNCTION registry_version_bump();
CREATE TRIGGER registry_version_token_signing_keys_update AFTER UPDATE ON token_signing_keys FOR EACH ROW EXECUTE FUNCTION registry_version_bump();
CREATE TRIGGER registry_version_token_signing_keys_delete AFTER DELETE ON token_signing_keys FOR EACH ROW EXECUTE FUNCTION registry_version_bump();

-- Order views go stale with what they render (SQLite 0021): a write to an order, a payment leg
-- or an identity document deletes the order's cached view. An UPDATE drops the views of the old
-- and the new order id (SQLite's orders trigger names only the old one: an order's id, its
-- primary key, never changes, so the two are the same).
CREATE FUNCTION order_views_stale() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    DELETE FROM order_views WHERE order_id = NEW.order_id;
  ELSIF TG_OP = 'DELETE' THEN
    DELETE FROM order_views WHERE order_id = OLD.order_id;
  ELSE
    DELETE FROM order_views WHERE order_id IN (OLD.order_id, NEW.order_id);
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER order_views_stale_order_update AFTER UPDATE ON orders FOR EACH ROW EXECUTE FUNCTION order_views_stale();
CREATE TRIGGER order_views_stale_order_delete AFTER DELETE ON orders FOR EACH ROW EXECUTE FUNCTION order_views_stale();
CREATE TRIGGER order_views_stale_leg_insert AFTER INSERT ON payment_legs FOR EACH ROW EXECUTE FUNCTION order_views_stale();
CREATE TRIGGER order_views_stale_leg_update AFTER UPDATE ON payment_legs FOR EACH ROW EXECUTE FUNCTION order_views_stale();
CREATE TRIGGER order_views_stale_leg_delete AFTER DELETE ON payment_legs FOR EACH ROW EXECUTE FUNCTION order_views_stale();
CREATE TRIGGER order_views_stale_document_insert AFTER INSERT ON identity_documents FOR EACH ROW EXECUTE FUNCTION order_views_stale();
CREATE TRIGGER order_views_stale_document_update AFTER UPDATE ON identity_documents FOR EACH ROW EXECUTE FUNCTION order_views_stale();
CREATE TRIGGER order_views_stale_document_delete AFTER DELETE ON identity_documents FOR EACH ROW EXECUTE FUNCTION order_views_stale();

-- SQLite's INTEGER PRIMARY KEY is the rowid: a NULL (drizzle's sqlite-core builder sends NULL
-- for an omitted column, so the audit trails' seq arrives NULL) takes max + 1. A bigint primary
-- key does not, so each rowid-alias column gets this BEFORE INSERT trigger, fired only for a NULL
-- (its WHEN), its column named by the trigger's argument. max + 1 is race-free because every
-- write on PostgreSQL holds the store's one write lock (decision 0041); the four AUTOINCREMENT
-- tables are append-only, so their "never reuse a number" is max + 1 too.
CREATE FUNCTION sqlite_rowid() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  next_id bigint;
BEGIN
  EXECUTE format('SELECT coalesce(max(%I), 0) + 1 FROM %I.%I', TG_ARGV[0], TG_TABLE_SCHEMA, TG_TABLE_NAME) INTO next_id;
  RETURN jsonb_populate_record(NEW, jsonb_build_object(TG_ARGV[0], next_id));
END;
$$;
CREATE TRIGGER identity_document_erasures_rowid BEFORE INSERT ON identity_document_erasures FOR EACH ROW WHEN (NEW.seq IS NULL) EXECUTE FUNCTION sqlite_rowid('seq');
CREATE TRIGGER payment_ledger_entries_rowid BEFORE INSERT ON payment_ledger_entries FOR EACH ROW WHEN (NEW.seq IS NULL) EXECUTE FUNCTION sqlite_rowid('seq');
CREATE TRIGGER promotion_criteria_rowid BEFORE INSERT ON promotion_criteria FOR EACH ROW WHEN (NEW.id IS NULL) EXECUTE FUNCTION sqlite_rowid('id');
CREATE TRIGGER registry_version_rowid BEFORE INSERT ON registry_version FOR EACH ROW WHEN (NEW.id IS NULL) EXECUTE FUNCTION sqlite_rowid('id');
CREATE TRIGGER servicing_overrides_rowid BEFORE INSERT ON servicing_overrides FOR EACH ROW WHEN (NEW.seq IS NULL) EXECUTE FUNCTION sqlite_rowid('seq');
CREATE TRIGGER signature_evidence_rowid BEFORE INSERT ON signature_evidence FOR EACH ROW WHEN (NEW.seq IS NULL) EXECUTE FUNCTION sqlite_rowid('seq');
CREATE TRIGGER signed_originals_rowid BEFORE INSERT ON signed_originals FOR EACH ROW WHEN (NEW.evidence_seq IS NULL) EXECUTE FUNCTION sqlite_rowid('evidence_seq');
CREATE TRIGGER staff_audit_rowid BEFORE INSERT ON staff_audit FOR EACH ROW WHEN (NEW.seq IS NULL) EXECUTE FUNCTION sqlite_rowid('seq');
