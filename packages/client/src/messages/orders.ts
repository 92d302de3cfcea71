import { all, amountOf, at, kids, textAt } from "../xml/dom";
import { el, esc } from "../xml/envelope";
import { answer, selectedItems, totalOf, type Amount, type Answer, type SelectedOffer } from "./common";
import type { PassengerType } from "./party";

/** Request bodies and readers of the order messages: create, retrieve, list, history, change, reshop, quote, rules. */

export interface Passenger {
  paxId: string;
  ptc: PassengerType;
  givenName: string;
  surname: string;
  /** MR, MS, ... */
  title?: string;
  /** YYYY-MM-DD */
  birthdate?: string;
  email?: string;
}

/** A payment by a PSP card token (never a card number: the gateway refuses those). */
export interface CardPayment {
  amount: string;
  currency: string;
  cardToken: string;
}

function payment(p: CardPayment, orderId?: string): string {
  const association = orderId ? `<cns:OrderAssociation>${el("OrderRefID", orderId)}</cns:OrderAssociation>` : "";
  return `<cns:PaymentFunctions>${association}<cns:PaymentProcessingDetails><cns:Amount CurCode="${esc(p.currency)}">${esc(p.amount)}</cns:Amount><cns:PaymentMethod><cns:PaymentCard>${el("TokenizedCardID", p.cardToken)}</cns:PaymentCard></cns:PaymentMethod></cns:PaymentProcessingDetails></cns:PaymentFunctions>`;
}

function pax(p: Passenger): string {
  const contact = p.email ? el("ContactInfoRefID", `CI-${p.paxId}`) : "";
  return `<cns:Pax>${el("Birthdate", p.birthdate)}${contact}<cns:Individual>${el("GivenName", p.givenName)}${el("Surname", p.surname)}${el("TitleName", p.title)}</cns:Individual>${el("PaxID", p.paxId)}${el("PTC", p.ptc)}</cns:Pax>`;
}

export interface CreateRequest {
  offers: readonly SelectedOffer[];
  passengers: readonly Passenger[];
  /** Omitted: the order is held unpaid until its payment time limit (ORDWPM). */
  payment?: CardPayment;
}

export function createRequest(r: CreateRequest): string {
  const offers = r.offers.map((o) => `<cns:SelectedPricedOffer>${el("OfferRefID", o.offerId)}${el("OwnerCode", o.ownerCode)}${selectedItems(o.items)}</cns:SelectedPricedOffer>`).join("");
  const withEmail = r.passengers.filter((p) => p.email);
  const contacts = withEmail.length
    ? `<cns:ContactInfoList>${withEmail.map((p) => `<cns:ContactInfo>${el("ContactInfoID", `CI-${p.paxId}`)}<cns:EmailAddress>${el("EmailAddressText", p.email)}</cns:EmailAddress></cns:ContactInfo>`).join("")}</cns:ContactInfoList>`
    : "";
  return `<cns:CreateOrder><cns:AcceptSelectedQuotedOfferList>${offers}</cns:AcceptSelectedQuotedOfferList></cns:CreateOrder><cns:DataLists>${contacts}<cns:PaxList>${r.passengers.map(pax).join("")}</cns:PaxList></cns:DataLists>${r.payment ? payment(r.payment) : ""}`;
}

export interface OrderRef {
  orderId: string;
  ownerCode: string;
}

export function retrieveRequest(r: OrderRef): string {
  return `<cns:OrderValidationFilterCriteria><cns:OrderFilterCriteria>${el("OrderID", r.orderId)}${el("OwnerCode", r.ownerCode)}</cns:OrderFilterCriteria></cns:OrderValidationFilterCriteria>`;
}

export interface OrderView extends Answer {
  orderId: string;
  ownerCode: string;
  /** Order/StatusCode, e.g. BOOKED, PAYMENT_PENDING. */
  status: string;
  version?: string;
  /** When the gateway created the order, by its own clock (a sandbox's may run ahead). */
  createdAt?: string;
  total?: Amount;
  /** The earliest PaymentTimeLimitDateTime of a held order's items. */
  paymentTimeLimit?: string;
  items: { orderItemId: string; status?: string; price?: Amount }[];
  passengers: { paxId: string; ptc: string; givenName?: string; surname?: string }[];
}

