import { isGatewayError, type ErrorCode } from "@ndc/errors";
import { decodeOrderCreateRQ, orderCreateInput, requestedLanguages, storedOutcome, type HandlerInput, type MessageHandler } from "@ndc/messages";
import { fingerprintOf } from "@ndc/orders";
import { errorDocument, responseDocument, type ResponseContext } from "@ndc/xml";
import { statusOf } from "../http/error-mapping";
import type { HandlerDeps } from "./deps";
import { requestIds } from "./request-key";
import { evidenceInCommit, signedOrderView } from "./signed-view";

// Failures that say "not now" rather than "not this request": never stored, so a retry with
// the same ids is tried again instead of being told the same thing forever.
const TRANSIENT = new Set<ErrorCode>(["actor_busy", "store_unavailable", "request_in_progress", "rate_limited", "psp_unavailable"]);

/**
 * OrderCreateRQ (spec 4.4): decode -> domain input -> idempotent section keyed on (seller
 * client, CorrelationID, TrxID), or on the request itself without them (request-key.ts). The first answer, an order or a 4xx refusal, is serialised
 * here and stored as bytes, so every retry gets it byte for byte (DESIGN 5 Idempotency).
 * A request refused while it is read (malformed, card data) never reaches the section: nothing
 * of it is stored, and the same body is refused the same way again anyway.
 */
export function orderCreateHandler(deps: HandlerDeps): MessageHandler {
  return async (x: HandlerInput) => {
    const rq = decodeOrderCreateRQ(x.envelope);
    const terms = await deps.orders.withSellerTerms(orderCreateInput(rq, x.seller, requestIds(x.envelope.payload, "OrderCreateRQ", rq)), x.seller);
    // A verified request's evidence commits with the order it creates (docs/signatures.md).
    const evidence = evidenceInCommit(deps, x.signature);
    const input = evidence ? { ...terms, alsoInCommit: evidence } : terms;
    const key = { clientId: x.seller.clientId, correlationId: input.correlationId, trxId: input.trxId };
    // The decoded request, not the raw body: whitespace or prefix changes are the same order.
    const fingerprint = fingerprintOf(rq);
    // The answer echoes the seller's own PayloadAttributes, never a key the gateway took in their place.
    const ctx: ResponseContext = { correlationId: rq.correlationId, trxId: rq.trxId, simulated: true, carrier: deps.config.airline.designator };
    // The text of the answer this request made, so it is not decoded back from the bytes stored.
    let made: string | undefined;
    const answered = await deps.orders.idempotency.run(key, fingerprint, async () => {
      try {
        // Inside the section: a refusal of an item is the stored answer like any other.
        const order = await deps.orders.create(input);
        // In the requested language (spec 4.8 rule 1): part of the body, so a replay of the same
        // body is the same language and gets these bytes again.
        // Non-repudiation and policy none's Warning (docs/signatures.md).
        const view = await signedOrderView(deps, order, x.signature, requestedLanguages(rq.preferences), { created: true });
        made = responseDocument(x.spec.response, view.response, ctx, view.trailing);
        return { status: 200, body: new TextEncoder().encode(made) };
      } catch (e) {
        const status = isGatewayError(e) ? statusOf(e.code) : 500;
        if (!isGatewayError(e) || status < 400 || status >= 500 || TRANSIENT.has(e.code)) throw e;
        made = errorDocument(x.spec.response, [{ code: e.code, description: e.description, element: e.element }], ctx);
        return { status, body: new TextEncoder().encode(made) };
      }
    });
    const document = !answered.replayed && made !== undefined ? made : new TextDecoder().decode(answered.body);
    return { document, status: answered.status, outcome: storedOutcome(document) };
  };
}
