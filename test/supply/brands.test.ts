import { describe, expect, test } from "bun:test";
import { BrandPolicyUnreadable, FARE_BRANDS, brandsForCabin, catalogueService, conditionsFor, readBrandPolicy, serviceByRfisc } from "@ndc/supply";

describe("fare brands", () => {
  test("at least three brands, in both cabins, each with the four conditions", () => {
    expect(FARE_BRANDS.length).toBeGreaterThanOrEqual(3);
    expect(brandsForCabin("ECONOMY").length).toBeGreaterThanOrEqual(3);
    expect(brandsForCabin("BUSINESS").length).toBeGreaterThanOrEqual(1);
    for (const b of FARE_BRANDS) {
      const c = conditionsFor(b.code).conditions;
      expect(Object.keys(c).sort()).toEqual(["cancellable", "changeable", "refundable", "renameable"]);
    }
  });

  test("conditions differ by brand as published", () => {
    expect(readBrandPolicy("LIGHT")).toEqual({ changeable: false, refundable: false, cancellable: true, renameable: false });
    expect(readBrandPolicy("CLASSIC")).toEqual({ changeable: true, refundable: false, cancellable: true, renameable: false });
    expect(readBrandPolicy("FLEX")).toEqual({ changeable: true, refundable: true, cancellable: true, renameable: true });
  });

  test("COMFORT's brand policy cannot be read: reading throws, and the supplier's conditions come with fare_conditions_supplier", () => {
    expect(() => readBrandPolicy("COMFORT")).toThrow(BrandPolicyUnreadable);
    const outcome = conditionsFor("COMFORT");
    expect(outcome.source).toBe("supplier");
    if (outcome.source !== "supplier") throw new Error("unreachable");
    expect(outcome.warning).toBe("fare_conditions_supplier");
    expect(outcome.conditions).toEqual({ changeable: true, refundable: false, cancellable: true, renameable: false });
    for (const b of FARE_BRANDS.filter((x) => x.code !== "COMFORT")) expect(conditionsFor(b.code).source).toBe("brand");
  });

  test("baggage allowance: Checked and CarryOn, pieces and kg per piece, for fare-paying passengers", () => {
    const classic = FARE_BRANDS.find((b) => b.code === "CLASSIC")!;
    expect(classic.allowance).toEqual(
      expect.arrayContaining([
        { kind: "Checked", pieces: 1, kgPerPiece: 23, paxTypes: ["ADT", "CHD"] },
        { kind: "CarryOn", pieces: 1, kgPerPiece: 8, paxTypes: ["ADT", "CHD"] },
      ]),
    );
    for (const b of FARE_BRANDS) {
      if (!b.allowance) continue;
      for (const kind of ["Checked", "CarryOn"]) {
        expect(b.allowance.some((a) => a.kind === kind && a.paxTypes.includes("ADT") && a.paxTypes.includes("CHD"))).toBe(true);
      }
    }
  });

  test("SAVER: the catalogue holds no allowance, so the offer states nothing", () => {
    const saver = FARE_BRANDS.find((b) => b.code === "SAVER")!;
    expect(saver.allowance).toBeUndefined();
    expect(FARE_BRANDS.filter((b) => b.allowance === undefined).map((b) => b.code)).toEqual(["SAVER"]);
  });

  test("bundles: included bags are classified catalogue bags (by RFISC); everything else is text only", () => {
    for (const b of FARE_BRANDS) {
      for (const rfisc of b.bundle.bagRfiscs) {
        const s = serviceByRfisc(rfisc)!;
        expect(s.kind).toBe("bag");
        expect(s.taxonomyCode).toBeDefined();
      }
      for (const key of b.bundle.textItemKeys) expect(key).toMatch(/^bundle\.text\./);
    }
    expect(FARE_BRANDS.find((b) => b.code === "FLEX")!.bundle.bagRfiscs).toEqual(["0CC", "0CD"]);
    expect(catalogueService("BAG1")!.rfisc).toBe("0CC");
  });
});