export function readOrderView(xml: string): OrderView {
  const a = answer(xml);
  const order = at(a.root, "Response", "Order");
  if (!order) throw new Error(`${a.root.localName} holds no Order`);
  const limits = all(order, "PaymentTimeLimitDateTime").map((e) => e.textContent ?? "").sort();
  const paxes = at(a.root, "Response", "DataLists", "PaxList");
  return {
    ...a,
    orderId: textAt(order, "OrderID") ?? "",
    ownerCode: textAt(order, "OwnerCode") ?? "",
    status: textAt(order, "StatusCode") ?? "",
    version: textAt(order, "OrderVersionNumber"),
    createdAt: textAt(order, "CreationDateTime"),
    total: totalOf(order),
    paymentTimeLimit: limits[0],
    items: kids(order, "OrderItem").map((i) => ({ orderItemId: textAt(i, "OrderItemID") ?? "", status: textAt(i, "StatusCode"), price: amountOf(at(i, "Price", "TotalAmount")) })),
    passengers: paxes
      ? kids(paxes, "Pax").map((p) => ({ paxId: textAt(p, "PaxID") ?? "", ptc: textAt(p, "PTC") ?? "", givenName: textAt(p, "Individual", "GivenName"), surname: textAt(p, "Individual", "Surname") }))
      : [],
  };
}

export interface ListRequest {
  /** Orders created from this instant (ISO 8601). */
  createdFrom?: string;
  createdTo?: string;
}

export function listRequest(r: ListRequest): string {
  const range = r.createdFrom || r.createdTo ? `<cns:CreationDateTimeFilterCriteria>${el("FromDateTime", r.createdFrom)}${el("ToDateTime", r.createdTo)}</cns:CreationDateTimeFilterCriteria>` : "";
  return `<cns:OrderSearchFilterCriteria>${range}</cns:OrderSearchFilterCriteria>`;
}

export interface ListResult extends Answer {
  orders: { orderId: string; status?: string; createdAt?: string; origin?: string; destination?: string; departureDate?: string }[];
}

export function readList(xml: string): ListResult {
  const a = answer(xml);
  const response = at(a.root, "Response");
  return {
    ...a,
    orders: response
      ? kids(response, "MatchedOrder").map((m) => ({
          orderId: textAt(m, "OrderRefID") ?? "",
          status: textAt(m, "OrderStatusCode"),
          createdAt: textAt(m, "CreationDateTime"),
          origin: textAt(m, "Dep", "StationCode"),
          destination: textAt(m, "Arrival", "StationCode"),
          departureDate: textAt(m, "Dep", "DepDate"),
        }))
      : [],
  };
}

export function historyRequest(r: OrderRef): string {
  return `<cns:Order>${el("OrderID", r.orderId)}${el("OwnerCode", r.ownerCode)}</cns:Order>`;
}

export interface HistoryResult extends Answer {
  changes: { at: string; type: string; version?: string; reason?: string }[];
}

export function readHistory(xml: string): HistoryResult {
  const a = answer(xml);
  const response = at(a.root, "Response");
  const changes: HistoryResult["changes"] = [];
  for (const group of response ? kids(response, "ChangeGroup") : [])
    for (const og of kids(group, "ChangeOperationGroup"))
      for (const op of kids(og, "ChangeOperation"))
        changes.push({ at: textAt(op, "ChangeDateTime") ?? "", type: textAt(op, "ChangeTypeCode") ?? "", version: textAt(og, "OrderVersionNumber"), reason: textAt(op, "ReasonCode") });
  return { ...a, changes };
}

/** OrderChangeRQ paying a held order. */
export function payRequest(r: OrderRef & { payment: CardPayment }): string {
  return `<cns:Order>${el("OrderID", r.orderId)}${el("OwnerCode", r.ownerCode)}</cns:Order>${payment(r.payment, r.orderId)}`;
}

/** OrderChangeRQ correcting a passenger's name (UpdatePax). */
export function renameRequest(r: OrderRef & { paxId: string; givenName: string; surname: string; title?: string; useFlexibility?: boolean }): string {
  const pax = `<cns:Pax><cns:Individual>${el("GivenName", r.givenName)}${el("Surname", r.surname)}${el("TitleName", r.title)}</cns:Individual><cns:PaxID>PAXNEW</cns:PaxID></cns:Pax>`;
  return `<cns:ChangeOrderChoice><cns:UpdatePax><cns:Current>${el("PaxRefID", r.paxId)}</cns:Current><cns:New><cns:PaxRefID>PAXNEW</cns:PaxRefID></cns:New></cns:UpdatePax></cns:ChangeOrderChoice><cns:DataLists><cns:PaxList>${pax}</cns:PaxList></cns:DataLists><cns:Order>${el("OrderID", r.orderId)}${el("OwnerCode", r.ownerCode)}</cns:Order>${
    r.useFlexibility ? "<cns:OrderChangeParameters><cns:ReasonCode>FLEXIBILITY</cns:ReasonCode></cns:OrderChangeParameters>" : ""
  }`;
}

