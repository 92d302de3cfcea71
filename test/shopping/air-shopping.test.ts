import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ManualClock } from "@ndc/clock";
import { errorCode, startTestGateway, type TestGateway } from "../support/gateway";
import { airShoppingRQ, all, blocks, day, type ShopOpts } from "./shop-requests";

/** AirShoppingRQ through the real HTTP stack (spec 2.7, 4.7, 4.8); every answer is XSD-checked by t.ndc. */
let t: TestGateway;
let start: string;
const clock = new ManualClock(Date.UTC(2026, 10, 21, 9, 0, 0));
beforeAll(async () => {
  t = await startTestGateway({}, clock);
  start = t.gw.supply.startDate;
});
afterAll(() => t.close());

const shopIt = (o: Partial<ShopOpts> & { legs?: ShopOpts["legs"] }) =>
  t.ndc("AirShoppingRQ", airShoppingRQ({ legs: o.legs ?? [{ from: "LHR", to: "FRA", date: day(start, 30) }], ...o }));
const offersOf = (xml: string) => blocks(xml, "Offer");
const warnings = (xml: string) => all(xml, "Code");
const ret = () => [
  { from: "LHR", to: "FRA", date: day(start, 30) },
  { from: "FRA", to: "LHR", date: day(start, 37) },
];

describe("flights, passengers and cabins", () => {
  test("one-way: an offer per flight and brand, one item per passenger type, prices with taxes", async () => {
    const r = await shopIt({});
    expect(r.status).toBe(200);
    const offers = offersOf(r.body);
    expect(offers.length).toBe(18); // 3 daily LHR-FRA flights x 6 brands
    for (const o of offers) {
      expect(all(o, "OfferItemID")).toHaveLength(1);
      expect(all(o, "OfferItemID")[0]).toEndWith("-ADT");
      expect(o).toContain("<cns:TaxSummary>");
      expect(all(o, "JourneyPriceClass").length + all(o, "PaxJourneyRefID").length).toBeGreaterThan(0);
    }
    expect(all(r.body, "MatchedOfferQty")).toEqual(["18"]);
    expect(all(r.body, "OfferExpirationTimeLimitDateTime")[0]).toBe(new Date(clock.now() + 30 * 60_000).toISOString());
  });

  test("return, 2 adults and a child: about 50 offers, ADT and CHD items, both journeys per offer", async () => {
    const r = await shopIt({ legs: ret(), pax: [["P1", "ADT"], ["P2", "ADT"], ["P3", "CHD"]] });
    const offers = offersOf(r.body);
    expect(offers.length).toBe(54);
    for (const o of offers) {
      expect(all(o, "OfferItemID").map((id) => id.slice(-3))).toEqual(["ADT", "CHD"]);
      expect(blocks(o, "JourneyPriceClass")).toHaveLength(2);
      const [adt, chd] = blocks(o, "OfferItem");
      expect(all(blocks(adt!, "FareDetail")[0]!, "PaxRefID")).toEqual(["P1", "P2"]);
      expect(all(blocks(chd!, "FareDetail")[0]!, "PaxRefID")).toEqual(["P3"]);
      // The offer total is the sum of its items.
      const items = blocks(o, "OfferItem").map((i) => Number(all(blocks(i, "Price")[0]!, "TotalAmount").at(-1)));
      const total = Number(all(blocks(o, "TotalPrice")[0]!, "TotalAmount")[0]);
      expect(Math.round(items.reduce((a, b) => a + b, 0) * 100)).toBe(Math.round(total * 100));
    }
    expect(all(r.body, "PaxJourneyID")).toHaveLength(6);
  });

  test("multi-city: three legs, each offer carries one journey per leg", async () => {
    const r = await shopIt({
      legs: [
        { from: "LHR", to: "CDG", date: day(start, 40) },
        { from: "CDG", to: "FCO", date: day(start, 43) },
        { from: "FCO", to: "MAD", date: day(start, 46) },
      ],
    });
    const offers = offersOf(r.body);
    expect(offers.length).toBeGreaterThan(0);
    for (const o of offers) expect(blocks(o, "JourneyPriceClass")).toHaveLength(3);
    expect(all(r.body, "OriginDestID")).toEqual(["OD1", "OD2", "OD3"]);
  });

  test("a lap infant gets its own item; an infant without an adult is refused", async () => {
    const r = await shopIt({ pax: [["A", "ADT"], ["I", "INF"]] });
    expect(all(offersOf(r.body)[0]!, "OfferItemID").map((id) => id.slice(-3))).toEqual(["ADT", "INF"]);
    const bad = await shopIt({ pax: [["C", "CHD"], ["I", "INF"]] });
    expect(bad.status).toBe(400);
    expect(errorCode(bad.body)).toBe("shopping_criteria_invalid");
  });

  test("cabin: Required business gives only the business brand; economy never gives it", async () => {
    const biz = await shopIt({ legs: [{ from: "LHR", to: "FRA", date: day(start, 30), cabin: "C" }] });
    expect(new Set(all(biz.body, "PriceClassRefID"))).toEqual(new Set(["PC-BUSINESS"]));
    const eco = await shopIt({ legs: [{ from: "LHR", to: "FRA", date: day(start, 30), cabin: "M" }] });
    expect(all(eco.body, "PriceClassRefID")).not.toContain("PC-BUSINESS");
    expect(offersOf(eco.body)).toHaveLength(15);
  });

  test("a date outside the sale horizon answers an empty, valid offers group", async () => {
    const r = await shopIt({ legs: [{ from: "LHR", to: "FRA", date: day(start, 400) }] });
    expect(r.status).toBe(200);
    expect(all(r.body, "MatchedOfferQty")).toEqual(["0"]);
  });

  test("an airport the airline does not serve is refused", async () => {
    const r = await shopIt({ legs: [{ from: "LHR", to: "XXX", date: day(start, 30) }] });
    expect(r.status).toBe(400);
    expect(errorCode(r.body)).toBe("shopping_criteria_invalid");
  });
});

