/** OrderCreateRQ / OrderRetrieveRQ through the real HTTP stack: shop first, then book what was shopped. */
import { expect } from "bun:test";
import { registerAgency, registerClient } from "@ndc/auth";
import { ManualClock } from "@ndc/clock";
import { startTestGateway, type NdcReply, type TestGateway } from "../support/gateway";
import { assertSchemaValid } from "../support/xsd";
import { ndcRequest } from "../support/requests";
import { dayAfter, saleDay, T0 } from "../support/dates";
import { airShoppingRQ, all, blocks } from "../shopping/shop-requests";
import { seatAvailabilityRQ } from "../shopping/seat-availability-helpers";

export { T0 };
/** The travel day of these tests: 52 days after the test clock's start (2027-01-12 for T0). */
export const TRAVEL_DATE = dayAfter(T0, 52);
/** TRAVEL_DATE's place in the sale window of the gateway `t` (the same day for every gateway started at T0). */
export const travelDateOf = (t: object): string => saleDay(t, 52);
/** A document number distinctive enough that finding it anywhere is a leak. */
export const DOC_NUMBER = "QZ7731XK0946";
/** Luhn-valid Visa test number: must be refused and never stored or logged. */
export const CARD_NUMBER = "4111111111111111";

export async function gateway(): Promise<{ t: TestGateway; clock: ManualClock }> {
  const clock = new ManualClock(T0);
  const t = await startTestGateway({ SUPPLY_SEED: "xb-sandbox-1" }, clock);
  return { t, clock };
}

export interface Shopped {
  offerId: string;
  itemIds: string[];
  /** Minor units of EUR the whole selection costs. */
  totalMinor: number;
  /** PaxRefIDs per item (same order as itemIds), as the offer states them; absent: every passenger. */
  itemPax?: string[][];
  /** Seats from SeatAvailabilityRQ: one per passenger, in passenger order. */
  seat?: { offerId: string; itemIds: string[]; priceMinor: number };
}

const minor = (s: string) => Math.round(Number(s) * 100);
export const decimal = (m: number) => (m / 100).toFixed(2);

/** AirShoppingRQ over HTTP; the first offer, optionally with a seat from SeatAvailabilityRQ. */
/** A flight whose seat map has nothing left to sell (every seat occupied or blocked): a caller may try another offer. */
export class NoSeatToSell extends Error {
  constructor(offerId: string, seats: number) {
    super(`SeatAvailabilityRS for ${offerId} has no seat to sell (${seats} seats, none free)`);
  }
}

export async function shopOffer(t: Pick<TestGateway, "ndc">, o: { pax?: number; seat?: boolean; headers?: Record<string, string>; n?: number; date?: string } = {}): Promise<Shopped> {
  const pax = Array.from({ length: o.pax ?? 1 }, (_, i) => [`PAX${i + 1}`, "ADT"] as [string, string]);
  const shop = await t.ndc("AirShoppingRQ", airShoppingRQ({ legs: [{ from: "LHR", to: "CDG", date: o.date ?? travelDateOf(t) }], pax, currency: "EUR" }), { headers: o.headers });
  expect(shop.status).toBe(200);
  const offer = blocks(shop.body, "Offer")[o.n ?? 0]!;
  const offerId = all(offer, "OfferID")[0]!;
  const total = all(blocks(offer, "TotalPrice")[0]!, "TotalAmount")[0]!;
  const out: Shopped = { offerId, itemIds: all(offer, "OfferItemID"), totalMinor: minor(total) };
  if (o.seat) {
    const sa = await t.ndc("SeatAvailabilityRQ", seatAvailabilityRQ({ offerId, currency: "EUR" }), { headers: o.headers });
    expect(sa.status).toBe(200);
    const alc = blocks(sa.body, "ALaCarteOffer")[0];
    if (!alc) throw new NoSeatToSell(offerId, all(sa.body, "OccupationStatusCode").length);
    const items = blocks(alc, "OfferItem").slice(0, o.pax ?? 1);
    const price = items.reduce((sum, item) => sum + minor(all(item, "TotalAmount")[0]!), 0);
    out.seat = { offerId: all(alc, "OfferID")[0]!, itemIds: items.map((item) => all(item, "OfferItemID")[0]!), priceMinor: price };
    out.totalMinor += price;
  }
  return out;
}

export interface PaxSpec {
  id: string;
  surname: string;
  given?: string;
  doc?: { number: string; type?: string; surname?: string; expiry?: string };
  email?: string;
}

