import { describe, expect, test } from "bun:test";
import { decodeAirShoppingRQ } from "@ndc/messages";
import { decodeFixture, expectInvalid } from "./helpers";

const decode = (name: string, edit?: [string | RegExp, string]) => decodeFixture(decodeAirShoppingRQ, name, edit);
const OD = "Request/FlightRequest/FlightRequestOriginDestinationsCriteria/OriginDestCriteria";

describe("AirShoppingRQ decoder: forms", () => {
  test("one-way with cabin, passengers by PTC and age, currency, language and service criteria", () => {
    const r = decode("air-shopping-oneway.xml");
    expect(r.form).toBe("OriginDestinations");
    expect(r.journeyType).toBe("OneWay");
    expect(r.originDestinations).toEqual([
      { originDestId: "OD1", origin: "LHR", destination: "CDG", departureDate: "2027-03-14", departureTime: "08:30", cabins: [{ code: "M", preference: "Preferred" }], flights: [] },
    ]);
    expect(r.passengers).toEqual([
      { paxId: "PAX1", ptc: "ADT", ptcSource: "PTC" },
      { paxId: "PAX2", ptc: "CHD", ptcSource: "AgeMeasure", age: 8 },
      { paxId: "PAX3", ptc: "INF", ptcSource: "PTC" },
    ]);
    // AppCode Requested wins over the first CurParameter; LangUsage wins over PrimaryLangID.
    expect(r.preferences).toEqual({ currency: "EUR", language: "de", languageSource: "LangUsage", langUsage: ["de", "en"] });
    expect(r.serviceCriteria).toEqual([
      { include: true, rfic: "C", rfisc: ["0CC", "0GO"], taxonomyCodes: [] },
      { include: true, rfisc: [], taxonomyCodes: ["1B58"] },
      { include: false, rfisc: ["0C3"], taxonomyCodes: [] },
    ]);
  });

  test("return trip ordered by Ordinal, calendar window, PrimaryLangID when no LangUsage", () => {
    const r = decode("air-shopping-return.xml");
    expect(r.journeyType).toBe("Return");
    expect(r.originDestinations.map((o) => `${o.origin}-${o.destination} ${o.departureDate}`)).toEqual(["FRA-MAD 2027-04-13", "MAD-FRA 2027-04-20"]);
    expect(r.originDestinations[0]!.cabins).toEqual([{ code: "C", preference: "Required" }]);
    expect(r.originDestinations[0]!.calendar).toEqual({ daysBefore: 1, daysAfter: 2 });
    expect(r.preferences).toEqual({ currency: undefined, language: "zh-Hant", languageSource: "PrimaryLangID", langUsage: [] });
    expect(r.serviceCriteria).toEqual([]);
  });

  test("multi-city keeps document order", () => {
    const r = decode("air-shopping-multicity.xml");
    expect(r.journeyType).toBe("MultiCity");
    expect(r.originDestinations.map((o) => o.origin + o.destination)).toEqual(["LHRAMS", "AMSFCO", "FCOLHR"]);
  });

  test("specific origin-destination resolves PaxJourney -> PaxSegment -> DatedMarketingSegment", () => {
    const r = decode("air-shopping-specific.xml");
    expect(r.form).toBe("SpecificOriginDestinations");
    expect(r.originDestinations).toEqual([
      {
        originDestId: "OD1",
        origin: "LHR",
        destination: "CDG",
        departureDate: "2027-03-14",
        cabins: [],
        flights: [
          { paxSegmentId: "S1", marketingCarrier: "XB", flightNumber: "101", origin: "LHR", destination: "CDG", departureDate: "2027-03-14", departureTime: "08:30", cabinCode: "M" },
        ],
      },
    ]);
  });

  test("affinity form with stations and a date; no PaxList gives no passengers", () => {
    const r = decode("air-shopping-affinity.xml");
    expect(r.form).toBe("Affinity");
    expect(r.originDestinations[0]).toMatchObject({ origin: "MUC", destination: "BCN", departureDate: "2027-06-02", departureTime: "06:00" });
    expect(r.passengers).toEqual([]);
  });

  test("a passenger with neither PTC nor age is an adult by default, and says so", () => {
    const r = decode("air-shopping-oneway.xml", ["<cns:AgeMeasure>8</cns:AgeMeasure>", ""]);
    expect(r.passengers[1]).toEqual({ paxId: "PAX2", ptc: "ADT", ptcSource: "default" });
  });
});

describe("AirShoppingRQ decoder: IdentityDoc is never decoded", () => {
  test("the document on PAX1 reaches no field of the model", () => {
    const r = decode("air-shopping-oneway.xml");
    const json = JSON.stringify(r);
    expect(json).not.toContain("P99887766");
    expect(json).not.toContain("SECRETSURNAME");
    expect(json.toLowerCase()).not.toContain("identitydoc");
    expect(Object.keys(r.passengers[0]!).sort()).toEqual(["paxId", "ptc", "ptcSource"]);
  });

  test("a malformed IdentityDoc is ignored, not refused (spec 7.3)", () => {
    const r = decode("air-shopping-oneway.xml", ["<cns:ExpiryDate>2031-01-01</cns:ExpiryDate>", "<cns:ExpiryDate>not-a-date</cns:ExpiryDate><cns:Garbage/>"]);
    expect(r.passengers).toHaveLength(3);
  });
});

