/**
 * Post-sale changes over HTTP (ORDRE2): the booked order's extras (ServiceListRQ) and seats
 * (SeatAvailabilityRQ) as a seller reads them, and the OrderChangeRQ that buys them
 * (AcceptSelectedQuotedOfferList naming the listed offer, paid by PaymentFunctions).
 */
import { seatAvailabilityRQ } from "../shopping/seat-availability-helpers";
import type { NdcReply } from "../support/gateway";
import { paymentMethodXml, type Leg } from "../orders-http/helpers";
import { ndcRequest } from "../support/requests";
import { all, blocks, orderChangeRQ, serviceListForOrderRQ } from "../orders-http/order-list-helpers";

/** The in-process test gateway or a real process over a socket (test/crash/support.ts). */
export interface Ndc {
  ndc(message: string, body: string): Promise<NdcReply>;
}

export interface ListedItem {
  offerItemId: string;
  paxIds: string[];
  /** UnitPrice/TotalAmount in minor units (EUR, 2 decimals). */
  unitMinor: number;
  serviceDefinitionId: string;
}

export interface Listed {
  offerId: string;
  items: ListedItem[];
}

const minor = (text: string) => Math.round(Number(text) * 100);

function listed(body: string): Listed {
  const offer = blocks(body, "ALaCarteOffer")[0]!;
  return {
    offerId: all(offer, "OfferID")[0]!,
    items: blocks(offer, "OfferItem").map((i) => ({
      offerItemId: all(i, "OfferItemID")[0]!,
      paxIds: all(i, "PaxRefID"),
      unitMinor: minor(/<(?:\w+:)?TotalAmount[^>]*>([^<]+)</.exec(blocks(i, "UnitPrice")[0]!)![1]!),
      serviceDefinitionId: all(i, "ServiceDefinitionRefID")[0]!,
    })),
  };
}

/** The booked order's airline extras, as ServiceListRS lists them. */
export async function extrasFor(t: Ndc, orderId: string, criteria?: string): Promise<Listed> {
  const r = await t.ndc("ServiceListRQ", serviceListForOrderRQ(orderId, criteria ? { criteria } : {}));
  if (r.status !== 200) throw new Error(`ServiceListRQ ${r.status}: ${r.body.slice(0, 400)}`);
  return listed(r.body);
}

/** The booked order's seats for sale (SeatAvailabilityRQ naming the order): seat id -> item. */
export async function seatsFor(t: Ndc, orderId: string): Promise<{ offerId: string; seats: Map<string, ListedItem> }> {
  const r = await t.ndc("SeatAvailabilityRQ", seatAvailabilityRQ({ orderId }));
  if (r.status !== 200) throw new Error(`SeatAvailabilityRQ ${r.status}: ${r.body.slice(0, 400)}`);
  const offer = listed(r.body);
  const seats = new Map<string, ListedItem>();
  // Each free seat names its OfferItemRefID; its id is RowNumber + ColumnID.
  for (const seat of blocks(r.body, "Seat")) {
    const ref = all(seat, "OfferItemRefID")[0];
    const item = ref && offer.items.find((i) => i.offerItemId === ref);
    if (item) seats.set(`${all(seat, "RowNumber")[0]}${all(seat, "ColumnID")[0]}`, item);
  }
  return { offerId: offer.offerId, seats };
}

/** A card by token (the common case), or any leg kind of OrderCreate's builders. */
export type PayLeg = { card: string; minor: number } | Leg;

function payment(orderId: string, legs: readonly PayLeg[]): string {
  return legs
    .map((l) => {
      const leg: Leg = "card" in l ? { kind: "card", token: l.card, amountMinor: l.minor } : l;
      return `<cns:PaymentFunctions><cns:OrderAssociation><cns:OrderRefID>${orderId}</cns:OrderRefID></cns:OrderAssociation><cns:PaymentProcessingDetails><cns:Amount CurCode="EUR">${(leg.amountMinor / 100).toFixed(2)}</cns:Amount><cns:PaymentMethod>${paymentMethodXml(leg)}</cns:PaymentMethod></cns:PaymentProcessingDetails></cns:PaymentFunctions>`;
    })
    .join("");
}

export interface Pick {
  offerItemId: string;
  paxId: string;
  qty?: number;
  /** SelectedSeat: the seat id (row and column, "12C"). */
  seat?: string;
}

/** SelectedOfferItem elements (SelectedOfferItemType: OrderChangeRQ and OrderQuoteRQ alike). */
function selectedItems(picks: readonly Pick[]): string {
  return picks
    .map((p) => {
      const seat = p.seat ? `<cns:SelectedSeat><cns:ColumnID>${p.seat.slice(-1)}</cns:ColumnID><cns:SeatRowNumber>${p.seat.slice(0, -1)}</cns:SeatRowNumber></cns:SelectedSeat>` : "";
      const alc = p.seat ? "" : `<cns:SelectedALaCarteOfferItem><cns:Qty>${p.qty ?? 1}</cns:Qty></cns:SelectedALaCarteOfferItem>`;
      return `<cns:SelectedOfferItem><cns:OfferItemRefID>${p.offerItemId}</cns:OfferItemRefID><cns:PaxRefID>${p.paxId}</cns:PaxRefID>${alc}${seat}</cns:SelectedOfferItem>`;
    })
    .join("");
}

