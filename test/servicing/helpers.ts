import { expect } from "bun:test";
import { ndcRequest } from "../support/requests";
import type { TestGateway } from "../support/gateway";
import { all, blocks } from "../orders-http/order-list-helpers";

/** OrderReshopRQ UpdateOrder/CancelOrderRef: the quote to cancel the whole order. */
export function cancelQuoteRQ(orderId: string, o: { correlationId?: string; refId?: string } = {}): string {
  const request = `<cns:OrderRefID>${orderId}</cns:OrderRefID><cns:UpdateOrder><cns:CancelOrderRef><cns:OrderRefID>${o.refId ?? orderId}</cns:OrderRefID></cns:CancelOrderRef></cns:UpdateOrder>`;
  return ndcRequest("OrderReshopRQ", { request, correlationId: o.correlationId ?? "corr-quote" });
}

/** OrderChangeRQ ChangeOrderChoice/AcceptCancelledOffer: the quote accepted. */
export function acceptCancelRQ(orderId: string, quoteId: string, o: { correlationId?: string; trxId?: string; owner?: string } = {}): string {
  const request = `<cns:ChangeOrderChoice><cns:AcceptCancelledOffer><cns:OfferID>${quoteId}</cns:OfferID><cns:OwnerCode>${o.owner ?? "XB"}</cns:OwnerCode></cns:AcceptCancelledOffer></cns:ChangeOrderChoice><cns:Order><cns:OrderID>${orderId}</cns:OrderID><cns:OwnerCode>XB</cns:OwnerCode></cns:Order>`;
  return ndcRequest("OrderChangeRQ", { request, correlationId: o.correlationId ?? "corr-cancel", trxId: o.trxId ?? "trx-cancel" });
}

export interface QuoteSeen {
  quoteId: string;
  refund: string;
  penalty?: string;
  expiry: string;
  body: string;
}

/** Asks the quote over HTTP and reads it from the OrderReshopRS (already XSD-checked by t.ndc). */
export async function quote(t: Pick<TestGateway, "ndc">, orderId: string): Promise<QuoteSeen> {
  const r = await t.ndc("OrderReshopRQ", cancelQuoteRQ(orderId));
  expect(r.status).toBe(200);
  const offer = blocks(r.body, "Offer")[0]!;
  const fees = blocks(r.body, "ChangeFees")[0];
  return {
    quoteId: all(offer, "OfferID")[0]!,
    refund: amountIn(blocks(offer, "TotalPrice")[0]!)!,
    penalty: fees ? amountIn(fees) : undefined,
    expiry: all(offer, "OfferExpirationTimeLimitDateTime")[0]!,
    body: r.body,
  };
}

/** The first TotalAmount's value (it carries CurCode). */
export const amountIn = (xml: string) => /<cns:TotalAmount CurCode="[A-Z]{3}">([^<]+)</.exec(xml)?.[1];
