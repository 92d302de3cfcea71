import { describe, expect, test } from "bun:test";
import { decodeOfferPriceRQ } from "@ndc/messages";
import { decodeFixture, expectInvalid } from "./helpers";

const decode = (name: string, edit?: [string | RegExp, string]) => decodeFixture(decodeOfferPriceRQ, name, edit);
const SEL = "Request/PricedOffer/SelectedOfferList/SelectedOffer";
const ACC = "Request/PricedOffer/AcceptOrderItemList/CreateOrderItem";

describe("OfferPriceRQ decoder", () => {
  test("SelectedOfferList: items per passenger, a seat, an a-la-carte quantity and a bundle selection", () => {
    const r = decode("offer-price-selected.xml");
    expect(r.form).toBe("SelectedOfferList");
    expect(r.orderItems).toEqual([]);
    expect(r.selectedOffers).toEqual([
      {
        offerId: "OF-1",
        ownerCode: "XB",
        items: [
          { offerItemId: "OF-1-ADT", paxIds: ["PAX1"] },
          { offerItemId: "OF-1-CHD", paxIds: ["PAX2"] },
        ],
      },
      {
        offerId: "ALC-1",
        ownerCode: "XB",
        items: [
          { offerItemId: "ALC-1-SEAT", paxIds: ["PAX1"], seat: { row: 12, column: "C" } },
          { offerItemId: "ALC-1-BAG", paxIds: ["PAX1", "PAX2"], aLaCarte: { qty: 2, flights: { kind: "paxJourneys", ids: ["J1"] } } },
          { offerItemId: "ALC-1-PARTNER", paxIds: ["PAX1"], bundle: { serviceId: "SRV-TOUR", serviceDefinitionIds: ["SD-TOUR-AM", "SD-TOUR-LUNCH"] } },
        ],
      },
    ]);
    expect(r.passengers.map((p) => `${p.paxId}:${p.ptc}`)).toEqual(["PAX1:ADT", "PAX2:CHD"]);
    expect(r.preferences).toEqual({ currency: "GBP", language: "es", languageSource: "PrimaryLangID", langUsage: [] });
  });

  test("AcceptOrderItemList: flight, seat, baggage and other items; seller prices are not read", () => {
    const r = decode("offer-price-accept.xml");
    expect(r.form).toBe("AcceptOrderItemList");
    expect(r.selectedOffers).toEqual([]);
    expect(r.orderItems).toEqual([
      { ownerCode: "XB", offerItemId: "OF-9-ADT", item: { kind: "flight", originDestIds: ["OD1", "OD2"] } },
      {
        ownerCode: "XB",
        offerItemId: "ALC-9-SEAT",
        item: { kind: "seat", paxId: "PAX1", paxSegmentId: "S1", datedOperatingLegIds: ["S1-LEG"], seatProfileIds: ["SP-XL"], seat: { row: 3, column: "F" } },
      },
      { ownerCode: "XB", item: { kind: "baggage", paxId: "PAX1", paxSegmentId: "S1", baggageAllowanceIds: ["BA-23"] } },
      { ownerCode: "XB", offerItemId: "ALC-9-WIFI", item: { kind: "other", description: "Wifi" } },
    ]);
    expect(JSON.stringify(r)).not.toContain("0.01");
    expect(r.preferences.language).toBe("pt-BR");
  });

  test("IdentityDoc in DataLists/PaxList is not decoded", () => {
    const json = JSON.stringify(decode("offer-price-selected.xml"));
    expect(json).not.toContain("X1234567");
    expect(json).not.toContain("HIDDENNAME");
  });

  test("no PricedOffer", () => {
    expectInvalid(() => decode("offer-price-accept.xml", [/<cns:PricedOffer>[\s\S]*<\/cns:PricedOffer>/, ""]), "Request/PricedOffer");
  });
  test("CreateOrderItem without OwnerCode", () => {
    expectInvalid(() => decode("offer-price-accept.xml", [/(<\/cns:BaggageItem><\/cns:OfferItemType>)\s*<cns:OwnerCode>XB<\/cns:OwnerCode>/, "$1"]), `${ACC}[3]/OwnerCode`);
  });
  test("SelectedOffer without OfferRefID", () => {
    expectInvalid(() => decode("offer-price-selected.xml", ["<cns:OfferRefID>ALC-1</cns:OfferRefID>", ""]), `${SEL}[2]/OfferRefID`);
  });
  test("SelectedOfferItem without PaxRefID", () => {
    expectInvalid(() => decode("offer-price-selected.xml", ["<cns:OfferItemRefID>OF-1-CHD</cns:OfferItemRefID><cns:PaxRefID>PAX2</cns:PaxRefID>", "<cns:OfferItemRefID>OF-1-CHD</cns:OfferItemRefID>"]), `${SEL}[1]/SelectedOfferItem[2]/PaxRefID`);
  });
  test("seat column that is not a letter", () => {
    expectInvalid(() => decode("offer-price-selected.xml", ["<cns:ColumnID>C</cns:ColumnID>", "<cns:ColumnID>CC</cns:ColumnID>"]), `${SEL}[2]/SelectedOfferItem[1]/SelectedSeat/ColumnID`);
  });
  test("seat row that is not a whole number", () => {
    expectInvalid(() => decode("offer-price-selected.xml", ["<cns:SeatRowNumber>12</cns:SeatRowNumber>", "<cns:SeatRowNumber>12.5</cns:SeatRowNumber>"]), `${SEL}[2]/SelectedOfferItem[1]/SelectedSeat/SeatRowNumber`);
  });
  test("a-la-carte quantity of zero", () => {
    expectInvalid(() => decode("offer-price-selected.xml", ["<cns:Qty>2</cns:Qty>", "<cns:Qty>0</cns:Qty>"]), `${SEL}[2]/SelectedOfferItem[2]/SelectedALaCarteOfferItem/Qty`);
  });
  test("seat item with a row but no column", () => {
    expectInvalid(() => decode("offer-price-accept.xml", ["<cns:ColumnID>F</cns:ColumnID>", ""]), `${ACC}[2]/OfferItemType/SeatItem/ColumnID`);
  });
});