/** OrderChangeRQ buying items of one listed offer for the booked order. */
export function addRQ(orderId: string, offerId: string, picks: readonly Pick[], legs: readonly PayLeg[], ids: { correlationId?: string; trxId?: string } = {}): string {
  const items = selectedItems(picks);
  const choice = `<cns:ChangeOrderChoice><cns:AcceptSelectedQuotedOfferList><cns:SelectedPricedOffer><cns:OfferRefID>${offerId}</cns:OfferRefID><cns:OwnerCode>XB</cns:OwnerCode>${items}</cns:SelectedPricedOffer></cns:AcceptSelectedQuotedOfferList></cns:ChangeOrderChoice>`;
  return orderChangeRQ(`${choice}<cns:Order><cns:OrderID>${orderId}</cns:OrderID><cns:OwnerCode>XB</cns:OwnerCode></cns:Order>${payment(orderId, legs)}`, { correlationId: ids.correlationId ?? `corr-add-${orderId}`, trxId: ids.trxId ?? "trx-1" });
}

const add = (inner: string) => `<cns:UpdateOrder><cns:ReshopOrder><cns:ReshopOrderChoice><cns:ServiceOrder><cns:AddOfferItems>${inner}</cns:AddOfferItems></cns:ServiceOrder></cns:ReshopOrderChoice></cns:ReshopOrder></cns:UpdateOrder>`;
const flightRequest = (f: { from: string; to: string; date: string }) =>
  `<cns:FlightRequest><cns:FlightRequestOriginDestinationsCriteria><cns:OriginDestCriteria><cns:DestArrivalCriteria><cns:IATA_LocationCode>${f.to}</cns:IATA_LocationCode></cns:DestArrivalCriteria><cns:OriginDepCriteria><cns:Date>${f.date}</cns:Date><cns:IATA_LocationCode>${f.from}</cns:IATA_LocationCode></cns:OriginDepCriteria></cns:OriginDestCriteria></cns:FlightRequestOriginDestinationsCriteria></cns:FlightRequest>`;

/** OrderReshopRQ, extras form: AddOfferItems (its required FlightRequest naming the order's flight) with OrderCriteria/ServiceCriteria. */
export function reshopExtrasRQ(orderId: string, flight: { from: string; to: string; date: string }, taxonomyCode?: string, correlationId?: string): string {
  const criteria = `<cns:OrderCriteria><cns:ServiceCriteria>${taxonomyCode ? `<cns:TaxonomyCode>${taxonomyCode}</cns:TaxonomyCode>` : ""}</cns:ServiceCriteria></cns:OrderCriteria>`;
  return ndcRequest("OrderReshopRQ", { request: `<cns:OrderRefID>${orderId}</cns:OrderRefID>${add(`${flightRequest(flight)}${criteria}`)}`, ...(correlationId ? { correlationId } : {}) });
}

/** OrderReshopRQ, seat form: one flight (OriginDestCriteria), one passenger (PaxList), one seat (SeatCriteria). */
export function reshopSeatRQ(orderId: string, flight: { from: string; to: string; date: string }, paxId: string, seatId: string): string {
  const seat = `<cns:OrderCriteria><cns:SeatCriteria><cns:ColumnID>${seatId.slice(-1)}</cns:ColumnID><cns:RowNumber>${seatId.slice(0, -1)}</cns:RowNumber></cns:SeatCriteria></cns:OrderCriteria>`;
  const pax = `<cns:PaxList><cns:Pax><cns:PaxID>${paxId}</cns:PaxID><cns:PTC>ADT</cns:PTC></cns:Pax></cns:PaxList>`;
  return ndcRequest("OrderReshopRQ", { request: `<cns:OrderRefID>${orderId}</cns:OrderRefID>${add(`${flightRequest(flight)}${seat}${pax}`)}` });
}

/** The OrderReshopRS offer (ReshopResults/ReshopOffers/ALaCarteOffer), read like a listing. */
export function reshopped(body: string): Listed {
  return listed(blocks(body, "ReshopOffers")[0]!);
}

/** OrderQuoteRQ (24.4: Payload, not Request): ExistingOrder and the SelectedOffers to price into a firm quote. */
export function quoteRQ(orderId: string, offerId: string, picks: readonly Pick[], ids: { correlationId?: string; trxId?: string } = {}): string {
  const items = selectedItems(picks);
  const payload = `<Payload><cns:ExistingOrder><cns:OrderID>${orderId}</cns:OrderID><cns:OwnerCode>XB</cns:OwnerCode></cns:ExistingOrder><cns:SelectedOffers><cns:OfferRefID>${offerId}</cns:OfferRefID><cns:OwnerCode>XB</cns:OwnerCode>${items}</cns:SelectedOffers></Payload>`;
  return ndcRequest("OrderQuoteRQ", { omitRequest: true, correlationId: ids.correlationId ?? `corr-quote-${orderId}`, trxId: ids.trxId ?? "trx-1" }).replace("</DistributionChain>", `</DistributionChain>${payload}`);
}
