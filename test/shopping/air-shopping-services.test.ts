import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { ManualClock } from "@ndc/clock";
import { catalogueFaults } from "@ndc/shopping";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { airShoppingRQ, all, blocks, day, type ShopOpts } from "./shop-requests";

/** OfferCriteria/ServiceCriteria on AirShoppingRQ (spec 4.7, 4.8 rules 5-6, 8). */
let t: TestGateway;
let start: string;
beforeAll(async () => {
  t = await startTestGateway({ NDC_SHOP_SERVICES_MAX_OFFERS: "4", SHOP_CATALOGUE_READ_TIMEOUT_MS: "40", SHOP_CATALOGUE_DEADLINE_MS: "100" }, new ManualClock());
  start = t.gw.supply.startDate;
});
afterAll(() => t.close());
afterEach(() => catalogueFaults(t.gw.supply).clear());

const shopIt = (criteria: ShopOpts["criteria"], extra: Partial<ShopOpts> = {}) =>
  t.ndc("AirShoppingRQ", airShoppingRQ({ legs: [{ from: "LHR", to: "FRA", date: day(start, 30) }, { from: "FRA", to: "LHR", date: day(start, 33) }], criteria, ...extra }));
const listed = (xml: string) => new Set(blocks(xml, "ALaCarteOffer").flatMap((a) => all(a, "ServiceDefinitionRefID")));
const warningText = (xml: string, code: string) => blocks(xml, "Warning").find((w) => w.includes(`<cns:Code>${code}</cns:Code>`) || w.includes(`<Code>${code}</Code>`));

describe("a-la-carte services with the offers", () => {
  test("only the first NDC_SHOP_SERVICES_MAX_OFFERS offers get an ALaCarteOffer, tied to them by id", async () => {
    const r = await shopIt([{ taxonomy: ["0100"] }]);
    const alc = blocks(r.body, "ALaCarteOffer");
    expect(alc).toHaveLength(4);
    const firstOffers = blocks(r.body, "Offer").slice(0, 4).map((o) => all(o, "OfferID")[0]!);
    for (const [i, a] of alc.entries()) expect(all(a, "DescText")[0]).toContain(firstOffers[i]!);
    // Same products on the same flights are the same items in every a-la-carte offer (ids shared with ServiceList).
    expect(all(alc[0]!, "OfferItemID").every((id) => /^SRV-/.test(id))).toBe(true);
  });

  test("without ServiceCriteria no services are listed", async () => {
    const r = await shopIt(undefined);
    expect(blocks(r.body, "ALaCarteOffer")).toHaveLength(0);
  });

  test("a parent taxonomy node selects the nodes below it (0300 airport services)", async () => {
    const r = await shopIt([{ taxonomy: ["0300"] }]);
    expect(listed(r.body)).toEqual(new Set(["SD-PRIO", "SD-LNGE", "SD-FTRK"]));
    expect(all(r.body, "TaxonomyCode")).toContain("1B58");
  });

  test("RFISC selects one product, RFIC its group; unclassified products are never returned", async () => {
    expect(listed((await shopIt([{ rfisc: ["0B3"] }])).body)).toEqual(new Set(["SD-MEAL"]));
    const bags = listed((await shopIt([{ rfic: "C" }])).body);
    expect(bags).toEqual(new Set(["SD-BAG1", "SD-BAG2", "SD-BAGH", "SD-CBAG", "SD-PETC"]));
    expect(bags.has("SD-PETH")).toBe(false); // a pet shipped as cargo has no node
    const g = listed((await shopIt([{ rfic: "G" }])).body);
    expect(g.has("SD-CELB")).toBe(false); // an airline product with no registered type
  });

  test("an exclusion keeps unclassified products, and rides or partner products are never shopped", async () => {
    const r = await shopIt([{ include: false, taxonomy: ["0200"] }]);
    const l = listed(r.body);
    expect(l.has("SD-PETH")).toBe(true);
    expect(l.has("SD-MEAL")).toBe(false);
    expect(r.body).not.toContain("RIDE-");
    expect(r.body).not.toContain("PART-");
  });

  test("infants are offered only what they may buy", async () => {
    const r = await shopIt([{ taxonomy: ["0300"] }], { pax: [["A", "ADT"], ["I", "INF"]] });
    const alc = blocks(r.body, "ALaCarteOffer")[0]!;
    for (const item of blocks(alc, "OfferItem").filter((i) => all(i, "PaxRefID").includes("I"))) {
      expect(["SD-LNGE", "SD-FTRK"]).toContain(all(item, "ServiceDefinitionRefID")[0]!);
    }
  });
});

