import { expect } from "bun:test";
import { ndcRequest } from "../support/requests";
import type { TestGateway } from "../support/gateway";
import { all, blocks } from "../orders-http/order-list-helpers";
import { NoSeatToSell, orderCreateRQ, orderIdOf, shopOffer, type PaxSpec } from "../orders-http/helpers";
import type { Order } from "@ndc/orders";

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

export const sellerOf = (t: TestGateway) => ({ clientId: t.gw.sandbox!.client_id, agencyId: t.gw.sandbox!.agency_id });

/**
 * Books over HTTP the first shopped offer whose fare is cancellable (the sandbox's SAVER is not),
 * with a seat unless told otherwise, paid by `legs` card legs splitting the total (the last
 * leg is the newest).
 */
export async function bookCancellable(t: TestGateway, tag: string, o: { legs?: number; seat?: boolean; brand?: string; pax?: number | PaxSpec[] } = {}): Promise<{ orderId: string; order: Order }> {
  // A count: one passenger is orderCreateRQ's own (TRAVELLER); more are PAX1.. with surnames of their own.
  const pax = typeof o.pax === "number" ? (o.pax > 1 ? Array.from({ length: o.pax }, (_, i) => ({ id: `PAX${i + 1}`, surname: `TRAVELLER${"ABCDEFGHI"[i]}` })) : undefined) : o.pax;
  for (let n = 0; n < 16; n++) {
    // A flight sold out by earlier bookings of the same run (a property books many): the next offer.
    const shopped = await shopOffer(t, { pax: pax?.length ?? 1, seat: o.seat ?? true, n }).catch((e: unknown) => {
      if (e instanceof NoSeatToSell) return undefined;
      throw e;
    });
    if (!shopped) continue;
    const count = o.legs ?? 1;
    const each = Math.floor(shopped.totalMinor / count);
    const legs = Array.from({ length: count }, (_, i) => ({ kind: "card" as const, token: i === 0 ? "tok_approve_visa" : "tok_approve_mastercard", amountMinor: i === count - 1 ? shopped.totalMinor - each * (count - 1) : each }));
    const r = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, legs, ...(pax ? { pax } : {}), correlationId: `c-${tag}-${n}`, trxId: `t-${tag}-${n}` }));
    expect(r.status).toBe(200);
    const orderId = orderIdOf(r.body);
    const order = await t.gw.orders.retrieve(orderId, sellerOf(t));
    const brand = order.journeys[0]!.brandCode;
    if (o.brand ? brand === o.brand : brand !== "SAVER") return { orderId, order };
  }
  throw new Error(`no ${o.brand ?? "cancellable"} offer shopped`);
}

/** OrderReshopRQ ReshopOrder/ServiceOrder/DeleteOrderItem alone: the quote to cancel those items. */
export function cancelItemsRQ(orderId: string, itemIds: readonly string[], o: { extra?: string; correlationId?: string } = {}): string {
  const deletes = itemIds.map((id) => `<cns:DeleteOrderItem><cns:OrderItemRefID>${id}</cns:OrderItemRefID>${o.extra ?? ""}</cns:DeleteOrderItem>`).join("");
  const request = `<cns:OrderRefID>${orderId}</cns:OrderRefID><cns:UpdateOrder><cns:ReshopOrder><cns:ReshopOrderChoice><cns:ServiceOrder>${deletes}</cns:ServiceOrder></cns:ReshopOrderChoice></cns:ReshopOrder></cns:UpdateOrder>`;
  return ndcRequest("OrderReshopRQ", { request, correlationId: o.correlationId ?? "corr-cancel-items" });
}

/** Asks the items quote over HTTP (XSD-checked by t.ndc) and reads it. */
export async function quoteItems(t: Pick<TestGateway, "ndc">, orderId: string, itemIds: readonly string[]): Promise<QuoteSeen & { items: string[] }> {
  const r = await t.ndc("OrderReshopRQ", cancelItemsRQ(orderId, itemIds));
  expect(r.status).toBe(200);
  const offer = blocks(r.body, "Offer")[0]!;
  return {
    quoteId: all(offer, "OfferID")[0]!,
    refund: amountIn(blocks(offer, "TotalPrice")[0]!)!,
    expiry: all(offer, "OfferExpirationTimeLimitDateTime")[0]!,
    items: all(offer, "OrderItemRefID"),
    body: r.body,
  };
}
