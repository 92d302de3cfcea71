// Writes docs/errors.md from the error catalogue (packages/errors/src/catalogue.ts).
// test/docs/errors-doc.test.ts fails when the committed file differs from what this prints.
import { CATALOGUE } from "@ndc/errors";

const WHEN: Record<string, string> = {
  message_unknown: "The path names no message of the catalogue. Answered with IATA_Acknowledgement.",
  method_not_allowed: "Anything but POST on an NDC message path. Header Allow: POST. On `/staff/api`, a method the path does not serve, before the session is read (Allow: the methods it has; docs/staff-api.md \"Order of checks\").",
  message_name_mismatch: "IATA-Message-Name is missing or is not IATA_<MessageName> of the path.",
  unsupported_media_type: "Content-Type is not application/xml.",
  content_encoding_unsupported: "A Content-Encoding other than gzip, or gzip while REQUEST_GZIP is off.",
  content_encoding_invalid: "The body is not valid gzip.",
  payload_too_large: "Body over MAX_BODY_BYTES, or a gzip layer inflating past MAX_INFLATED_BYTES.",
  xml_forbidden_construct: "A DOCTYPE, ENTITY, ELEMENT, ATTLIST or NOTATION declaration, refused before parsing.",
  xml_malformed: "Not well-formed XML, an undeclared prefix, or invalid UTF-8.",
  xml_limit_exceeded: "Nesting deeper than MAX_XML_DEPTH or more elements than MAX_XML_ELEMENTS.",
  root_element_invalid: "The root element is not IATA_<MessageName> of the path.",
  namespace_invalid: "The root element is not in the message's namespace.",
  request_invalid: "Request missing, a required element missing, or a text outside its 24.4 type's limits (length, format, repeats; docs/messages/request-limits.md), the envelope's CorrelationID and TrxID included. On OrderCreateRQ also more than 9 seated passengers or more lap infants than adults. On OfferPriceRQ and OrderCreateRQ, an offer item named twice, or for a passenger it was not issued for; on OrderCreateRQ, a flight offer whose items taken leave one of its passengers without a fare. TagText names the element; the value is never echoed.",
  client_abort: "Log only, never answered: the client aborted, or its connection was cut (idle timeout), before the answer. The request log line has status 499 (as nginx's \"client closed request\").",
  message_not_available: "The message is routed and authorised, but its business processing has not been released.",
  invalid_request: "Token request: wrong content type, missing grant_type, repeated or conflicting parameters.",
  invalid_client: "Token request: unknown client, wrong secret, suspended client or inactive agency. WWW-Authenticate when Basic was used.",
  unauthorized_client: "Token request: the client may not use this grant.",
  unsupported_grant_type: "Token request: grant_type other than client_credentials.",
  invalid_scope: "Token request: a scope outside those granted, or unknown.",
  invalid_token: "NDC call without credentials, or with a malformed, expired or revoked token (also after suspension or secret rotation). WWW-Authenticate: Bearer.",
  insufficient_scope: "The token lacks the message's scope. Checked before the body is read.",
  distribution_chain_invalid: "No DistributionChain, no Carrier link naming this airline, or a malformed link.",
  seller_not_authorised: "The Seller link names an agency that is not the caller's own nor granted to its aggregator client.",
  rate_limited: "The credential's per-minute budget is spent. Header Retry-After.",
  order_not_found: "The order does not exist or belongs to another seller (answered identically).",
  identity_document_type_unknown: "IdentityDocTypeCode outside PADIS 7365, or 711 / 9PT.",
  identity_document_country_invalid: "A country of the document is not ISO 3166-1 alpha-2.",
  identity_document_invalid: "A malformed date, a gender outside F/M/U/X, a missing number or holder surname, or a length over the limits of spec 2.4.",
  identity_document_not_updatable: "A document sent on OrderChangeRQ or OrderReshopRQ.",
  identity_document_not_shown: "Warning: a stored document of a type the airline cannot name is omitted from OrderViewRS.",
  fare_not_changeable: "A machine channel asks to change a fare that does not allow change.",
  fare_not_renameable: "OrderChangeRQ UpdatePax on an order whose outbound fare is not renameable (every sandbox brand but FLEX; docs/servicing.md#passenger-updates). Nothing is written.",
  flexibility_not_held: "OrderChangeRQ with OrderChangeParameters/ReasonCode FLEXIBILITY on a change the fare refuses, the order holding no Flexibility (docs/servicing.md#flexibility).",
  flexibility_already_used: "The same, its Flexibility spent by an earlier change (spent once, also under a race).",
  fare_not_cancellable: "OrderReshopRQ CancelOrderRef or DeleteOrderItem, or OrderChangeRQ AcceptCancelledOffer, on an order whose outbound fare is not cancellable, from a seller (the airline's staff are not refused: docs/servicing.md).",
  cancel_quote_invalid: "AcceptCancelledOffer/OfferID is not a quote id signed by this gateway for this order (forged, altered, or another order's).",
  cancel_quote_expired: "AcceptCancelledOffer after the quote's OfferExpirationTimeLimitDateTime.",
  cancel_quote_stale: "The order's version moved on since the quote (another change, or an item of an items quote gone).",
  cancel_items_not_supported: "OrderReshopRQ ServiceOrder/DeleteOrderItem alone naming a flight or bundle item (extras, seats and partner products are cancelled alone: docs/servicing.md#cancelling-items), or DeleteOrderItem outside ServiceOrder.",
  missing_offer_id: "OrderRulesRQ by fare basis alone.",
  content_language_fallback: "Warning: content is in English because the requested language is not translated.",
  fare_conditions_supplier: "Warning: the brand policy could not be read; the supplier's conditions are used.",
  fare_conditions_current_policy: "Warning on every answer that uses the conditions of an order booked before freezing that migration 0016 could not freeze (docs/servicing.md).",
  offer_not_found: "OfferPrice, OrderCreate, SeatAvailability or ServiceList names an offer never issued, or issued to another seller (answered identically).",
  offer_expired: "The offer's expiry (OFFER_TTL_MINUTES after issue) has passed.",
  offer_item_not_found: "An OfferItemID not in the named offer.",
  flight_not_found: "A flight or segment the schedule does not hold.",
  shopping_criteria_invalid: "An airport not served, an unknown cabin or passenger type, no adult or child, more than 9 seated passengers or more lap infants than adults (AirShoppingRQ, OfferPriceRQ; TagText names the first Pax over), offers that cannot be priced together. Not for a date beyond the sale horizon (docs/messages/AirShoppingRQ.md).",
  currency_not_supported: "A currency the airline's rate table does not hold.",
  services_not_listed: "Warning: a catalogue read failed or was late; DescText names what is missing and whether it was transient (fail open).",
  promotions_unavailable: "Warning: the airline has not switched its promotion criteria on (`ndc-gateway promotions`, docs/supply.md), or the promotions engine was unreachable, slow or refusing; no adjustments at all were applied.",
  promotion_not_applied: "Warning: a fixed-amount or capped rule was not applied because the offer is priced in another currency.",
  bundle_content_not_filtered: "Warning: IncludeInd false named bundled content that is not a classified bag.",
  seat_not_found: "A hold or sale names a seat id that is not on the flight's seat map.",
  seat_unavailable: "The seat is occupied, held or sold, by any channel (NDC or the airline's web shop).",
  seat_hold_not_found: "Confirm or release of a hold id the flight's seat inventory never issued.",
  seat_hold_expired: "Confirm after the hold's expiry: the seat is released, hold again. OrderCreateRQ: the payment time limit (the holds' expiry) passed before the order was committed; nothing is kept, book again.",
  partner_product_not_found: "A partner product code the airline does not sell.",
  partner_product_sold_out: "Every unit of the partner product's stock is held or sold.",
  partner_product_once_per_order: "The order already holds or bought this partner product.",
  partner_product_hold_not_found: "Confirm or release of a partner product hold id never issued.",
  partner_product_hold_expired: "Confirm after the partner product hold's expiry: the unit is released.",
  card_data_refused: "A full card number (13-19 digits, optionally grouped by spaces or dashes, passing Luhn, not starting with 0) in any text or attribute value of the request, whatever the element (a name, an e-mail, a remark, CorrelationID...), or a CardNumber, CardSecurityCode or SeriesCode element. Checked before the envelope is read; the value is neither echoed, logged nor stored. Only xmldsig X509SerialNumber is exempt (docs/messages/request-limits.md).",
  payment_legs_invalid: "More than four legs, legs in different currencies, an unknown leg kind, or an amount of zero or less.",
  payment_declined: "The PSP declined a card token (or it timed out); the other legs were voided, each with its own key.",
  psp_unavailable: "The PSP call timed out; the reconciler queries its status by idempotency key and captures or voids.",
  do_not_honour: "A card leg declined by the PSP (test token tok_decline): Warning of the held order, TagText PaymentFunctions.",
  insufficient_funds: "A card leg declined for funds (tok_decline_insufficient_funds): Warning of the held order.",
  expired_card: "A card leg declined as expired (tok_decline_expired_card): Warning of the held order.",
  lost_or_stolen_card: "A card leg declined as lost or stolen (tok_decline_lost_or_stolen_card): Warning of the held order.",
  card_not_supported: "A card leg declined as not supported (tok_decline_card_not_supported): Warning of the held order.",
  processing_error: "A card leg declined by a PSP-side error (tok_decline_processing_error): Warning of the held order.",
  unknown_token: "A card token the PSP does not hold: Warning of the held order.",
  authentication_required: "A card whose issuer requires 3-D Secure sent without SecurePaymentVersion2 results (test tokens tok_3ds_required_visa, tok_3ds_required_mastercard): Warning of the held order, TagText PaymentFunctions.",
  authentication_failed: "3-D Secure results showing no authentication (ECI 07 or 00, TrxStatusText N or R, no AuthenticationValue), on any card: Warning of the held order.",
  voucher_invalid: "Unknown, inactive or expired voucher code, or a voucher in another currency than the order.",
  voucher_insufficient: "Voucher balance minus pending authorisations is below the leg amount.",
  loyalty_programme_not_accepted: "A loyalty leg names a programme other than the airline's own.",
  loyalty_certificate_invalid: "Certificate unknown, issued by another member account, expired, reserved or redeemed (all answered alike).",
  loyalty_points_insufficient: "The points the amount needs at the redemption rate exceed the certificate or the member's free points.",
  settlement_account_unavailable: "No active settlement account of the seller for the method and currency asked.",
  settlement_headroom_exceeded: "Credit limit minus used minus pending is below the leg amount.",
  payment_leg_not_found: "A capture, void or refund names a leg id the ledger does not hold.",
  payment_leg_voided: "Capture of a leg that was voided (a late capture under a voided reference).",
  payment_already_captured: "A second capture of a leg with a different idempotency key.",
  payment_leg_state_invalid: "Void of a captured leg, refund of an uncaptured one, or any step on a leg whose PSP outcome is unknown.",
  refund_exceeds_captured: "The refund asked is above captured minus refunded on the order.",
  idempotency_key_reused: "A payment idempotency key sent again with a different request; PaymentClearanceRQ repeating a CorrelationID and TrxID that cleared another clearance or amount.",
  commission_rule_not_applicable: "A post-sale charge under a flat-amount agreement, or under a tiered agreement in another currency.",
  order_state_invalid: "An order change its state does not allow (spec 3), such as paying a booked or cancelled order.",
  change_not_supported: "OrderChangeRQ asking for CancelUnpaidOrder, AcceptChange or AcceptRepricedOrder; extras or a seat by AcceptOrderItemList (only AcceptSelectedQuotedOfferList is read post-sale); changing one seat of a hold shared with other passengers' seats; OrderReshopRQ UpdatePax or UpdatePaxName (names are corrected with OrderChangeRQ UpdatePax).",
  quote_already_used: "OrderChangeRQ accepting a firm quote (OrderQuoteRQ) that another request (other CorrelationID or TrxID) accepted already, whether or not that change was made.",
  not_sold_post_sale: "OrderChangeRQ on a booked order selecting a ride or a partner product (ORDRE2, spec 4.7): nothing is held or charged.",
  payment_time_limit_passed: "OrderChangeRQ pays a held order after its payment time limit.",
  partner_product_needs_email: "OrderCreateRQ with a partner product and no contact email on the order.",
  idempotency_conflict: "OrderCreateRQ repeats the seller's CorrelationID and TrxID with a different body.",
  request_in_progress: "OrderCreateRQ repeats a CorrelationID and TrxID whose first request is still being processed, or died with its process and its saga awaits the reconciler. Header Retry-After: 1; retry with backoff.",
  reconcile_failed: "Staff item: the reconciler could not finish a payment step.",
  order_flight_cancelled: "OrderChangeRQ pays a held order one of whose flights the airline cancelled (operations feed, sandbox control), before the PSP is asked or, cancelled meanwhile, at the commit (the attempt's legs voided). TagText PaymentFunctions. A paid order on such a flight is refundable in full instead (docs/servicing.md#a-flight-the-airline-cancelled).",
  subscription_not_found: "JSON endpoints under /notifications/subscriptions: also another seller's id, answered exactly like a missing one.",
  delivery_not_found: "Redeliver named a delivery this subscription does not have.",
  notification_event_unknown: "The detail lists every known event name.",
  subscription_url_refused: "Checked when subscribing and again before every delivery attempt, after resolving the host name.",
  subscription_limit_reached: "POST /notifications/subscriptions when the caller's agency already holds NOTIFY_SUBSCRIPTIONS_MAX (default 20) subscriptions. Nothing is created.",
  sandbox_clock_local_only: "POST /sandbox/clock in sandbox mode.",
  scheduler_job_unknown: "POST /sandbox/scheduler/run.",
  clearance_not_found: "PaymentClearanceRQ: also another agency's clearance, answered exactly like a missing one. TagText names ClearanceID.",
  clearance_already_cleared: "PaymentClearanceRQ for a clearance the Clearance Manager or an earlier request cleared.",
  clearance_cancelled: "PaymentClearanceRQ for a cancelled (STTCAN) clearance; a payment partly kept has a new ClearanceID, sent in its notification.",
  clearance_amount_mismatch: "PaymentClearanceRQ; TagText names NetClearanceAmount.",
  clearance_is_refund: "PaymentClearanceRQ naming a refund clearance (a payment refunded after its clearance cleared, docs/payments.md#clearance): the airline owes it, the Clearance Manager's sweep settles it. TagText names ClearanceID.",
  staff_login_failed: "POST /staff/api/session (and the login page): one answer for an unknown name, a disabled or locked account, a wrong password and a wrong or reused TOTP code. Five failures in a row lock the account for 15 minutes; failures per source address are limited like the token endpoint's (rate_limited).",
  staff_session_required: "A /staff/ call without a live session cookie: none, unknown, logged out, idle 30 minutes, 12 hours old, or its account disabled. A seller's bearer token or API key is never read there.",
  staff_csrf_invalid: "A state-changing /staff/ call (POST, DELETE) whose X-CSRF-Token header (form field csrf_token on the pages) is not the session's, or whose Origin (or Referer) names another host, the login included.",
  staff_forbidden: "The role may not: a reveal by an agent or admin, an erasure by anyone but a supervisor, the audit read by an agent or senior agent. Audited with outcome refused.",
  staff_reason_invalid: "A reveal, erasure, seller suspension or resumption without a reason of 10 to 500 characters (at least 10 of them visible: zero-width, format, control and space characters and lone combining marks do not count), a reveal without a category from the list, or a work item resolved without a note of 10 to 500 characters (docs/staff-api.md); element names the field.",
  identity_document_not_found: "The documentRef is not a document of the order in the path.",
  identity_document_erased: "A reveal of a document already erased (retention sweep or a supervisor's erasure).",
  staff_target_not_found: "Staff console: taking or resolving a reconcile_failed item that is not open (unknown, or already resolved), taking or redelivering a delivery that is not failed, taking or acting on a clearance that is not unclear (unknown, or still expected to clear), suspending or resuming an unknown seller client, or an unknown agency's agreements.",
  signature_invalid: "A signed OrderCreateRQ or OrderChangeRQ under policy optional or required whose Signature breaks a rule of docs/signatures.md (wrong place, a second signature, a Reference not covering the whole message, SHA-1, comments, digest mismatch). DescText names the rule; never key material.",
  signature_required: "An unsigned OrderCreateRQ from an agency whose signing policy is required.",
  signature_key_unknown: "The signature verifies with no registered key of the agency, or with one revoked or outside its validity window. A certificate in KeyInfo is never trusted.",
  signature_not_checked: "A signed OrderCreateRQ or OrderChangeRQ from an agency whose signing policy is none: processed, the signature ignored.",
  actor_busy:
    "The mailbox of the order or inventory the message needs is full; or other gateway processes kept writing it while this one decided (8 attempts); or another process held the database's write lock for 5 s (docs/decisions/0040-any-process-any-key.md). Header Retry-After: 1; retry with backoff.",
  store_unavailable:
    "The PostgreSQL store (docs/decisions/0041-postgresql.md) refused or lost the connection, or is shutting down or starting (a restart, a failover); the pool reconnects by itself. Header Retry-After: 1. A write whose COMMIT was sent as the connection broke may have committed: a retry with the same ids finds it (idempotency).",
  internal_error: "An unexpected failure; logged under the request id quoted in DescText.",
};