describe("AirShoppingRQ decoder: malformed requests name the element", () => {
  test("no Request", () => {
    expectInvalid(() => decode("air-shopping-oneway.xml", [/<Request>[\s\S]*<\/Request>/, ""]), "Request");
  });
  test("no FlightRequest", () => {
    expectInvalid(() => decode("air-shopping-oneway.xml", [/<cns:FlightRequest>[\s\S]*<\/cns:FlightRequest>/, ""]), "Request/FlightRequest");
  });
  test("empty FlightRequest", () => {
    expectInvalid(() => decode("air-shopping-oneway.xml", [/<cns:FlightRequest>[\s\S]*<\/cns:FlightRequest>/, "<cns:FlightRequest/>"]), "Request/FlightRequest");
  });
  test("missing departure date", () => {
    expectInvalid(() => decode("air-shopping-oneway.xml", ["<cns:Date>2027-03-14</cns:Date>", ""]), `${OD}[1]/OriginDepCriteria/Date`);
  });
  test("impossible date", () => {
    const e = expectInvalid(() => decode("air-shopping-oneway.xml", ["2027-03-14", "2027-02-30"]), `${OD}[1]/OriginDepCriteria/Date`);
    expect(e.detail).toBe("The date does not exist.");
  });
  test("bad location code on the second leg", () => {
    expectInvalid(() => decode("air-shopping-multicity.xml", ["<cns:IATA_LocationCode>FCO</cns:IATA_LocationCode></cns:DestArrivalCriteria>", "<cns:IATA_LocationCode>Rome</cns:IATA_LocationCode></cns:DestArrivalCriteria>"]), `${OD}[2]/DestArrivalCriteria/IATA_LocationCode`);
  });
  test("bad PTC", () => {
    expectInvalid(() => decode("air-shopping-oneway.xml", ["<cns:PTC>INF</cns:PTC>", "<cns:PTC>baby</cns:PTC>"]), "Request/PaxList/Pax[3]/PTC");
  });
  test("duplicate PaxID", () => {
    expectInvalid(() => decode("air-shopping-oneway.xml", ["<cns:PaxID>PAX3</cns:PaxID>", "<cns:PaxID>PAX1</cns:PaxID>"]), "Request/PaxList/Pax[3]/PaxID");
  });
  test("bad currency", () => {
    expectInvalid(() => decode("air-shopping-oneway.xml", ["<cns:CurCode>EUR</cns:CurCode>", "<cns:CurCode>euro</cns:CurCode>"]), "Request/ResponseParameters/CurParameter[2]/CurCode");
  });
  test("bad IncludeInd", () => {
    expectInvalid(() => decode("air-shopping-oneway.xml", ["<cns:IncludeInd>false</cns:IncludeInd>", "<cns:IncludeInd>no</cns:IncludeInd>"]), "Request/OfferCriteria/ServiceCriteria[3]/IncludeInd");
  });
  test("bad RFIC", () => {
    expectInvalid(() => decode("air-shopping-oneway.xml", ["<cns:RFIC>C</cns:RFIC>", "<cns:RFIC>bags</cns:RFIC>"]), "Request/OfferCriteria/ServiceCriteria[1]/RFIC");
  });
  test("bad language", () => {
    expectInvalid(() => decode("air-shopping-oneway.xml", ["<cns:LangCode>de</cns:LangCode>", "<cns:LangCode>deutsch!</cns:LangCode>"]), "Request/ResponseParameters/LangUsage[1]/LangCode");
  });
  test("specific form naming an unknown journey", () => {
    expectInvalid(() => decode("air-shopping-specific.xml", ["<cns:PaxJourneyRefID>J1</cns:PaxJourneyRefID>", "<cns:PaxJourneyRefID>J9</cns:PaxJourneyRefID>"]), "Request/FlightRequest/FlightRequestSpecificOriginDestinations/SpecificOriginDestCriteria[1]/PaxJourneyRefID[1]");
  });
  test("specific form naming an unknown marketing segment", () => {
    expectInvalid(() => decode("air-shopping-specific.xml", ["<cns:DatedMarketingSegmentRefId>MS1</cns:DatedMarketingSegmentRefId>", "<cns:DatedMarketingSegmentRefId>MS2</cns:DatedMarketingSegmentRefId>"]), "Request/PaxJourneyList/PaxJourney[1]/PaxSegment[1]/DatedMarketingSegmentRefId");
  });
  test("affinity without a departure station", () => {
    expectInvalid(() => decode("air-shopping-affinity.xml", ["<cns:Station><cns:IATA_LocationCode>MUC</cns:IATA_LocationCode></cns:Station>", ""]), "Request/FlightRequest/AffinityShoppingCriteria/AffinityOriginDest[1]/AffinityDepRequest/Station");
  });
});
