import { describe, expect, test } from "bun:test";
import {
  CATALOGUE_SERVICES,
  PARTNER_PRODUCTS,
  PICTURES,
  RIDES,
  SERVICE_BUNDLES,
  catalogueService,
  partnerProductsFor,
  picture,
  priceBundle,
  pricePartnerProduct,
  priceRide,
  priceService,
  ridesAt,
  taxonomyNode,
} from "@ndc/supply";
import { supply } from "./helpers";

describe("catalogue extras (SHPAN2), bundles (SHPBND), pictures (SHPRMD)", () => {
  test("bags, meals, wifi, priority, lounge, pets, flexibility: each with RFIC, RFISC and a node (save the cargo pet and the unregistered product)", () => {
    const kinds = new Set(CATALOGUE_SERVICES.map((s) => s.kind));
    for (const k of ["bag", "meal", "wifi", "priority", "lounge", "pet", "flexibility"] as const) expect(kinds.has(k)).toBe(true);
    for (const s of CATALOGUE_SERVICES) {
      expect(s.rfic).toMatch(/^[A-Z]$/);
      expect(s.rfisc).toMatch(/^[0-9A-Z]{3}$/);
      if (s.code === "PETH" || s.code === "CELB") expect(s.taxonomyCode).toBeUndefined();
      else expect(taxonomyNode(s.taxonomyCode!)).toBeDefined();
      expect(Number.isSafeInteger(s.price.short.amount) && Number.isSafeInteger(s.price.long.amount)).toBe(true);
    }
    expect(new Set(CATALOGUE_SERVICES.map((s) => s.rfisc)).size).toBe(CATALOGUE_SERVICES.length);
    expect(catalogueService("LNGE")!.taxonomyCode).toBe("1B58");
  });

  test("bundles name real services, options offer real choices, and cost less than their parts", () => {
    for (const b of SERVICE_BUNDLES) {
      for (const haul of ["short", "long"] as const) {
        let parts = 0;
        for (const c of b.components) parts += catalogueService(c.serviceCode)!.price[haul].amount * c.quantity;
        for (const o of b.options) {
          expect(o.choices.length).toBeGreaterThanOrEqual(2);
          for (const ch of o.choices) expect(catalogueService(ch)).toBeDefined();
          parts += Math.min(...o.choices.map((ch) => catalogueService(ch)!.price[haul].amount));
        }
        expect(b.price[haul].amount).toBeLessThan(parts);
      }
    }
  });

  test("pictures have captions and every picture referenced exists", () => {
    for (const p of PICTURES) expect(p.captionKey).toBe(`picture.${p.id}.caption`);
    for (const id of [...CATALOGUE_SERVICES, ...SERVICE_BUNDLES].flatMap((x) => x.pictureIds)) expect(picture(id)).toBeDefined();
  });

  test("priced items: per flight or direction, long-haul dearer, currency converted, ids stable", () => {
    const s = supply();
    const short = s.flightsOn("LHR", "CDG", "2027-03-03")[0]!;
    const long = s.flightsOn("LHR", "JFK", "2027-03-03")[0]!;
    const a = priceService(s.seed, "MEAL", [short], "ADT", "EUR");
    expect(a.unitPrice).toEqual({ amount: 1_200, currency: "EUR" });
    expect(priceService(s.seed, "MEAL", [long], "ADT", "EUR").unitPrice.amount).toBe(2_400);
    expect(priceService(s.seed, "MEAL", [short], "ADT", "EUR").itemId).toBe(a.itemId);
    expect(priceService(s.seed, "MEAL", [short], "CHD", "EUR").itemId).not.toBe(a.itemId);
    expect(priceService(s.seed, "MEAL", [short], "ADT", "JPY").unitPrice).toEqual({ amount: 1_948, currency: "JPY" });
    expect(() => priceService(s.seed, "MEAL", [short, long], "ADT", "EUR")).toThrow();
    expect(() => priceService(s.seed, "BAG1", [short], "INF", "EUR")).toThrow();
    expect(priceBundle(s.seed, "BNDL-COMFORT", [short], "ADT", "GBP").unitPrice.currency).toBe("GBP");
  });
});

describe("ground rides (SHPMOD)", () => {
  test("rail, coach and private car, each on its transfer node, operators named as proper names", () => {
    expect(new Set(RIDES.map((r) => r.mode))).toEqual(new Set(["rail", "coach", "privateCar"]));
    for (const r of RIDES) {
      expect({ rail: "2E7C", coach: "2FA8", privateCar: "2CEC" }[r.mode]).toBe(r.taxonomyCode);
      expect(r.operator.length).toBeGreaterThan(0);
    }
    expect(ridesAt("LHR").length).toBe(3);
  });

  test("priced per passenger or per vehicle, only at the flight's airports", () => {
    const s = supply();
    const f = s.flightsOn("LHR", "CDG", "2027-03-03")[0]!;
    expect(priceRide(s.seed, "RD-LHR-RAIL", f, "CHD", "EUR").paxType).toBe("CHD");
    expect(priceRide(s.seed, "RD-LHR-CAR", f, "ADT", "EUR").paxType).toBeUndefined();
    expect(() => priceRide(s.seed, "RD-DXB-CAR", f, "ADT", "EUR")).toThrow();
  });
});

describe("partner products (SHPAN3)", () => {
  test("the categories of spec 4.8 rules 5 and 6, classified and not", () => {
    const byCat = new Map(PARTNER_PRODUCTS.map((p) => [p.category, p.taxonomyCode]));
    expect(byCat.get("lounge")).toBe("1B58");
    expect(byCat.get("fastTrack")).toBe("26AC");
    expect(byCat.get("airportTransfer")).toBe("2CEC");
    expect(byCat.get("carRental")).toBe("2D50");
    expect(byCat.get("hotelVoucher")).toBe("3138");
    expect(byCat.get("esim")).toBe("319C");
    expect(byCat.get("travelInsurance")).toBe("3200");
    expect(byCat.get("baggageProtection")).toBe("3200");
    expect(byCat.get("carbonOffset")).toBe("0E10");
    for (const c of ["foodAndDrink", "dutyFree", "retail", "airportParking", "destinationExperience", "voucher", "service", "travelService", "wellness"] as const) {
      expect(byCat.has(c)).toBe(true);
      expect(byCat.get(c)).toBeUndefined();
    }
  });

  test("stock, once per order, contact email required", () => {
    for (const p of PARTNER_PRODUCTS) {
      expect(Number.isSafeInteger(p.initialStock) && p.initialStock >= 0).toBe(true);
      expect(p.maxPerOrder).toBe(1);
      expect(p.requiresContactEmail).toBe(true);
    }
    expect(PARTNER_PRODUCTS.some((p) => p.initialStock === 0)).toBe(true);
  });

  test("offered where usable, priced with a stable id", () => {
    const codes = partnerProductsFor(["LHR", "CDG"]).map((p) => p.code);
    expect(codes).toContain("PP-LOUNGE-LHR");
    expect(codes).toContain("PP-ESIM");
    expect(codes).not.toContain("PP-SPA-DXB");
    const s = supply();
    const f = s.flightsOn("LHR", "CDG", "2027-03-03")[0]!;
    const a = pricePartnerProduct(s.seed, "PP-ESIM", [f], "USD");
    expect(a.unitPrice).toEqual({ amount: 1_400, currency: "USD" });
    expect(pricePartnerProduct(s.seed, "PP-ESIM", [f], "USD").itemId).toBe(a.itemId);
  });
});