export type Leg =
  | { kind: "card"; token: string; amountMinor: number }
  | { kind: "cardNumber"; number: string; amountMinor: number }
  | { kind: "voucher"; code: string; amountMinor: number }
  | { kind: "settlement"; method: "CA" | "DP" | "MS"; amountMinor: number }
  | { kind: "loyalty"; account: string; certificate: string; amountMinor: number };

/** A leg's PaymentMethod content (shared with the OrderChangeRQ builders of test/servicing). */
export function paymentMethodXml(l: Leg): string {
  return (
    l.kind === "card"
      ? `<cns:PaymentCard><cns:TokenizedCardID>${l.token}</cns:TokenizedCardID></cns:PaymentCard>`
      : l.kind === "cardNumber"
        ? `<cns:PaymentCard><cns:CardNumber>${l.number}</cns:CardNumber></cns:PaymentCard>`
        : l.kind === "voucher"
          ? `<cns:Voucher><cns:VoucherID>${l.code}</cns:VoucherID></cns:Voucher>`
          : l.kind === "loyalty"
            ? `<cns:LoyaltyRedemption><cns:CertificateNumber>${l.certificate}</cns:CertificateNumber><cns:LoyaltyProgramAccount><cns:AccountNumber>${l.account}</cns:AccountNumber><cns:LoyaltyProgram><cns:Carrier><cns:AirlineDesigCode>XB</cns:AirlineDesigCode></cns:Carrier></cns:LoyaltyProgram></cns:LoyaltyProgramAccount></cns:LoyaltyRedemption>`
            : `<cns:SettlementPlan><cns:PaymentTypeCode>${l.method}</cns:PaymentTypeCode></cns:SettlementPlan>`
  );
}

function legXml(l: Leg): string {
  return `<cns:PaymentFunctions><cns:PaymentProcessingDetails><cns:Amount CurCode="EUR">${decimal(l.amountMinor)}</cns:Amount><cns:PaymentMethod>${paymentMethodXml(l)}</cns:PaymentMethod></cns:PaymentProcessingDetails></cns:PaymentFunctions>`;
}

function paxXml(p: PaxSpec): string {
  const doc = p.doc
    ? `<cns:IdentityDoc><cns:CitizenshipCountryCode>GB</cns:CitizenshipCountryCode><cns:ExpiryDate>${p.doc.expiry ?? "2032-03-01"}</cns:ExpiryDate><cns:IdentityDocID>${p.doc.number}</cns:IdentityDocID><cns:IdentityDocTypeCode>${p.doc.type ?? "PT"}</cns:IdentityDocTypeCode><cns:IssuingCountryCode>GB</cns:IssuingCountryCode><cns:Surname>${p.doc.surname ?? p.surname}</cns:Surname></cns:IdentityDoc>`
    : "";
  const contact = p.email ? `<cns:ContactInfoRefID>CI-${p.id}</cns:ContactInfoRefID>` : "";
  return `<cns:Pax><cns:Birthdate>1980-02-03</cns:Birthdate>${contact}${doc}<cns:Individual><cns:GivenName>${p.given ?? "Alex"}</cns:GivenName><cns:Surname>${p.surname}</cns:Surname><cns:TitleName>MR</cns:TitleName></cns:Individual><cns:PaxID>${p.id}</cns:PaxID><cns:PTC>ADT</cns:PTC></cns:Pax>`;
}

export interface CreateOpts {
  shopped: Shopped;
  pax?: PaxSpec[];
  legs?: Leg[];
  correlationId?: string;
  trxId?: string;
  /** AcceptOrderItemList (flight items only) instead of AcceptSelectedQuotedOfferList. */
  itemList?: boolean;
  /** DistributionChain Seller OrgID (a settlement plan pays through this agency's account). */
  seller?: string;
  /** PaymentFunctions written out by the test, after the legs (a method named for later, 3-D Secure results). */
  paymentFunctionsXml?: string;
}

