import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ManualClock } from "@ndc/clock";
import { decodeAirShoppingRQ, encodeAirShoppingRS, type MessageHandler } from "@ndc/messages";
import {
  A_LA_CARTE_MEMO_MAX,
  aLaCarteMemo,
  aLaCarteOffer,
  aLaCarteRequest,
  OFFER_PARTS_MAX,
  offerParts,
  offerPartsMemo,
  OfferRepository,
  payloadJson,
  PromotionCriteria,
  shop,
  type ShoppingContext,
  type StoredOffer,
} from "@ndc/shopping";
import { brandsForCabin, CATALOGUE_SERVICES, createSupply, SERVICE_BUNDLES, type Journey, type PaxType, type Supply } from "@ndc/supply";
import { serialize } from "@ndc/xml";
import { DataListsBuilder } from "../../packages/shopping/src/views/data-lists";
import { Localiser } from "../../packages/shopping/src/localisation";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { airShoppingRQ, blocks, day } from "./shop-requests";

/**
 * Shopping keeps what follows from supply and the party alone across requests (issue 8, section
 * 3): an offer's priced journeys, item prices and fares, total and baggage
 * (air-shopping/offer-parts.ts), and the a-la-carte items and item lists (air-shopping/a-la-carte.ts),
 * frozen, in bounded memos per supply. Proven here: every answer, shopped over the real HTTP stack
 * with warm memos, is byte for byte the answer of a supply whose memos are empty (a second supply
 * with the same seed, start and airline, used once per request); the stored payloads are what they
 * were; and the memos stay within their bounds, recomputing what they dropped to equal values.
 */
let t: TestGateway;
const clock = new ManualClock(Date.UTC(2026, 10, 21, 9, 0, 0));
const compared: { equal: boolean; storedEqual: boolean; jsonEqual: boolean; offers: number }[] = [];

function freshSupply(s: Supply): Supply {
  return createSupply({ seed: s.seed, startDate: s.startDate, designator: t.gw.config.airline.designator, airlineName: t.gw.config.airline.name });
}

/** Saves nothing; keeps what would have been saved. */
function capture(into: StoredOffer[]): ShoppingContext["offers"] {
  return { save: async (o: readonly StoredOffer[]) => void into.push(...o) } as unknown as ShoppingContext["offers"];
}

const handlers = new Map<string, MessageHandler>([
  [
    "AirShoppingRQ",
    async ({ envelope, seller }) => {
      const gw = t.gw;
      const request = decodeAirShoppingRQ(envelope);
      const base = { clock, settings: gw.config.shopping, promotionCriteria: new PromotionCriteria(gw.store), ownerCode: gw.config.airline.designator };
      const kept: StoredOffer[] = [];
      const fresh: StoredOffer[] = [];
      // Warm: the gateway's own supply, whose memos every earlier request filled.
      const view = await shop({ ...base, supply: gw.supply, offers: capture(kept) }, request, seller);
      const uncached = await shop({ ...base, supply: freshSupply(gw.supply), offers: capture(fresh) }, request, seller);
      const response = encodeAirShoppingRS(view);
      const text = serialize(response);
      await new OfferRepository(gw.store, clock).save(kept);
      compared.push({
        equal: text === serialize(encodeAirShoppingRS(uncached)),
        storedEqual: JSON.stringify(kept) === JSON.stringify(fresh),
        jsonEqual: kept.every((o) => payloadJson(o.payload as object) === JSON.stringify(o.payload)),
        offers: view.offers.length,
      });
      return { response };
    },
  ],
]);

beforeAll(async () => {
  t = await startTestGateway({ SHOP_ANSWER_CACHE: "off" }, clock, handlers);
});
afterAll(() => t.close());

describe("offers built from kept parts are the offers built from nothing", () => {
  test("searches that share flights, brands and products, in other currencies, languages and parties, each twice", async () => {
    const d = (n: number) => day(t.gw.supply.startDate, n);
    const PAX3: [string, string][] = [["P1", "ADT"], ["P2", "ADT"], ["P3", "CHD"]];
    const services = [{ rfic: "C" }, { taxonomy: ["0300"] }];
    const searches = [
      { legs: [{ from: "LHR", to: "FRA", date: d(30) }, { from: "FRA", to: "LHR", date: d(37) }], pax: PAX3, criteria: services },
      { legs: [{ from: "LHR", to: "FRA", date: d(30) }], pax: PAX3, criteria: services },
      { legs: [{ from: "LHR", to: "FRA", date: d(30) }, { from: "FRA", to: "LHR", date: d(37) }], pax: PAX3, criteria: services, currency: "USD" },
      { legs: [{ from: "LHR", to: "FRA", date: d(30) }, { from: "FRA", to: "LHR", date: d(37) }], pax: PAX3, criteria: services, langUsage: ["de"] },
      { legs: [{ from: "LHR", to: "FRA", date: d(30) }, { from: "FRA", to: "LHR", date: d(37) }], pax: [["A1", "ADT"], ["I1", "INF"]] as [string, string][], criteria: services },
      { legs: [{ from: "LHR", to: "FRA", date: d(30) }, { from: "FRA", to: "LHR", date: d(37) }], pax: [["X", "CHD"], ["Y", "ADT"], ["Z", "ADT"]] as [string, string][], criteria: [{ rfisc: ["0CC"] }] },
      { legs: [{ from: "LHR", to: "FRA", date: d(30) }, { from: "FRA", to: "CDG", date: d(33) }, { from: "CDG", to: "LHR", date: d(37) }], currency: "JPY" },
      { legs: [{ from: "LHR", to: "FRA", date: d(30), cabin: "C" }], pax: PAX3, criteria: services },
    ];
    for (const s of [...searches, ...searches]) {
      const r = await t.ndc("AirShoppingRQ", airShoppingRQ(s));
      expect(r.status).toBe(200);
      expect(blocks(r.body, "Offer").length).toBeGreaterThan(0);
    }
    expect(compared.length).toBe(searches.length * 2);
    expect(compared.filter((c) => !c.equal)).toEqual([]);
    expect(compared.every((c) => c.storedEqual && c.jsonEqual)).toBe(true);
    // The memos were used: the second round found every part kept.
    expect(offerPartsMemo(t.gw.supply).size).toBeGreaterThan(0);
    expect(aLaCarteMemo(t.gw.supply).lists.size).toBeGreaterThan(0);
  });
});