export function renderErrorsDoc(): string {
  const rows = Object.entries(CATALOGUE).map(
    ([code, e]) => `| \`${code}\` | ${e.status === 200 ? "200 (warning)" : e.status} | ${e.kind} | ${e.text} | ${WHEN[code] ?? ""} |`,
  );
  return `# Error catalogue

Generated from \`packages/errors/src/catalogue.ts\` by \`bun scripts/gen-error-docs.ts > docs/errors.md\`; a test keeps the two equal.

## Form

NDC answers carry errors in the paired response root (IATA_AirShoppingRS for IATA_AirShoppingRQ, IATA_OrderViewRS for the order messages...), one \`Error\` element per problem:

| Element | Content |
|---|---|
| \`Code\` | The wire code below. |
| \`DescText\` | English: the catalogue text, then what exactly was wrong. Never personal data. |
| \`LangCode\` | \`EN\` |
| \`TagText\` | The element at fault, as a slash path from the root, when there is one. |
| \`TypeCode\` | The kind below (transport, auth, refusal, warning, staff_item, system). |

Warnings use the same codes inside the message's \`Response\` as \`Warning\` elements. An unknown message name has no paired root, so it is answered with \`IATA_Acknowledgement\` whose \`Notification/StatusCode\` holds the code. The token endpoint answers JSON per RFC 6749 5.2 (\`error\`, \`error_description\`).

Unexpected failures are logged with the request id (header \`X-Request-ID\`) and answered \`internal_error\`; internals never reach the caller.

Inside the gateway a failure is a \`GatewayError\` (\`packages/errors\`): the code, an English detail, the element at fault, and typed facts: \`retryAfterSeconds\`, \`challenge\` (what the caller must authenticate with), \`allowedMethods\`. It carries no HTTP. The edge gives every answer the status of this table and turns the facts into \`Retry-After\`, \`WWW-Authenticate\` and \`Allow\` in one place (\`apps/gateway/src/http/error-mapping.ts\`); \`test/boundaries/no-http-in-domains.test.ts\` keeps statuses and headers out of \`packages/\`.

## Codes

| Code | HTTP status | Kind | Text | When |
|---|---|---|---|---|
${rows.join("\n")}
`;
}

if (import.meta.main) process.stdout.write(renderErrorsDoc());
