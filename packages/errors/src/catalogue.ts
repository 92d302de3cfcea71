/**
 * The one error catalogue: every wire code the gateway can answer with, its HTTP status,
 * its kind and the English text a reader sees. docs/errors.md is checked against this table
 * by a test, so the two cannot drift apart.
 *
 * kind:
 *  - transport: the HTTP exchange itself is wrong (path, method, headers, body framing, XML)
 *  - auth: credentials, scopes, distribution chain, rate limits
 *  - refusal: a business rule refused the request
 *  - warning: processing went on; the response carries a Warning
 *  - staff_item: not sent to sellers; raised to airline staff
 *  - system: our fault; the seller may retry
 */
export type ErrorKind = "transport" | "auth" | "refusal" | "warning" | "staff_item" | "system";

export interface CatalogueEntry {
  status: number;
  kind: ErrorKind;
  text: string;
}

export const CATALOGUE = {
  // Routing and transport (spec 4.1)
  message_unknown: { status: 404, kind: "transport", text: "No NDC 24.4 message of this name is served at this path." },
  method_not_allowed: { status: 405, kind: "transport", text: "NDC messages are sent with POST." },
  message_name_mismatch: { status: 400, kind: "transport", text: "The IATA-Message-Name header must name the message of the path (IATA_<MessageName>)." },
  unsupported_media_type: { status: 415, kind: "transport", text: "The request body must be sent with Content-Type application/xml." },
  content_encoding_unsupported: { status: 415, kind: "transport", text: "Only gzip request bodies are accepted (Content-Encoding: gzip)." },
  content_encoding_invalid: { status: 400, kind: "transport", text: "The gzip request body could not be inflated." },
  payload_too_large: { status: 413, kind: "transport", text: "The request body is larger than the gateway accepts." },
  xml_forbidden_construct: { status: 400, kind: "transport", text: "DOCTYPE and ENTITY declarations are not accepted in NDC messages." },
  xml_malformed: { status: 400, kind: "transport", text: "The request body is not well-formed XML." },
  xml_limit_exceeded: { status: 400, kind: "transport", text: "The XML document exceeds the gateway's structural limits." },
  root_element_invalid: { status: 400, kind: "transport", text: "The root element does not match the message of the path." },
  namespace_invalid: { status: 400, kind: "transport", text: "The root element is not in the NDC 24.4 message namespace." },
  request_invalid: { status: 400, kind: "transport", text: "A required element of the message is missing or malformed." },
  client_abort: { status: 499, kind: "transport", text: "The client closed the connection before the answer was sent." },
  message_not_available: { status: 501, kind: "transport", text: "This gateway does not process this message yet." },

  // OAuth 2.0 token endpoint (RFC 6749 5.2)
  invalid_request: { status: 400, kind: "auth", text: "The token request is missing a parameter, repeats one, or is otherwise malformed." },
  invalid_client: { status: 401, kind: "auth", text: "Client authentication failed." },
  unauthorized_client: { status: 400, kind: "auth", text: "The client is not allowed to use this grant type." },
  unsupported_grant_type: { status: 400, kind: "auth", text: "Only the client_credentials grant type is supported." },
  invalid_scope: { status: 400, kind: "auth", text: "The requested scope is unknown or exceeds the scopes granted to the client." },

  // Bearer tokens on NDC calls (RFC 6750) and access (spec 5, 7.2)
  invalid_token: { status: 401, kind: "auth", text: "The access token is missing, malformed, expired or revoked." },
  insufficient_scope: { status: 403, kind: "auth", text: "The access token lacks the scope this message needs." },
  distribution_chain_invalid: { status: 400, kind: "auth", text: "The DistributionChain must hold a Carrier link naming this airline." },
  seller_not_authorised: { status: 403, kind: "auth", text: "The Seller link names an agency the caller may not sell as." },
  rate_limited: { status: 429, kind: "auth", text: "The credential exceeded its request rate; retry after the time given in Retry-After." },
  order_not_found: { status: 404, kind: "refusal", text: "No order with this id was found." },

  // Business refusals and warnings (spec 7.3)
  identity_document_type_unknown: { status: 400, kind: "refusal", text: "IdentityDocTypeCode is not a PADIS 7365 identity document type accepted by the airline." },
  identity_document_country_invalid: { status: 400, kind: "refusal", text: "A country code of the identity document is not ISO 3166-1 alpha-2." },
  identity_document_invalid: { status: 400, kind: "refusal", text: "The identity document is malformed: a date, the gender, a required field or a length limit." },
  identity_document_not_updatable: { status: 400, kind: "refusal", text: "Identity documents are taken at OrderCreate only and cannot be sent on this message." },
  identity_document_not_shown: { status: 200, kind: "warning", text: "A stored identity document has a type the airline cannot name, so it is omitted." },
  fare_not_changeable: { status: 409, kind: "refusal", text: "The fare does not allow this change." },
  fare_not_renameable: { status: 409, kind: "refusal", text: "The fare of the outbound direction does not allow name changes." },
  flexibility_already_used: { status: 409, kind: "refusal", text: "The order's Flexibility service has already been used for another change." },
  flexibility_not_held: { status: 409, kind: "refusal", text: "The request asks to use a Flexibility service, but the order holds none covering this change." },
  fare_not_cancellable: { status: 409, kind: "refusal", text: "The fare of the outbound direction does not allow cancellation." },
  cancel_quote_invalid: { status: 400, kind: "refusal", text: "The cancel quote id is not one this airline issued for this order." },
  cancel_quote_expired: { status: 410, kind: "refusal", text: "The cancel quote has expired; ask OrderReshopRQ for a new one." },
  cancel_quote_stale: { status: 409, kind: "refusal", text: "The order changed after the cancel quote was given; ask OrderReshopRQ for a new one." },
  cancel_items_not_supported: { status: 400, kind: "refusal", text: "Flights and bundles are not cancelled alone: cancel the whole order (CancelOrderRef) or change the flights." },
  missing_offer_id: { status: 400, kind: "refusal", text: "A rules quote needs the OfferID (FareRefText); a fare basis alone is refused." },
  content_language_fallback: { status: 200, kind: "warning", text: "Some content is returned in English because the requested language is not translated." },
  fare_conditions_supplier: { status: 200, kind: "warning", text: "The brand policy could not be read, so the supplier's conditions are used." },
  fare_conditions_current_policy: { status: 200, kind: "warning", text: "The order was booked before fare conditions were frozen onto orders, so the current policy of its brand is used." },
  // Shopping (spec 4.5-4.8)
  offer_not_found: { status: 404, kind: "refusal", text: "No offer with this id was issued to this seller." },
  offer_expired: { status: 410, kind: "refusal", text: "The offer has expired; shop again for a new one." },
  offer_item_not_found: { status: 400, kind: "refusal", text: "The offer has no item with this id." },
  flight_not_found: { status: 404, kind: "refusal", text: "The airline has no such flight." },
  shopping_criteria_invalid: { status: 400, kind: "refusal", text: "The shopping criteria cannot be served." },
  currency_not_supported: { status: 400, kind: "refusal", text: "Prices cannot be given in the requested currency." },
  services_not_listed: { status: 200, kind: "warning", text: "Some catalogue services could not be read in time and are not listed." },
  promotions_unavailable: { status: 200, kind: "warning", text: "The promotions engine could not be asked, so prices carry no discounts or surcharges." },
  promotion_not_applied: { status: 200, kind: "warning", text: "A promotion with a fixed amount or cap in another currency was not applied." },
  bundle_content_not_filtered: { status: 200, kind: "warning", text: "Only classified bags included in fare brands are filtered; other bundled content is text and was not filtered." },
  // Inventory (spec 4.4 rule 3, 8): seats and partner products
  seat_not_found: { status: 400, kind: "refusal", text: "The flight's seat map has no seat with this id." },
  seat_unavailable: { status: 409, kind: "refusal", text: "The seat is already sold or held; choose another seat." },
  seat_hold_not_found: { status: 404, kind: "refusal", text: "No seat hold with this id exists on this flight." },
  seat_hold_expired: { status: 410, kind: "refusal", text: "The seat hold has expired and the seat was released." },
  partner_product_not_found: { status: 404, kind: "refusal", text: "No partner product with this code is sold." },
  partner_product_sold_out: { status: 409, kind: "refusal", text: "The partner product has no stock left." },
  partner_product_once_per_order: { status: 409, kind: "refusal", text: "A partner product is sold once per order." },
  partner_product_hold_not_found: { status: 404, kind: "refusal", text: "No hold with this id exists on this partner product." },
  partner_product_hold_expired: { status: 410, kind: "refusal", text: "The partner product hold has expired and the unit was released." },
  // Payments (spec 2.5, 3, 4.4 rules 4-7, 4.7 servicing rule 6)
  card_data_refused: { status: 400, kind: "refusal", text: "Card numbers and security codes are never accepted; pay with a PSP token." },
  payment_legs_invalid: { status: 400, kind: "refusal", text: "The payment legs are malformed: more than four, mixed currencies, a missing field or an amount that is not positive." },
  payment_declined: { status: 402, kind: "refusal", text: "A payment leg was declined; every leg already authorised was voided." },
  psp_unavailable: { status: 503, kind: "system", text: "The payment provider did not answer in time; the payment will be reconciled." },
  // Why the PSP declined a card (packages/payments/src/psp/decline-reasons.ts): the Warning of a
  // held order whose card leg was declined, and the log line's declineReason.
  do_not_honour: { status: 200, kind: "warning", text: "The card issuer declined the payment without a reason: the customer should ask their bank, or pay another way." },
  insufficient_funds: { status: 200, kind: "warning", text: "The card has insufficient funds for the amount: pay with another card or method, or split the amount over several legs." },
  expired_card: { status: 200, kind: "warning", text: "The card has expired: ask the customer for a valid card and tokenise it again." },
  lost_or_stolen_card: { status: 200, kind: "warning", text: "The card is reported lost or stolen: do not retry it; pay another way." },
  card_not_supported: { status: 200, kind: "warning", text: "The card does not support this purchase (brand, currency or type): pay with another card or method." },
  processing_error: { status: 200, kind: "warning", text: "The PSP could not process the card because of an error on its side: the same card may be retried." },
  unknown_token: { status: 200, kind: "warning", text: "The PSP holds no card for this token: tokenise the card again." },
  // 3-D Secure (PAY3D2): the seller authenticates the payer and sends the results with the card.
  authentication_required: { status: 200, kind: "warning", text: "The card issuer requires the payer to be authenticated with 3-D Secure: authenticate the payer and send the results in PaymentCard/SecurePaymentVersion2." },
  authentication_failed: { status: 200, kind: "warning", text: "The 3-D Secure results show the payer was not authenticated: do not retry the card without a new, successful authentication; pay another way." },
  voucher_invalid: { status: 400, kind: "refusal", text: "The voucher is unknown, inactive, expired or in another currency." },
  voucher_insufficient: { status: 402, kind: "refusal", text: "The voucher balance does not cover the amount." },
  loyalty_programme_not_accepted: { status: 400, kind: "refusal", text: "Only the airline's own loyalty programme can pay." },
  loyalty_certificate_invalid: { status: 400, kind: "refusal", text: "The redemption certificate is unknown, not this member's, expired or already used." },
  loyalty_points_insufficient: { status: 402, kind: "refusal", text: "The certificate or the member's points do not cover the amount." },
  settlement_account_unavailable: { status: 400, kind: "refusal", text: "The seller has no active settlement account for this method and currency." },
  settlement_headroom_exceeded: { status: 402, kind: "refusal", text: "The amount exceeds the settlement account's credit headroom." },
  payment_leg_not_found: { status: 404, kind: "refusal", text: "No payment leg with this id exists on the order." },
  payment_leg_voided: { status: 409, kind: "refusal", text: "The payment reference was voided; a late capture under it is refused." },
  payment_already_captured: { status: 409, kind: "refusal", text: "The payment leg is already captured; a second capture for one change is refused." },
  payment_leg_state_invalid: { status: 409, kind: "refusal", text: "The payment leg is not in a state that allows this step." },
  refund_exceeds_captured: { status: 409, kind: "refusal", text: "The refund is larger than what is captured and not yet refunded." },
  idempotency_key_reused: { status: 409, kind: "refusal", text: "This idempotency key was used for a different request." },
  commission_rule_not_applicable: { status: 409, kind: "refusal", text: "The commission agreement gives no rule for this charge, so the change is refused." },
  // Orders (spec 3, 4.4, 4.7)
  order_state_invalid: { status: 409, kind: "refusal", text: "The order is not in a state that allows this change." },
  change_not_supported: { status: 400, kind: "refusal", text: "This kind of order change is not offered yet; OrderChangeRQ pays a held order, adds extras or a seat to a booked order, corrects a passenger's name, or accepts a cancel quote." },
  not_sold_post_sale: { status: 409, kind: "refusal", text: "Rides and partner products cannot be added to a booked order; only airline extras and seats are sold after the sale." },
  quote_already_used: { status: 409, kind: "refusal", text: "The quote was already accepted; ask for a new quote." },
  payment_time_limit_passed: { status: 409, kind: "refusal", text: "The order's payment time limit has passed; it can no longer be paid." },
  partner_product_needs_email: { status: 400, kind: "refusal", text: "An order with a partner product needs a contact email to deliver it to." },
  idempotency_conflict: { status: 409, kind: "refusal", text: "This CorrelationID and TrxID were already used with a different request body." },
  request_in_progress: { status: 409, kind: "refusal", text: "A request with this CorrelationID and TrxID is still being processed; retry shortly." },
  reconcile_failed: { status: 500, kind: "staff_item", text: "A payment step could not be finished by the reconciler and needs staff." },
  order_flight_cancelled: { status: 409, kind: "refusal", text: "The airline cancelled a flight of this held order, so it cannot be paid; let it lapse at its payment time limit and book again." },

  // Notifications and sandbox controls (issue 10; docs/notifications.md, docs/sandbox-controls.md)
  subscription_not_found: { status: 404, kind: "refusal", text: "No notification subscription with this id was found." },
  delivery_not_found: { status: 404, kind: "refusal", text: "No delivery with this id was found on the subscription." },
  notification_event_unknown: { status: 400, kind: "refusal", text: "The events must name one or more notification events the gateway knows." },
  subscription_url_refused: { status: 400, kind: "refusal", text: "The URL is refused: https only outside local mode, and never a loopback, private, link-local or metadata address." },
  subscription_limit_reached: { status: 409, kind: "refusal", text: "The agency already holds as many notification subscriptions as it may (NOTIFY_SUBSCRIPTIONS_MAX); delete one first." },
  sandbox_clock_local_only: { status: 409, kind: "refusal", text: "The clock is moved only in local mode; in sandbox mode run a job with /sandbox/scheduler/run." },
  scheduler_job_unknown: { status: 400, kind: "refusal", text: "No sandbox job of this name; the known jobs are listed." },

  // Clearance (spec 2.6, 3, 4.7 PaymentClearanceRQ; docs/messages/PaymentClearanceRQ.md)
  clearance_not_found: { status: 404, kind: "refusal", text: "No clearance with this ClearanceID was found for the caller's agency." },
  clearance_already_cleared: { status: 409, kind: "refusal", text: "The payment is already cleared; one clearance per payment." },
  clearance_cancelled: { status: 409, kind: "refusal", text: "The clearance was cancelled: the payment was refunded before it cleared." },
  clearance_amount_mismatch: { status: 409, kind: "refusal", text: "NetClearanceAmount is not exactly the payment's amount in its currency." },
  clearance_is_refund: { status: 409, kind: "refusal", text: "This clearance gives a refund back to the agency; the Clearance Manager settles it, PaymentClearanceRQ does not clear it." },
  // Signed messages (issue 11; docs/signatures.md)
  signature_invalid: { status: 400, kind: "refusal", text: "The message's XML signature is refused." },
  signature_required: { status: 400, kind: "refusal", text: "The signing agreement with this agency requires a signed OrderCreateRQ." },
  signature_key_unknown: { status: 401, kind: "auth", text: "The message is not signed with a valid key registered for this agency." },
  signature_not_checked: { status: 200, kind: "warning", text: "The message's signature was not checked: the agency's signing policy is none." },
  // The staff console (issue 12; docs/staff-api.md): never answered to sellers
  staff_login_failed: { status: 401, kind: "auth", text: "The username, password or TOTP code is wrong, or the account is disabled or locked." },
  staff_session_required: { status: 401, kind: "auth", text: "A live staff console session is needed: log in again." },
  staff_csrf_invalid: { status: 403, kind: "auth", text: "The X-CSRF-Token of this session is missing or wrong." },
  staff_forbidden: { status: 403, kind: "auth", text: "The staff member's role does not allow this action." },
  staff_reason_invalid: { status: 400, kind: "refusal", text: "The action needs a reason of at least 10 visible characters and, for a reveal, a reason category." },
  identity_document_not_found: { status: 404, kind: "refusal", text: "The order holds no identity document with this reference." },
  identity_document_erased: { status: 410, kind: "refusal", text: "The identity document has been erased." },
  staff_target_not_found: { status: 404, kind: "refusal", text: "No open work item, seller client or agency with this id." },
  // GET /metrics (issue 12 item 9; docs/operations.md): the operators' scraper, never a seller or staff credential
  metrics_token_invalid: { status: 401, kind: "auth", text: "GET /metrics needs Authorization: Bearer with the token set in METRICS_TOKEN." },
  metrics_not_enabled: { status: 404, kind: "refusal", text: "Metrics are served outside local mode only when METRICS_TOKEN is set." },

  // Our side
  actor_busy: { status: 503, kind: "system", text: "The gateway is busy with this resource; retry shortly." },
  store_unavailable: { status: 503, kind: "system", text: "The gateway's database cannot be reached for a moment; retry shortly." },
  internal_error: { status: 500, kind: "system", text: "The gateway could not process the message. Quote the correlation id to the airline." },
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof CATALOGUE;

export function entry(code: ErrorCode): CatalogueEntry {
  return CATALOGUE[code];
}