describe("catalogue reads fail open (spec 4.7)", () => {
  test("a failing read: the rest is listed and the Warning names it as not transient", async () => {
    catalogueFaults(t.gw.supply).set("meal", "fail");
    const r = await shopIt([{ taxonomy: ["0200"] }]);
    expect(r.status).toBe(200);
    expect(listed(r.body)).toEqual(new Set(["SD-WIFI"]));
    expect(warningText(r.body, "services_not_listed")).toContain("meal (failed, not transient)");
  });

  test("a transient failure is reported as transient", async () => {
    catalogueFaults(t.gw.supply).set("wifi", "transient");
    const r = await shopIt([{ taxonomy: ["0200"] }]);
    expect(listed(r.body)).toEqual(new Set(["SD-MEAL", "SD-MLVG"]));
    expect(warningText(r.body, "services_not_listed")).toContain("wifi (failed, transient)");
  });

  test("a read that hangs is cut by its timeout, the answer still comes, and says transient", async () => {
    catalogueFaults(t.gw.supply).set("bag", "hang");
    catalogueFaults(t.gw.supply).set("lounge", "hang");
    const t0 = performance.now();
    const r = await shopIt([{ rfic: "C" }, { rfic: "E" }]);
    expect(performance.now() - t0).toBeLessThan(2_000);
    expect(listed(r.body).has("SD-BAG1")).toBe(false);
    expect(listed(r.body).has("SD-PRIO")).toBe(true);
    const w = warningText(r.body, "services_not_listed")!;
    expect(w).toContain("bag (timed out, transient)");
    expect(w).toContain("lounge (timed out, transient)");
  });

  test("flights are still offered when every read fails", async () => {
    for (const c of ["bag", "meal", "wifi", "priority", "lounge", "fastTrack", "pet", "flexibility", "celebration", "bundle"] as const) catalogueFaults(t.gw.supply).set(c, "fail");
    const r = await shopIt([{ rfic: "C" }]);
    expect(blocks(r.body, "Offer").length).toBe(54); // 3 x 3 flights x 6 brands
    expect(blocks(r.body, "ALaCarteOffer")).toHaveLength(0);
  });
});

describe("IncludeInd false on brand content (spec 4.7)", () => {
  const brands = (xml: string) => new Set(blocks(xml, "Offer").flatMap((o) => all(o, "PriceClassRefID")));

  test("excluding a classified bag removes offers whose brand includes it", async () => {
    const r = await shopIt([{ include: false, rfisc: ["0CD"] }]);
    expect(brands(r.body)).toEqual(new Set(["PC-SAVER", "PC-LIGHT", "PC-CLASSIC", "PC-COMFORT"]));
    const first = await shopIt([{ include: false, rfisc: ["0CC"] }]);
    expect(brands(first.body)).toEqual(new Set(["PC-SAVER", "PC-LIGHT"]));
  });

  test("naming other bundled content filters nothing and warns bundle_content_not_filtered", async () => {
    const r = await shopIt([{ include: false, rfisc: ["0G6"] }]);
    expect(brands(r.body).size).toBe(6);
    expect(warningText(r.body, "bundle_content_not_filtered")).toContain("FLEX: PRIO");
  });

  test("an exclusion that names nothing bundled gives no warning", async () => {
    const r = await shopIt([{ include: false, rfisc: ["0CL"] }]);
    expect(warningText(r.body, "bundle_content_not_filtered")).toBeUndefined();
  });
});

test("determinism: the same request answers the same bytes", async () => {
  const a = await shopIt([{ taxonomy: ["0300"] }], { correlationId: "det-1", pax: [["A", "ADT"], ["C", "CHD"]] });
  const b = await shopIt([{ taxonomy: ["0300"] }], { correlationId: "det-1", pax: [["A", "ADT"], ["C", "CHD"]] });
  expect(a.body).toBe(b.body);
});
