import { describe, expect, test } from "bun:test";
import { conditionsFor } from "@ndc/supply";
import { add, sum, type Money } from "@ndc/money";
import { supply } from "./helpers";

describe("pricing", () => {
  const s = supply();
  const lhrCdg = s.journeys("LHR", "CDG", "2027-02-03")[0]!;
  const lhrSin = s.journeys("LHR", "SIN", "2027-02-03")[0]!;

  test("fares per passenger type: child 75 %, lap infant 10 % of the adult fare, all integers", () => {
    const p = s.priceJourney(lhrCdg, "CLASSIC", { ADT: 2, CHD: 1, INF: 1 }, "EUR");
    const by = Object.fromEntries(p.pax.map((x) => [x.paxType, x]));
    expect(by.ADT!.count).toBe(2);
    expect(by.ADT!.baseFare.amount % 100).toBe(0); // whole euros
    expect(by.CHD!.baseFare.amount).toBe(Math.round((by.ADT!.baseFare.amount * 3) / 4));
    expect(by.INF!.baseFare.amount).toBe(Math.round(by.ADT!.baseFare.amount / 10));
    for (const x of p.pax) {
      expect(x.total).toEqual(add(x.baseFare, x.taxTotal));
      expect(x.taxTotal).toEqual(sum(x.taxes.map((t) => t.amount), "EUR"));
    }
    expect(p.total.amount).toBe(p.pax.reduce((n, x) => n + x.total.amount * x.count, 0));
  });

  test("taxes are broken down by code, by departure country, with exemptions", () => {
    const p = s.priceJourney(lhrCdg, "LIGHT", { ADT: 1, CHD: 1, INF: 1 }, "EUR");
    const codes = (t: string) => p.pax.find((x) => x.paxType === t)!.taxes.map((x) => x.code);
    expect(codes("ADT")).toEqual(["GB", "UB", "YQ"]);
    expect(codes("CHD")).toEqual(["UB", "YQ"]); // UK duty: children exempt in economy
    expect(codes("INF")).toEqual([]);
    const biz = s.priceJourney(lhrCdg, "BUSINESS", { ADT: 1, CHD: 1 }, "EUR");
    expect(biz.pax.find((x) => x.paxType === "CHD")!.taxes.map((x) => x.code)).toContain("GB");
    // a connection pays each departure country's taxes
    const conn = s.priceJourney(lhrSin, "LIGHT", { ADT: 1 }, "EUR");
    const hubCountry = { FRA: "RA", DXB: "AE" }[lhrSin.segments[1]!.origin as "FRA" | "DXB"];
    expect(conn.pax[0]!.taxes.map((t) => t.code)).toContain(hubCountry);
  });

  test("brands price in order, business above economy; dates and routes change the price", () => {
    const total = (brand: string, j = lhrCdg) => s.priceJourney(j, brand, { ADT: 1 }, "EUR").pax[0]!.baseFare.amount;
    expect(total("SAVER")).toBeLessThan(total("LIGHT"));
    expect(total("LIGHT")).toBeLessThan(total("CLASSIC"));
    expect(total("CLASSIC")).toBeLessThan(total("FLEX"));
    expect(total("FLEX")).toBeLessThan(total("BUSINESS"));
    expect(total("LIGHT", lhrSin)).toBeGreaterThan(total("LIGHT"));
    const days = ["2027-02-03", "2027-02-04", "2027-07-14", "2027-08-20"].map((d) => s.priceJourney(s.journeys("LHR", "CDG", d)[0]!, "LIGHT", { ADT: 1 }, "EUR").pax[0]!.baseFare.amount);
    expect(new Set(days).size).toBeGreaterThan(1);
  });

  test("prices in the requested currency convert each part then add, so totals match their parts (JPY whole yen)", () => {
    const eur = s.priceJourney(lhrSin, "FLEX", { ADT: 2, CHD: 1 }, "EUR");
    const jpy = s.priceJourney(lhrSin, "FLEX", { ADT: 2, CHD: 1 }, "JPY");
    expect(jpy.currency).toBe("JPY");
    for (const x of jpy.pax) {
      const parts: Money[] = [x.baseFare, ...x.taxes.map((t) => t.amount)];
      for (const m of parts) {
        expect(m.currency).toBe("JPY");
        expect(Number.isSafeInteger(m.amount)).toBe(true);
      }
      expect(x.total.amount).toBe(parts.reduce((n, m) => n + m.amount, 0));
    }
    // Each converted part is within half a yen of the exact product.
    const e = eur.pax[0]!.baseFare.amount;
    expect(Math.abs(jpy.pax[0]!.baseFare.amount - (e * 162.35) / 100)).toBeLessThanOrEqual(0.5);
  });

  test("each priced journey carries its brand's conditions, allowance per passenger type, and stable ids", () => {
    const comfort = s.priceJourney(lhrCdg, "COMFORT", { ADT: 1, INF: 1 }, "EUR");
    expect(comfort.conditions).toEqual(conditionsFor("COMFORT"));
    expect(comfort.pax.find((x) => x.paxType === "INF")!.allowance).toEqual([{ kind: "Checked", pieces: 1, kgPerPiece: 10, paxTypes: ["INF"] }]);
    const saver = s.priceJourney(lhrCdg, "SAVER", { ADT: 1 }, "EUR");
    expect(saver.pax[0]!.allowance).toBeUndefined();
    expect(comfort.pax[0]!.itemId).not.toBe(saver.pax[0]!.itemId);
  });

  test("invalid parties and brands are refused", () => {
    expect(() => s.priceJourney(lhrCdg, "NOPE", { ADT: 1 }, "EUR")).toThrow();
    expect(() => s.priceJourney(lhrCdg, "LIGHT", { INF: 1 }, "EUR")).toThrow();
    expect(() => s.priceJourney(lhrCdg, "LIGHT", { ADT: 1, INF: 2 }, "EUR")).toThrow();
    expect(() => s.priceJourney(lhrCdg, "LIGHT", { ADT: 1.5 }, "EUR")).toThrow();
  });
});
