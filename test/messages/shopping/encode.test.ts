import { describe, expect, test } from "bun:test";
import {
  MESSAGES,
  emptyDataLists,
  encodeAirShoppingRS,
  encodeOfferPriceRS,
  encodeSeatAvailabilityRS,
  encodeServiceListRS,
  formatMoney,
  money,
  type AirShoppingView,
} from "@ndc/messages";
import { responseDocument, type XNode } from "@ndc/xml";
import { validateXml } from "../../support/xsd";
import { dataLists, offers, price, seatMap, seatOffer, servicesOffer } from "./views";

function doc(message: string, response: XNode): string {
  const spec = MESSAGES.find((m) => m.name === message)!;
  return responseDocument(spec.response, response, { simulated: true, correlationId: "corr-enc", trxId: "trx-enc" });
}

function expectValid(xml: string): void {
  const v = validateXml(xml);
  if (!v.ok) throw new Error(`${v.output}\n${xml.slice(0, 3000)}`);
  expect(v.ok).toBe(true);
}

const processing = { currency: { code: "EUR", decimals: 2 }, contentLanguages: ["es", "en"] };
const warnings = [
  { code: "content_language_fallback" as const, detail: "Seat descriptions are in English." },
  { code: "fare_conditions_supplier" as const, element: "Response/OffersGroup" },
  { code: "services_not_listed", text: "Lounge services were not listed: the catalogue did not answer in time (transient)." },
];

describe("money is exact and rendered with the currency's decimals", () => {
  test.each([
    [1234, 2, "12.34"],
    [5, 2, "0.05"],
    [-5, 2, "-0.05"],
    [0, 2, "0.00"],
    [700, 0, "700"],
    [1234567, 3, "1234.567"],
  ])("%d minor units with %d decimals is %s", (minor, decimals, text) => {
    expect(formatMoney(money(minor, "XXX", decimals))).toBe(text);
  });
  test("a fractional minor amount is refused, never rounded", () => {
    expect(() => formatMoney(money(10.5, "EUR"))).toThrow(RangeError);
  });
});

