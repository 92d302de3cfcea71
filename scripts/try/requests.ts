/**
 * The requests of `npm run try`, the same shapes as the example exchanges of docs/messages/:
 * DistributionChain with the Carrier only (the sandbox client sells as its own agency), a
 * CorrelationID per message and a TrxID on OrderCreateRQ.
 */
import type { ShoppedOffer } from "./read";

const MSG_NS = "http://www.iata.org/IATA/2015/EASD/00/IATA_OffersAndOrdersMessage";
const CNS_NS = "http://www.iata.org/IATA/2015/EASD/00/IATA_OffersAndOrdersCommonTypes";

function envelope(message: string, request: string, correlationId: string, trxId?: string): string {
  const root = `IATA_${message}`;
  const chain = `<DistributionChain><cns:DistributionChainLink><cns:Ordinal>1</cns:Ordinal><cns:OrgRole>Carrier</cns:OrgRole><cns:ParticipatingOrg><cns:OrgID>XB</cns:OrgID></cns:ParticipatingOrg></cns:DistributionChainLink></DistributionChain>`;
  const payload = `<PayloadAttributes><cns:CorrelationID>${correlationId}</cns:CorrelationID>${trxId ? `<cns:TrxID>${trxId}</cns:TrxID>` : ""}</PayloadAttributes>`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<${root} xmlns="${MSG_NS}" xmlns:cns="${CNS_NS}">${chain}${payload}<Request>${request}</Request></${root}>`;
}

const EUR = "<cns:ResponseParameters><cns:CurParameter><cns:CurCode>EUR</cns:CurCode></cns:CurParameter></cns:ResponseParameters>";
const PAX = "<cns:PaxList><cns:Pax><cns:PaxID>PAX1</cns:PaxID><cns:PTC>ADT</cns:PTC></cns:Pax></cns:PaxList>";

export function airShoppingRQ(o: { from: string; to: string; date: string; correlationId: string }): string {
  const od = `<cns:OriginDestCriteria><cns:DestArrivalCriteria><cns:IATA_LocationCode>${o.to}</cns:IATA_LocationCode></cns:DestArrivalCriteria><cns:OriginDepCriteria><cns:Date>${o.date}</cns:Date><cns:IATA_LocationCode>${o.from}</cns:IATA_LocationCode></cns:OriginDepCriteria><cns:OriginDestID>OD1</cns:OriginDestID></cns:OriginDestCriteria>`;
  return envelope("AirShoppingRQ", `<cns:FlightRequest><cns:FlightRequestOriginDestinationsCriteria>${od}</cns:FlightRequestOriginDestinationsCriteria></cns:FlightRequest>${PAX}${EUR}`, o.correlationId);
}

const selectedItems = (ids: string[]) => ids.map((id) => `<cns:SelectedOfferItem><cns:OfferItemRefID>${id}</cns:OfferItemRefID><cns:PaxRefID>PAX1</cns:PaxRefID></cns:SelectedOfferItem>`).join("");

export function offerPriceRQ(o: { offer: ShoppedOffer; correlationId: string }): string {
  const selected = `<cns:SelectedOffer><cns:OfferRefID>${o.offer.offerId}</cns:OfferRefID><cns:OwnerCode>XB</cns:OwnerCode>${selectedItems(o.offer.itemIds)}</cns:SelectedOffer>`;
  return envelope("OfferPriceRQ", `<cns:PricedOffer><cns:SelectedOfferList>${selected}</cns:SelectedOfferList></cns:PricedOffer>${EUR}`, o.correlationId);
}

export function seatAvailabilityRQ(o: { offerId: string; correlationId: string }): string {
  const core = `<cns:SeatAvailCoreRequest><cns:OfferRequest><cns:Offer><cns:OfferID>${o.offerId}</cns:OfferID><cns:OwnerCode>XB</cns:OwnerCode></cns:Offer></cns:OfferRequest></cns:SeatAvailCoreRequest>`;
  return envelope("SeatAvailabilityRQ", `${EUR}${core}`, o.correlationId);
}

/** Flight and one seat for one adult, paid in one card leg with a sandbox PSP token (never a card number). */
export function orderCreateRQ(o: {
  offer: ShoppedOffer;
  seat: { offerId: string; itemId: string };
  amount: string;
  correlationId: string;
  trxId: string;
}): string {
  const flight = `<cns:SelectedPricedOffer><cns:OfferRefID>${o.offer.offerId}</cns:OfferRefID><cns:OwnerCode>XB</cns:OwnerCode>${selectedItems(o.offer.itemIds)}</cns:SelectedPricedOffer>`;
  const seat = `<cns:SelectedPricedOffer><cns:OfferRefID>${o.seat.offerId}</cns:OfferRefID><cns:OwnerCode>XB</cns:OwnerCode>${selectedItems([o.seat.itemId])}</cns:SelectedPricedOffer>`;
  const pax = `<cns:PaxList><cns:Pax><cns:Birthdate>1980-02-03</cns:Birthdate><cns:Individual><cns:GivenName>Sandbox</cns:GivenName><cns:Surname>TRAVELLER</cns:Surname><cns:TitleName>MR</cns:TitleName></cns:Individual><cns:PaxID>PAX1</cns:PaxID><cns:PTC>ADT</cns:PTC></cns:Pax></cns:PaxList>`;
  const payment = `<cns:PaymentFunctions><cns:PaymentProcessingDetails><cns:Amount CurCode="EUR">${o.amount}</cns:Amount><cns:PaymentMethod><cns:PaymentCard><cns:TokenizedCardID>tok_approve_visa</cns:TokenizedCardID></cns:PaymentCard></cns:PaymentMethod></cns:PaymentProcessingDetails></cns:PaymentFunctions>`;
  const request = `<cns:CreateOrder><cns:AcceptSelectedQuotedOfferList>${flight}${seat}</cns:AcceptSelectedQuotedOfferList></cns:CreateOrder><cns:DataLists>${pax}</cns:DataLists>${payment}`;
  return envelope("OrderCreateRQ", request, o.correlationId, o.trxId);
}

export function orderRetrieveRQ(o: { orderId: string; correlationId: string }): string {
  const request = `<cns:OrderValidationFilterCriteria><cns:OrderFilterCriteria><cns:OrderID>${o.orderId}</cns:OrderID><cns:OwnerCode>XB</cns:OwnerCode></cns:OrderFilterCriteria></cns:OrderValidationFilterCriteria>`;
  return envelope("OrderRetrieveRQ", request, o.correlationId);
}
