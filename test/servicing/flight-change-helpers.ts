import { expect } from "bun:test";
import { departureReadAsUtc, type Order } from "@ndc/orders";
import { ndcRequest } from "../support/requests";
import type { TestGateway } from "../support/gateway";
import { all, blocks } from "../orders-http/order-list-helpers";
import { amountIn } from "./cancel-helpers";

/**
 * OrderReshopRQ, flight-change form (24.4 ServiceOrderType): DeleteOrderItem naming the flight
 * items of one direction, AddOfferItems/FlightRequest with one OriginDestCriteria for the
 * replacing journey.
 */
export function reshopFlightRQ(orderId: string, itemIds: string[], flight: { from: string; to: string; date: string }, o: { criteria?: string } = {}): string {
  return reshopFlightsRQ(orderId, itemIds, [flight], o);
}

/**
 * The same form replacing several directions at once, as IATA's examples write a return: one
 * OriginDestCriteria per direction in FlightRequestOriginDestinationsCriteria, the DeleteOrderItem
 * elements naming the flight items they replace.
 */
export function reshopFlightsRQ(orderId: string, itemIds: string[], flights: { from: string; to: string; date: string }[], o: { criteria?: string } = {}): string {
  const ods = flights.map((f) => `<cns:OriginDestCriteria><cns:DestArrivalCriteria><cns:IATA_LocationCode>${f.to}</cns:IATA_LocationCode></cns:DestArrivalCriteria><cns:OriginDepCriteria><cns:Date>${f.date}</cns:Date><cns:IATA_LocationCode>${f.from}</cns:IATA_LocationCode></cns:OriginDepCriteria></cns:OriginDestCriteria>`).join("");
  const od = `<cns:FlightRequest><cns:FlightRequestOriginDestinationsCriteria>${ods}</cns:FlightRequestOriginDestinationsCriteria></cns:FlightRequest>`;
  const deletes = itemIds.map((id) => `<cns:DeleteOrderItem><cns:OrderItemRefID>${id}</cns:OrderItemRefID></cns:DeleteOrderItem>`).join("");
  const request = `<cns:OrderRefID>${orderId}</cns:OrderRefID><cns:UpdateOrder><cns:ReshopOrder><cns:ReshopOrderChoice><cns:ServiceOrder><cns:AddOfferItems>${od}${o.criteria ?? ""}</cns:AddOfferItems>${deletes}</cns:ServiceOrder></cns:ReshopOrderChoice></cns:ReshopOrder></cns:UpdateOrder>`;
  return ndcRequest("OrderReshopRQ", { request, correlationId: "corr-flight" });
}

export interface FlightQuoteSeen {
  fee: string;
  penaltyId: string;
  offers: { quoteId: string; due: string; desc: string[] }[];
  body: string;
}

/** The order's flight items, the outbound's ends and the date of its first flight (the order's own departure, as local time). */
export function outboundOf(t: TestGateway, order: Order): { itemIds: string[]; from: string; to: string; date: string; departureAsUtc: number } {
  const j = order.journeys[0]!;
  const first = t.gw.supply.flight(j.flightKeys[0]!)!;
  const last = t.gw.supply.flight(j.flightKeys[j.flightKeys.length - 1]!)!;
  // A flight item covers every direction of its offer: all of them are named, the ends pick the direction.
  const itemIds = order.items.filter((i) => i.kind === "flight").map((i) => i.orderItemId);
  return { itemIds, from: first.origin, to: last.destination, date: first.date, departureAsUtc: departureReadAsUtc(first.departure.local) };
}

/** The order's directions as a reshop names them: each journey's ends and first day. */
export function directionsOf(t: TestGateway, order: Order): { from: string; to: string; date: string }[] {
  return order.journeys.map((j) => {
    const first = t.gw.supply.flight(j.flightKeys[0]!)!;
    const last = t.gw.supply.flight(j.flightKeys[j.flightKeys.length - 1]!)!;
    return { from: first.origin, to: last.destination, date: first.date };
  });
}

/** Asks over HTTP (t.ndc checks the answer against the 24.4 XSD) and reads the quote. */
export async function flightQuote(t: Pick<TestGateway, "ndc">, body: string): Promise<FlightQuoteSeen> {
  const r = await t.ndc("OrderReshopRQ", body);
  expect(r.status).toBe(200);
  const fees = blocks(r.body, "ChangeFees")[0]!;
  return {
    fee: amountIn(fees)!,
    penaltyId: all(fees, "PenaltyID")[0]!,
    offers: blocks(r.body, "Offer").map((o) => ({ quoteId: all(o, "OfferID")[0]!, due: amountIn(blocks(o, "TotalPrice")[0]!)!, desc: all(o, "DescText") })),
    body: r.body,
  };
}