describe("AirShoppingRS encoder", () => {
  const view = (): AirShoppingView => ({
    ownerCode: "XB",
    offers: offers(),
    aLaCarteOffers: [servicesOffer()],
    dataLists: dataLists(),
    processing,
    warnings,
  });

  test("rich result: 2 offers, 3 passengers, connection, return, a-la-carte, taxonomy, adjustments, warnings", () => {
    const xml = doc("AirShoppingRQ", encodeAirShoppingRS(view()));
    expectValid(xml);
    expect(xml).toContain("<cns:MatchedOfferQty>2</cns:MatchedOfferQty>");
    expect(xml).toContain('<cns:TotalAmount CurCode="EUR">');
    expect(xml).toContain('<cns:DiscountAmount CurCode="EUR">12.00</cns:DiscountAmount>');
    expect(xml).toContain("<cns:KeyText>PROMO-NDC10</cns:KeyText>");
    expect(xml).toContain("<cns:DesigText>SUR-PEAK</cns:DesigText>");
    expect(xml).toContain("<cns:TaxonomyCode>1B58</cns:TaxonomyCode>");
    expect(xml).toContain("<cns:DescText>Airport services &gt; Lounge access</cns:DescText>");
    expect(xml).toContain("<cns:DescText>Sala VIP</cns:DescText><cns:URL>https://media.example.test/lounge.jpg</cns:URL>");
    expect(xml).toContain("<cns:LangUsage><cns:LangCode>es</cns:LangCode></cns:LangUsage><cns:LangUsage><cns:LangCode>en</cns:LangCode></cns:LangUsage>");
    expect(xml).toContain("<cns:Code>content_language_fallback</cns:Code>");
    expect(xml).toContain("<cns:Code>services_not_listed</cns:Code>");
    expect(xml).toContain("<cns:TagText>Response/OffersGroup</cns:TagText>");
    expect(xml).toContain("<cns:OfferExpirationTimeLimitDateTime>2027-03-01T12:30:00Z</cns:OfferExpirationTimeLimitDateTime>");
  });

  test("carrier, operator and aircraft names pass through untouched", () => {
    const xml = doc("AirShoppingRQ", encodeAirShoppingRS(view()));
    expect(xml).toContain("<cns:CarrierName>Example Air</cns:CarrierName>");
    expect(xml).toContain("<cns:CarrierName>Partner Regional &amp; Co</cns:CarrierName>");
    expect(xml).toContain("<cns:CarrierAircraftTypeName>Airbus A320neo 'Sky'</cns:CarrierAircraftTypeName>");
  });

  test("baggage: pieces and kg per piece; the brand with no allowance states nothing", () => {
    const xml = doc("AirShoppingRQ", encodeAirShoppingRS(view()));
    expect(xml).toContain("<cns:PieceAllowance><cns:TotalQty>2</cns:TotalQty></cns:PieceAllowance>");
    expect(xml).toContain("<cns:MaximumWeightMeasure>23</cns:MaximumWeightMeasure><cns:WeightUnitOfMeasurement>KGM</cns:WeightUnitOfMeasurement>");
    expect(xml).toContain("<cns:TypeCode>CarryOn</cns:TypeCode>");
    const light = xml.slice(xml.indexOf("<cns:OfferID>OF-2</cns:OfferID>") - 2000, xml.indexOf("<cns:OfferID>OF-2</cns:OfferID>"));
    const lightOffer = light.slice(light.lastIndexOf("<cns:Offer>"));
    expect(lightOffer).not.toContain("BaggageAssociations");
    expect(xml.match(/<cns:BaggageAssociations>/g)).toHaveLength(1);
  });

  test("fare conditions of both brands", () => {
    const xml = doc("AirShoppingRQ", encodeAirShoppingRS(view()));
    expect(xml).toContain("<cns:ChangeTypeCode>Flight</cns:ChangeTypeCode>");
    expect(xml).toContain("<cns:ChangeTypeCode>Name</cns:ChangeTypeCode>");
    expect(xml).toContain("<cns:Refund><cns:LevelTypeCode>Full</cns:LevelTypeCode></cns:Refund>");
    expect(xml).toContain("<cns:Refund><cns:LevelTypeCode>None</cns:LevelTypeCode></cns:Refund>");
  });

  test("empty result is valid: one empty CarrierOffers, no DataLists", () => {
    const xml = doc("AirShoppingRQ", encodeAirShoppingRS({ ownerCode: "XB", offers: [], aLaCarteOffers: [], dataLists: emptyDataLists(), warnings: [] }));
    expectValid(xml);
    expect(xml).toContain("<cns:CarrierOffers/>");
    expect(xml).not.toContain("DataLists");
  });

  test("an a-la-carte offer narrowed to nothing is left out", () => {
    const empty = { ...servicesOffer(), items: [] };
    const xml = doc("AirShoppingRQ", encodeAirShoppingRS({ ...view(), aLaCarteOffers: [empty] }));
    expectValid(xml);
    expect(xml).not.toContain("ALaCarteOffer");
  });

  test("IdentityDoc is never in a response", () => {
    expect(doc("AirShoppingRQ", encodeAirShoppingRS(view()))).not.toContain("IdentityDoc");
  });
});

describe("OfferPriceRS encoder", () => {
  test("priced offer with a priced seat and a service, other a-la-carte offers, warnings", () => {
    const priced = offers()[0]!;
    priced.items.push({
      offerItemId: "OF-1-SEAT",
      price: price(1800, [["VAT", 360]]),
      services: [{ serviceId: "SV-SEAT-12A", paxIds: ["PAX1"], association: { kind: "seat", row: 12, column: "A", paxSegmentId: "S1", characteristics: ["W"], seatProfileId: "SP-XL", serviceDefinitionId: "SD-SEAT" } }],
      taxonomy: [{ code: "0B5A" }],
    });
    priced.items.push({
      offerItemId: "OF-1-TOUR",
      price: price(4500, []),
      services: [{ serviceId: "SV-TOUR-AM", paxIds: ["PAX1"], association: { kind: "serviceDefinition", serviceDefinitionId: "SD-TOUR-AM", flights: { kind: "paxSegments", ids: ["S2"] } }, serviceRefId: "SD-TOUR", description: "Morning tour" }],
    });
    const xml = doc("OfferPriceRQ", encodeOfferPriceRS({ pricedOffer: priced, otherALaCarteOffers: [servicesOffer("ALC-2")], dataLists: dataLists(), processing, warnings }));
    expectValid(xml);
    expect(xml).toContain("<cns:PricedOffer>");
    expect(xml).toContain("<cns:SeatAssignment><cns:Seat><cns:ColumnID>A</cns:ColumnID><cns:RowNumber>12</cns:RowNumber>");
    expect(xml).toContain("<cns:OtherOffers><cns:ALaCarteOffer>");
  });

  test("minimal priced offer with no lists, no processing, no warnings", () => {
    const o = offers()[1]!;
    const xml = doc("OfferPriceRQ", encodeOfferPriceRS({ pricedOffer: { ...o, items: [o.items[0]!], totalPrice: undefined }, dataLists: emptyDataLists(), warnings: [] }));
    expectValid(xml);
  });
});

