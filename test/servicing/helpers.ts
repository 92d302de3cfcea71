/** Servicing tests: book an order of a chosen brand and currency over HTTP, then ask about it. */
import { expect } from "bun:test";
import type { TestGateway } from "../support/gateway";
import { ndcRequest } from "../support/requests";
import { dayAfter, saleDay, T0 } from "../support/dates";
import { all, airShoppingRQ, blocks } from "../shopping/shop-requests";
import { orderCreateRQ, orderIdOf } from "../orders-http/helpers";

/** Outbound and return days, from the test clock's start (2027-01-12 and 2027-01-15 for T0). */
export const OUT_DATE = dayAfter(T0, 52);
export const BACK_DATE = dayAfter(T0, 55);
// shopBrand reads the same days from the gateway it shops (saleDay): a gateway on another clock books its own.

export interface Booked {
  orderId: string;
  offerId: string;
  /** The outbound's first departure, local time at the origin as the shopping answer states it (YYYY-MM-DDTHH:MM:SS). */
  outboundDepartureLocal: string;
}

/** AirShoppingRQ (LHR-CDG unless `from`/`to` say otherwise, optionally back) in `currency`; the first offer of `brand`. */
export async function shopBrand(t: Pick<TestGateway, "ndc">, brand: string, o: { currency?: string; back?: boolean; from?: string; to?: string } = {}): Promise<{ offerId: string; itemIds: string[]; outboundDepartureLocal: string; totalText: string; currency: string }> {
  const [from, to] = [o.from ?? "LHR", o.to ?? "CDG"];
  const legs = [{ from, to, date: saleDay(t, 52) }, ...(o.back ? [{ from: to, to: from, date: saleDay(t, 55) }] : [])];
  const shop = await t.ndc("AirShoppingRQ", airShoppingRQ({ legs, pax: [["PAX1", "ADT"]], currency: o.currency ?? "EUR" }));
  expect(shop.status).toBe(200);
  const offer = blocks(shop.body, "Offer").find((x) => x.includes(`<cns:PriceClassRefID>PC-${brand}</cns:PriceClassRefID>`));
  if (!offer) throw new Error(`no ${brand} offer`);
  const firstSegment = all(offer, "PaxSegmentRefID")[0]!;
  const segment = blocks(shop.body, "DatedMarketingSegment").find((s) => s.includes(`<cns:DatedMarketingSegmentId>${firstSegment}-MKT<`))!;
  const dep = blocks(segment, "Dep")[0]!;
  const totalText = all(blocks(offer, "TotalPrice")[0]!, "TotalAmount")[0]!;
  return { offerId: all(offer, "OfferID")[0]!, itemIds: all(offer, "OfferItemID"), outboundDepartureLocal: all(dep, "AircraftScheduledDateTime")[0]!, totalText, currency: o.currency ?? "EUR" };
}

let bookings = 0;

/**
 * Shops and books, paid by card in the offer's currency (`held`: no payment, the order is held;
 * `cards: 2`: the total split over two cards, the second leg the newer).
 */
export async function bookBrand(t: Pick<TestGateway, "ndc">, brand: string, o: { currency?: string; back?: boolean; held?: boolean; from?: string; to?: string; cards?: number } = {}): Promise<Booked> {
  const s = await shopBrand(t, brand, o);
  const decimals = s.totalText.split(".")[1]?.length ?? 0;
  const total = Math.round(Number(s.totalText) * 10 ** decimals);
  const n = o.cards ?? 1;
  const amounts = Array.from({ length: n }, (_, i) => (i < n - 1 ? Math.floor(total / n) : total - Math.floor(total / n) * (n - 1)));
  const payment = amounts
    .map((a, i) => `<cns:PaymentFunctions><cns:PaymentProcessingDetails><cns:Amount CurCode="${s.currency}">${(a / 10 ** decimals).toFixed(decimals)}</cns:Amount><cns:PaymentMethod><cns:PaymentCard><cns:TokenizedCardID>${i === 0 ? "tok_approve_visa" : "tok_approve_mastercard"}</cns:TokenizedCardID></cns:PaymentCard></cns:PaymentMethod></cns:PaymentProcessingDetails></cns:PaymentFunctions>`)
    .join("");
  const body = orderCreateRQ({ shopped: { offerId: s.offerId, itemIds: s.itemIds, totalMinor: 0 }, correlationId: `C-${++bookings}-${s.offerId}`, trxId: "T1" });
  const r = await t.ndc("OrderCreateRQ", o.held ? body : body.replace("</Request>", `${payment}</Request>`));
  if (r.status !== 200) throw new Error(`OrderCreateRQ ${r.status}: ${r.body.slice(0, 1500)}`);
  expect(r.body).toContain(`<cns:StatusCode>${o.held ? "ORDWPM" : "BOOKED"}</cns:StatusCode>`);
  return { orderId: orderIdOf(r.body), offerId: s.offerId, outboundDepartureLocal: s.outboundDepartureLocal };
}

export function orderRulesByOrder(orderId: string, ownerCode = "XB"): string {
  return ndcRequest("OrderRulesRQ", { request: `<cns:RulesCoreRequest><cns:OrderStructureKey><cns:OrderID>${orderId}</cns:OrderID><cns:OwnerCode>${ownerCode}</cns:OwnerCode></cns:OrderStructureKey></cns:RulesCoreRequest>`, correlationId: "rules-1" });
}

/** FareRef: Dep, Arrival and FareBasisCode are required by 24.4; the OfferID rides as FareRefText. */
export function orderRulesByFare(offerId: string | undefined, fareBasis = "YCLASSIC"): string {
  const text = offerId === undefined ? "" : `<cns:FareRefText>${offerId}</cns:FareRefText>`;
  return ndcRequest("OrderRulesRQ", {
    request: `<cns:RulesCoreRequest><cns:FareRef><cns:AirlineDesigCode>XB</cns:AirlineDesigCode><cns:Arrival><cns:IATA_LocationCode>CDG</cns:IATA_LocationCode></cns:Arrival><cns:Dep><cns:IATA_LocationCode>LHR</cns:IATA_LocationCode></cns:Dep><cns:FareBasisCode>${fareBasis}</cns:FareBasisCode>${text}</cns:FareRef></cns:RulesCoreRequest>`,
    correlationId: "rules-2",
  });
}

/** The instant `hours` before a local departure read as UTC (the engine's reading, docs/servicing.md). */
export function hoursBefore(departureLocal: string, hours: number): number {
  return Date.parse(`${departureLocal.slice(0, 19)}Z`) - hours * 3_600_000;
}

/** Each Penalty of an OrderRulesRS as {id, type, app, amount}. */
export function penalties(xml: string): { id: string; type: string; app?: string; amount?: string; cur?: string }[] {
  return blocks(xml, "Penalty").map((p) => ({
    id: all(p, "PenaltyID")[0]!,
    type: all(p, "TypeCode")[0]!,
    app: all(p, "AppCode")[0],
    amount: all(p, "TotalAmount")[0],
    cur: /CurCode="([A-Z]{3})"/.exec(p)?.[1],
  }));
}

/**
 * The budget of a test that books over HTTP, every answer XSD-checked: such tests were measured
 * at up to 5 s on the loaded 2-core machine (load average 17, on either engine), where Bun's 5 s
 * default failed them for no fault of the gateway.
 */
export const BOOKING_TEST_MS = 30_000;