/** OrderChangeRQ accepting a cancel quote of OrderReshopRS (AcceptCancelledOffer). */
export function acceptCancelRequest(r: OrderRef & { offerId: string }): string {
  return `<cns:ChangeOrderChoice><cns:AcceptCancelledOffer>${el("OfferID", r.offerId)}${el("OwnerCode", r.ownerCode)}</cns:AcceptCancelledOffer></cns:ChangeOrderChoice><cns:Order>${el("OrderID", r.orderId)}${el("OwnerCode", r.ownerCode)}</cns:Order>`;
}

/** OrderReshopRQ asking what cancelling the whole order would refund (UpdateOrder/CancelOrderRef). */
export function cancelQuoteRequest(r: OrderRef): string {
  return `${el("OrderRefID", r.orderId)}<cns:UpdateOrder><cns:CancelOrderRef>${el("OrderRefID", r.orderId)}</cns:CancelOrderRef></cns:UpdateOrder>`;
}

/**
 * OrderReshopRQ asking for extras (by taxonomy code) that can be added to a booked order (ORDRE2).
 * The schema requires a FlightRequest: one of the order's flights (the gateway lists the extras of all of them).
 */
export function reshopServicesRequest(r: OrderRef & { taxonomyCode: string; flight: { origin: string; destination: string; date: string } }): string {
  const flight = `<cns:FlightRequest><cns:FlightRequestOriginDestinationsCriteria><cns:OriginDestCriteria><cns:DestArrivalCriteria>${el("IATA_LocationCode", r.flight.destination)}</cns:DestArrivalCriteria><cns:OriginDepCriteria>${el("Date", r.flight.date)}${el("IATA_LocationCode", r.flight.origin)}</cns:OriginDepCriteria></cns:OriginDestCriteria></cns:FlightRequestOriginDestinationsCriteria></cns:FlightRequest>`;
  return `${el("OrderRefID", r.orderId)}<cns:UpdateOrder><cns:ReshopOrder><cns:ReshopOrderChoice><cns:ServiceOrder><cns:AddOfferItems>${flight}<cns:OrderCriteria><cns:ServiceCriteria>${el("TaxonomyCode", r.taxonomyCode)}</cns:ServiceCriteria></cns:OrderCriteria></cns:AddOfferItems></cns:ServiceOrder></cns:ReshopOrderChoice></cns:ReshopOrder></cns:UpdateOrder>`;
}

export interface ReshopResult extends Answer {
  /** ReshopResults/ReshopOffers: a cancel quote (Offer, accepted by AcceptCancelledOffer) or extras to add (ALaCarteOffer). */
  offers: { offerId: string; total?: Amount; items: string[] }[];
}

export function readReshop(xml: string): ReshopResult {
  const a = answer(xml);
  const offers = all(a.root, "ReshopOffers").flatMap((ro) => kids(ro).filter((k) => k.localName === "Offer" || k.localName === "ALaCarteOffer"));
  return {
    ...a,
    offers: offers.map((o) => ({ offerId: textAt(o, "OfferID") ?? "", total: totalOf(o), items: kids(o, "OfferItem").map((i) => textAt(i, "OfferItemID") ?? "") })),
  };
}

/** OrderQuoteRQ (its content goes in `Payload`): a firm price for adding a reshopped offer to the order. */
export function quoteRequest(r: OrderRef & { offer: SelectedOffer }): string {
  return `<cns:ExistingOrder>${el("OrderID", r.orderId)}${el("OwnerCode", r.ownerCode)}</cns:ExistingOrder><cns:SelectedOffers>${el("OfferRefID", r.offer.offerId)}${el("OwnerCode", r.offer.ownerCode)}${selectedItems(r.offer.items)}</cns:SelectedOffers>`;
}

export function rulesRequest(r: OrderRef): string {
  return `<cns:RulesCoreRequest><cns:OrderStructureKey>${el("OrderID", r.orderId)}${el("OwnerCode", r.ownerCode)}</cns:OrderStructureKey></cns:RulesCoreRequest>`;
}

export interface RulesResult extends Answer {
  rules: { ruleCode?: string; remarks: string[] }[];
  penalties: { id: string; type?: string; appliesNow: boolean; amount?: Amount; text?: string }[];
}

export function readRules(xml: string): RulesResult {
  const a = answer(xml);
  const response = at(a.root, "Response");
  const rules = response ? kids(response, "Rules") : [];
  return {
    ...a,
    rules: rules.map((r) => ({ ruleCode: textAt(r, "FareRuleText", "RuleCode"), remarks: all(r, "RemarkText").map((e) => e.textContent ?? "") })),
    penalties: rules.flatMap((r) =>
      kids(r, "Penalty").map((p) => ({
        id: textAt(p, "PenaltyID") ?? "",
        type: textAt(p, "TypeCode"),
        appliesNow: textAt(p, "AppCode") === "APPLIES_NOW",
        amount: amountOf(at(p, "Price", "TotalAmount")),
        text: textAt(p, "DescText"),
      })),
    ),
  };
}