describe("SeatAvailabilityRS encoder", () => {
  test("seat map with priced, free, occupied and blocked seats", () => {
    const xml = doc("SeatAvailabilityRQ", encodeSeatAvailabilityRS({ aLaCarteOffer: seatOffer(), dataLists: dataLists(), seatMaps: [seatMap()], processing, warnings: [warnings[0]!] }));
    expectValid(xml);
    expect(xml).toContain("<cns:OccupationStatusCode>F</cns:OccupationStatusCode><cns:OfferItemRefID>SEAT-XL</cns:OfferItemRefID>");
    expect(xml).toContain("<cns:OfferItemRefID>SEAT-FREE</cns:OfferItemRefID>");
    expect(xml).toContain('<cns:TotalAmount CurCode="EUR">0.00</cns:TotalAmount>');
    expect(xml).toContain("<cns:OccupationStatusCode>O</cns:OccupationStatusCode>");
    expect(xml).toContain("<cns:OccupationStatusCode>Z</cns:OccupationStatusCode>");
    expect(xml).not.toContain("<cns:RowNumber>13</cns:RowNumber>");
    expect(xml).toContain('<cns:SeatPitchMeasure UnitCode="Inches">34</cns:SeatPitchMeasure>');
    expect(xml).toContain("<cns:DescText>Asiento XL</cns:DescText>");
  });

  test("smallest valid answer: one seat map with an empty cabin, nothing else", () => {
    const xml = doc("SeatAvailabilityRQ", encodeSeatAvailabilityRS({ dataLists: emptyDataLists(), seatMaps: [{ paxSegmentId: "S1", cabins: [{ cabinTypeCode: "M", firstRow: 1, lastRow: 1, columns: [], rows: [] }] }], warnings: [] }));
    expectValid(xml);
  });

  test("no seat map at all is a caller bug (answer an Error instead)", () => {
    expect(() => encodeSeatAvailabilityRS({ dataLists: emptyDataLists(), seatMaps: [], warnings: [] })).toThrow();
  });
});

describe("ServiceListRS encoder", () => {
  test("full ServiceDefinitionList and priced items per journey/segment and passenger", () => {
    const xml = doc("ServiceListRQ", encodeServiceListRS({ aLaCarteOffer: servicesOffer(), dataLists: dataLists(), processing, warnings }));
    expectValid(xml);
    expect(xml.match(/<cns:ServiceDefinition>/g)).toHaveLength(6);
    expect(xml).toContain("<cns:ServiceBundle><cns:MaximumServiceQty>1</cns:MaximumServiceQty>");
    expect(xml).toContain("<cns:RFIC>C</cns:RFIC><cns:RFISC>0CC</cns:RFISC>");
  });

  test("empty list is valid", () => {
    const xml = doc("ServiceListRQ", encodeServiceListRS({ dataLists: emptyDataLists(), warnings: [warnings[2]!] }));
    expectValid(xml);
    expect(xml).not.toContain("ALaCarteOffer");
  });
});

describe("encoder guards", () => {
  test("a media id missing from the media list is a caller bug", () => {
    const d = dataLists();
    d.media = [];
    expect(() => encodeServiceListRS({ dataLists: d, warnings: [] })).toThrow(/Media M-FLEX/);
  });
  test("a warning code outside the catalogue needs its own text", () => {
    expect(() => encodeServiceListRS({ dataLists: emptyDataLists(), warnings: [{ code: "made_up" as never }] })).toThrow(/catalogue/);
  });
});
