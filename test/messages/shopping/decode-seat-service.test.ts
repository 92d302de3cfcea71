import { describe, expect, test } from "bun:test";
import { decodeSeatAvailabilityRQ, decodeServiceListRQ } from "@ndc/messages";
import { decodeFixture, expectInvalid } from "./helpers";

const seat = (name: string, edit?: [string | RegExp, string]) => decodeFixture(decodeSeatAvailabilityRQ, name, edit);
const list = (name: string, edit?: [string | RegExp, string]) => decodeFixture(decodeServiceListRQ, name, edit);

describe("SeatAvailabilityRQ decoder", () => {
  test("offer form with an item narrowed to a passenger and segment", () => {
    const r = seat("seat-availability-offer.xml");
    expect(r.target).toEqual({
      form: "offer",
      offers: [
        {
          offerId: "OF-1",
          ownerCode: "XB",
          items: [{ id: "OF-1-ADT", paxIds: ["PAX1"], paxSegmentIds: ["S1"], datedOperatingLegIds: [], serviceIds: [] }],
        },
      ],
    });
    expect(r.preferences.language).toBe("ja");
  });

  test("IdentityDoc on Request/Pax is never decoded, and a nonsense one is not refused", () => {
    const r = seat("seat-availability-offer.xml");
    expect(r.passengers).toEqual([
      { paxId: "PAX1", ptc: "ADT", ptcSource: "PTC" },
      { paxId: "PAX2", ptc: "CHD", ptcSource: "PTC" },
    ]);
    const json = JSON.stringify(r);
    for (const secret of ["X1234567", "HIDDENNAME", "not even valid", "???"]) expect(json).not.toContain(secret);
  });

  test("flight-segment form (PaxSegmentRequest)", () => {
    const r = seat("seat-availability-segment.xml");
    expect(r.target).toEqual({
      form: "paxSegment",
      segments: [
        { paxSegmentId: "S7", marketingCarrier: "XB", flightNumber: "4711", origin: "ZRH", destination: "VIE", departureDate: "2027-07-01", departureTime: "17:45", cabinCode: "Y" },
      ],
    });
  });

  test("Offer without OwnerCode", () => {
    expectInvalid(() => seat("seat-availability-offer.xml", ["<cns:OwnerCode>XB</cns:OwnerCode>", ""]), "Request/SeatAvailCoreRequest/OfferRequest/Offer[1]/OwnerCode");
  });
  test("Offer without OfferID", () => {
    expectInvalid(() => seat("seat-availability-offer.xml", ["<cns:OfferID>OF-1</cns:OfferID>", ""]), "Request/SeatAvailCoreRequest/OfferRequest/Offer[1]/OfferID");
  });
  test("no SeatAvailCoreRequest", () => {
    expectInvalid(() => seat("seat-availability-offer.xml", [/<cns:SeatAvailCoreRequest>[\s\S]*<\/cns:SeatAvailCoreRequest>/, ""]), "Request/SeatAvailCoreRequest");
  });
  test("segment with no scheduled departure", () => {
    expectInvalid(
      () => seat("seat-availability-segment.xml", ["<cns:AircraftScheduledDateTime>2027-07-01T17:45:00Z</cns:AircraftScheduledDateTime>", ""]),
      "Request/DatedMarketingSegmentList/DatedMarketingSegment[1]/Dep/AircraftScheduledDateTime",
    );
  });
});

describe("ServiceListRQ decoder", () => {
  test("offer form with taxonomy and RFIC criteria (IncludeInd 0, PrefLevel Exclude)", () => {
    const r = list("service-list-offer.xml");
    expect(r.target).toEqual({ form: "offer", offers: [{ offerId: "OF-1", ownerCode: "XB", items: [] }] });
    expect(r.serviceCriteria).toEqual([
      { include: true, rfisc: [], taxonomyCodes: ["1B58", "26AC"] },
      { include: false, rfic: "G", rfisc: [], taxonomyCodes: [], preference: "Exclude" },
    ]);
    expect(r.preferences).toMatchObject({ language: "it", languageSource: "PrimaryLangID" });
    expect(JSON.stringify(r)).not.toContain("X1234567");
  });

  test("booked-order form (OrderRequest/Order/OrderID)", () => {
    const r = list("service-list-order.xml");
    expect(r.target).toEqual({
      form: "order",
      order: {
        orderId: "ORD-42",
        ownerCode: "XB",
        orderVersion: 3,
        items: [{ id: "ORD-42-1", paxIds: ["PAX1"], paxSegmentIds: [], datedOperatingLegIds: [], serviceIds: ["SV1"] }],
      },
    });
    expect(r.serviceCriteria).toEqual([{ include: true, rfisc: ["0CC"], taxonomyCodes: [] }]);
  });

  test("Order without OrderID", () => {
    expectInvalid(() => list("service-list-order.xml", ["<cns:OrderID>ORD-42</cns:OrderID>", ""]), "Request/ServiceListCoreRequest/OrderRequest/Order/OrderID");
  });
  test("bad PrefLevelCode", () => {
    expectInvalid(() => list("service-list-offer.xml", ["<cns:PrefLevelCode>Exclude</cns:PrefLevelCode>", "<cns:PrefLevelCode>Never</cns:PrefLevelCode>"]), "Request/OfferCriteria/ServiceCriteria[2]/PrefLevel/PrefLevelCode");
  });
  test("empty ServiceListCoreRequest", () => {
    expectInvalid(() => list("service-list-order.xml", [/<cns:ServiceListCoreRequest>[\s\S]*<\/cns:ServiceListCoreRequest>/, "<cns:ServiceListCoreRequest/>"]), "Request/ServiceListCoreRequest");
  });
});
