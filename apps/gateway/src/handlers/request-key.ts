import { fingerprintOf } from "@ndc/orders";

/** What a money-moving request is idempotent on, with the seller's client (docs/orders.md, "Without PayloadAttributes"). */
export interface RequestIds {
  correlationId: string;
  trxId: string;
}

/**
 * PayloadAttributes is optional in 24.4 (spec 2.2), and sellers' systems shaped like IATA's
 * examples often leave it out. The key of an OrderCreateRQ or OrderChangeRQ is then:
 * - CorrelationID and TrxID when both are given (spec 4.4 rule 1), as always;
 * - CorrelationID alone: that CorrelationID with an empty TrxID (a TrxID is never empty, so no
 *   request with both can meet it);
 * - no CorrelationID: the request itself. The same decoded message from the same seller again is
 *   the same request and gets the first answer; anything different is a new request. A double
 *   submission therefore never books or charges twice, and a seller who means a second attempt
 *   (another card after a decline) sends a different message or gives ids.
 * `message` keeps one message's content from ever meeting another's key.
 */
export function requestIds(payload: { correlationId?: string; trxId?: string }, message: string, decoded: object): RequestIds {
  if (payload.correlationId) return { correlationId: payload.correlationId, trxId: payload.trxId ?? "" };
  return { correlationId: `content:${fingerprintOf({ message, decoded })}`, trxId: payload.trxId ?? "" };
}
