import { GatewayError } from "@ndc/errors";
import { decodePaymentClearanceRQ, encodePaymentClearanceRS, type MessageHandler } from "@ndc/messages";
import type { HandlerDeps } from "./deps";

/**
 * PaymentClearanceRQ (spec 3, 4.7; docs/messages/PaymentClearanceRQ.md): clears one of the
 * caller's settlement-plan payments that is not yet cleared, for exactly its amount, through the
 * simulated Clearance Manager, and answers IATA_PaymentClearanceRS with the clearance as it now
 * stands. The payee must be this airline; the seller is the token's agency (no DistributionChain
 * in the 2022.1 family). The clearing and its payment.clearance notification commit together.
 */
export function paymentClearanceHandler(deps: HandlerDeps): MessageHandler {
  const carrier = { accountingCode: deps.config.airline.accountingCode, designator: deps.config.airline.designator };
  return async ({ envelope, seller }) => {
    const rq = decodePaymentClearanceRQ(envelope);
    if (rq.payee.designator !== carrier.designator || rq.payee.accountingCode !== carrier.accountingCode) {
      throw new GatewayError("request_invalid", {
        detail: `The payee is this airline: AirlineDesigCode ${carrier.designator}, AirlineAccountingCode ${carrier.accountingCode}.`,
        element: "Clearance/ClearanceData/ClearancePayeeData/ClearancePayee/Carrier",
      });
    }
    // CorrelationID and TrxID key the request, as for the order messages: a retry after a lost answer gets the first one.
    const { correlationId, trxId } = envelope.payload;
    const requestKey = correlationId === undefined ? undefined : JSON.stringify([correlationId, trxId ?? null]);
    const cleared = await deps.clearances.clearByRequest({ clearanceId: rq.clearanceId, agencyId: seller.agencyId, amountMinor: rq.amountMinor, currency: rq.currency, ...(requestKey ? { requestKey } : {}) });
    return { response: encodePaymentClearanceRS(cleared, carrier, seller.iataNumber) };
  };
}