describe("the shopping memos are bounded", () => {
  test("past the bound the least recently used parts are dropped, and computed again they are equal", () => {
    const supply = createSupply({ seed: 7, startDate: "2026-11-21" });
    const loc = new Localiser(["en"]);
    const lists = new DataListsBuilder(loc, "XB");
    const byType = new Map<PaxType, string[]>([["ADT", ["P1"]]]);
    const catalogue = { services: CATALOGUE_SERVICES.filter((s) => s.kind === "bag" || s.kind === "meal"), bundles: SERVICE_BUNDLES };
    const routes = [["LHR", "FRA"], ["FRA", "LHR"], ["LHR", "CDG"], ["CDG", "LHR"], ["FRA", "CDG"], ["CDG", "FRA"]];
    const journeys: Journey[] = [];
    for (let n = 1; journeys.length < OFFER_PARTS_MAX / 2 + 200 && n < 330; n++) {
      for (const [o, dst] of routes) journeys.push(...supply.journeys(o!, dst!, addDays("2026-11-21", n)));
    }
    const economy = brandsForCabin("ECONOMY");
    let first: ReturnType<typeof offerParts> | undefined;
    let calls = 0;
    for (const j of journeys) {
      for (const brand of economy.slice(0, 2)) {
        // Parts are kept from the second time they are asked for (a search that never comes again is not frozen).
        const once = offerParts(supply, [j], brand, { ADT: 1 }, byType, "P1:ADT", "EUR", "en", new Map());
        expect(Object.isFrozen(once)).toBe(false);
        const parts = offerParts(supply, [j], brand, { ADT: 1 }, byType, "P1:ADT", "EUR", "en", new Map());
        expect(Object.isFrozen(parts)).toBe(true);
        expect(offerParts(supply, [j], brand, { ADT: 1 }, byType, "P1:ADT", "EUR", "en", new Map())).toBe(parts);
        first ??= parts;
        calls++;
        // Each call as its own request: a list (and its items) is kept from the second request that asks for it.
        aLaCarteOffer(supply, "XB", `OFR-${calls}`, parts.flights, catalogue, lists, aLaCarteRequest(catalogue), "2026-12-01T00:00:00Z", "en");
      }
    }
    expect(calls).toBeGreaterThan(OFFER_PARTS_MAX);
    {
      // A list asked for by one request only is not frozen (a first search of its kind pays no
      // freezing); asked for by a second request it is kept, frozen, and the third gets that object.
      const j = supply.journeys("LHR", "CDG", addDays("2026-11-21", 331 - 1))[0] ?? journeys.at(-1)!;
      const parts = offerParts(supply, [j], economy[2] ?? economy[0]!, { ADT: 1 }, byType, "P1:ADT", "GBP", "en", new Map());
      const ask = () => aLaCarteOffer(supply, "XB", "OFR-X", parts.flights, catalogue, lists, aLaCarteRequest(catalogue), "2026-12-01T00:00:00Z", "en")!.view.items;
      const once = ask();
      expect(Object.isFrozen(once)).toBe(false);
      const kept = ask();
      expect(Object.isFrozen(kept)).toBe(true);
      expect(kept).toEqual(once);
      expect(ask()).toBe(kept);
    }
    const parts = offerPartsMemo(supply);
    const alc = aLaCarteMemo(supply);
    expect(parts.size).toBe(OFFER_PARTS_MAX);
    expect(alc.lists.size).toBe(A_LA_CARTE_MEMO_MAX.lists);
    expect(alc.items.size).toBe(A_LA_CARTE_MEMO_MAX.items);
    // The first parts were dropped: asked again (twice, to be kept again), they are computed again, equal and frozen.
    offerParts(supply, [journeys[0]!], economy[0]!, { ADT: 1 }, byType, "P1:ADT", "EUR", "en", new Map());
    const again = offerParts(supply, [journeys[0]!], economy[0]!, { ADT: 1 }, byType, "P1:ADT", "EUR", "en", new Map());
    expect(again).not.toBe(first!);
    expect(again).toEqual(first!);
    expect(Object.isFrozen(again.items[0]!.price)).toBe(true);
    expect(parts.size).toBe(OFFER_PARTS_MAX);
  });
});

function addDays(iso: string, n: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}