export function orderCreateRQ(o: CreateOpts): string {
  const pax = o.pax ?? [{ id: "PAX1", surname: "TRAVELLER" }];
  const paxIds = pax.map((p) => `<cns:PaxRefID>${p.id}</cns:PaxRefID>`).join("");
  const s = o.shopped;
  const create = o.itemList
    ? `<cns:AcceptOrderItemList>${s.itemIds.map((id) => `<cns:CreateOrderItem><cns:OfferItemRefID>${id}</cns:OfferItemRefID><cns:OwnerCode>XB</cns:OwnerCode></cns:CreateOrderItem>`).join("")}</cns:AcceptOrderItemList>`
    : `<cns:AcceptSelectedQuotedOfferList><cns:SelectedPricedOffer><cns:OfferRefID>${s.offerId}</cns:OfferRefID><cns:OwnerCode>XB</cns:OwnerCode>${s.itemIds
        .map((id, i) => `<cns:SelectedOfferItem><cns:OfferItemRefID>${id}</cns:OfferItemRefID>${s.itemPax?.[i]?.map((p) => `<cns:PaxRefID>${p}</cns:PaxRefID>`).join("") ?? paxIds}</cns:SelectedOfferItem>`)
        .join("")}</cns:SelectedPricedOffer>${
        s.seat
          ? `<cns:SelectedPricedOffer><cns:OfferRefID>${s.seat.offerId}</cns:OfferRefID><cns:OwnerCode>XB</cns:OwnerCode>${s.seat.itemIds
              .map((id, i) => `<cns:SelectedOfferItem><cns:OfferItemRefID>${id}</cns:OfferItemRefID><cns:PaxRefID>${(pax[i] ?? pax[0]!).id}</cns:PaxRefID></cns:SelectedOfferItem>`)
              .join("")}</cns:SelectedPricedOffer>`
          : ""
      }</cns:AcceptSelectedQuotedOfferList>`;
  const contacts = pax.filter((p) => p.email);
  const contactList = contacts.length
    ? `<cns:ContactInfoList>${contacts.map((p) => `<cns:ContactInfo><cns:ContactInfoID>CI-${p.id}</cns:ContactInfoID><cns:EmailAddress><cns:EmailAddressText>${p.email}</cns:EmailAddressText></cns:EmailAddress></cns:ContactInfo>`).join("")}</cns:ContactInfoList>`
    : "";
  const request = `<cns:CreateOrder>${create}</cns:CreateOrder><cns:DataLists>${contactList}<cns:PaxList>${pax.map(paxXml).join("")}</cns:PaxList></cns:DataLists>${(o.legs ?? []).map(legXml).join("")}${o.paymentFunctionsXml ?? ""}`;
  return ndcRequest("OrderCreateRQ", { request, correlationId: o.correlationId, trxId: o.trxId, seller: o.seller });
}

export function orderRetrieveRQ(orderId: string, o: { correlationId?: string; ownerCode?: string } = {}): string {
  const request = `<cns:OrderValidationFilterCriteria><cns:OrderFilterCriteria><cns:OrderID>${orderId}</cns:OrderID><cns:OwnerCode>${o.ownerCode ?? "XB"}</cns:OwnerCode></cns:OrderFilterCriteria></cns:OrderValidationFilterCriteria>`;
  return ndcRequest("OrderRetrieveRQ", { request, correlationId: o.correlationId });
}

/** The first OrderID of an OrderViewRS. */
export const orderIdOf = (xml: string) => all(xml, "OrderID")[0]!;

/** Registers another agency with its own client and returns headers that authenticate as it. */
export async function otherSeller(t: TestGateway, agencyId = "AGY-OTHER"): Promise<Record<string, string>> {
  await registerAgency(t.gw.store, { agencyId, iataNumber: "12345678", name: "Other agency" });
  const c = await registerClient(t.gw.store, { agency: agencyId, scopes: "ndc:shop ndc:order ndc:order:write ndc:payment" });
  const basic = `Basic ${Buffer.from(`${encodeURIComponent(c.clientId)}:${encodeURIComponent(c.clientSecret)}`).toString("base64")}`;
  const res = await t.fetch("/oauth/token", { method: "POST", headers: { authorization: basic, "content-type": "application/x-www-form-urlencoded" }, body: "grant_type=client_credentials" });
  expect(res.status).toBe(200);
  const token = ((await res.json()) as { access_token: string }).access_token;
  return { authorization: `Bearer ${token}` };
}

/** t.ndc with exactly these credentials (t.ndc always adds the sandbox API key). XSD-checked. */
export async function ndcAs(t: TestGateway, headers: Record<string, string>, message: string, body: string): Promise<NdcReply> {
  const res = await t.fetch(`/24.4/${message}`, {
    method: "POST",
    headers: { "content-type": "application/xml", "iata-message-name": `IATA_${message}`, ...headers },
    body,
  });
  const text = await res.text();
  if (res.headers.get("content-type")?.startsWith("application/xml")) assertSchemaValid(text);
  return { status: res.status, headers: res.headers, body: text };
}