describe("currency", () => {
  test("JPY: whole yen, DecimalsAllowedNumber 0, every amount in JPY", async () => {
    const r = await shopIt({ currency: "JPY" });
    const amounts = [...r.body.matchAll(/CurCode="([A-Z]{3})">([^<]+)</g)];
    expect(amounts.length).toBeGreaterThan(0);
    for (const [, cur, value] of amounts) {
      expect(cur).toBe("JPY");
      expect(value).toMatch(/^\d+$/);
    }
    expect(all(r.body, "DecimalsAllowedNumber")).toEqual(["0"]);
  });

  test("a converted price equals the sum of converted components (USD)", async () => {
    const r = await shopIt({ currency: "USD" });
    const p = blocks(offersOf(r.body)[0]!, "Price")[0]!;
    const base = Number(all(p, "BaseAmount")[0]);
    const taxes = Number(all(p, "TotalTaxAmount")[0]);
    expect(Math.round((base + taxes) * 100)).toBe(Math.round(Number(all(p, "TotalAmount").at(-1)) * 100));
    expect(p).toContain('CurCode="USD"');
  });

  test("a currency outside the rate table is refused", async () => {
    const r = await shopIt({ currency: "XAF" });
    expect(r.status).toBe(400);
    expect(errorCode(r.body)).toBe("currency_not_supported");
  });
});

describe("localisation (spec 4.8)", () => {
  test("LangUsage de: airline content in German, English where not translated, with the fallback warning", async () => {
    const r = await shopIt({ langUsage: ["de"], criteria: [{ taxonomy: ["0200"] }] });
    expect(all(r.body, "LangCode")).toContain("de");
    expect(warnings(r.body)).toContain("content_language_fallback");
    // Carrier and aircraft names are proper names, never translated.
    expect(r.body).toContain("Example Airways");
    expect(r.body).toMatch(/Airbus A32/);
  });

  test("PrimaryLangID zh-Hant resolves to zh on its primary subtag", async () => {
    const r = await shopIt({ primaryLang: "zh-Hant" });
    expect(r.body).toContain("法兰克福");
    expect(all(blocks(r.body, "Processing")[0]!, "LangCode")).toContain("zh");
  });

  test("English request: no fallback warning, content language en", async () => {
    const r = await shopIt({ langUsage: ["en-GB"] });
    expect(warnings(r.body)).not.toContain("content_language_fallback");
    expect(all(blocks(r.body, "Processing")[0]!, "LangCode")).toEqual(["en"]);
  });

  test("a language with no dictionary falls back to English with the warning", async () => {
    const r = await shopIt({ langUsage: ["ja"] });
    expect(warnings(r.body)).toContain("content_language_fallback");
    expect(all(blocks(r.body, "Processing")[0]!, "LangCode")).toEqual(["en"]);
  });
});

describe("brands: conditions and baggage (spec 2.7, 4.5 rule 2)", () => {
  const offerOf = (xml: string, brand: string) => offersOf(xml).find((o) => o.includes(`<cns:PriceClassRefID>PC-${brand}</cns:PriceClassRefID>`))!;

  test("FLEX is refundable and changeable; SAVER is neither", async () => {
    const r = await shopIt({});
    const flex = offerOf(r.body, "FLEX");
    expect(flex).toContain("<cns:LevelTypeCode>Full</cns:LevelTypeCode>");
    expect(flex).toContain("Flight changes allowed.");
    const saver = offerOf(r.body, "SAVER");
    expect(saver).toContain("<cns:LevelTypeCode>None</cns:LevelTypeCode>");
    expect(saver).toContain("Flight changes not allowed.");
  });

  test("a brand with no allowance states nothing; others associate their allowance", async () => {
    const r = await shopIt({});
    expect(offerOf(r.body, "SAVER")).not.toContain("BaggageAssociations");
    expect(all(offerOf(r.body, "FLEX"), "BaggageAllowanceRefID")).toEqual(["BA-CARRYON-1X10", "BA-CHECKED-2X23"]);
  });

  test("COMFORT's unreadable policy: the supplier's conditions and fare_conditions_supplier", async () => {
    const r = await shopIt({});
    expect(warnings(r.body)).toContain("fare_conditions_supplier");
    expect(offerOf(r.body, "COMFORT")).toContain("<cns:LevelTypeCode>None</cns:LevelTypeCode>");
    const eco = await shopIt({ legs: [{ from: "LHR", to: "FRA", date: day(start, 30), cabin: "C" }] });
    expect(warnings(eco.body)).not.toContain("fare_conditions_supplier");
  });
});
