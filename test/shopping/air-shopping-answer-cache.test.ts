import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { ManualClock } from "@ndc/clock";
import { createApiKey, registerAgency, registerClient } from "@ndc/auth";
import { AnswerCache, catalogueFaults } from "@ndc/shopping";
import type { AirShoppingView } from "@ndc/messages";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { airShoppingRQ, all, blocks, day, offerPriceRQ } from "./shop-requests";

/** SHOP_ANSWER_CACHE (spec 8: offers cached within their validity window). */
const T0 = Date.UTC(2026, 10, 21, 9, 0, 0);
const clock = new ManualClock(T0);
let t: TestGateway;
let start: string;
let otherKey = "";
beforeAll(async () => {
  t = await startTestGateway({ OFFER_TTL_MINUTES: "30" }, clock);
  start = t.gw.supply.startDate;
  await registerAgency(t.gw.store, { agencyId: "AGY-CACHE-B", iataNumber: "34343434", name: "Second agency" });
  const c = await registerClient(t.gw.store, { agency: "AGY-CACHE-B", scopes: "ndc:shop" });
  otherKey = (await createApiKey(t.gw.store, c.clientId)).apiKey;
});
afterAll(() => t.close());
afterEach(() => catalogueFaults(t.gw.supply).clear());

const PAX: [string, string][] = [["P1", "ADT"], ["P2", "CHD"]];
const rq = (correlationId: string, date = 40) =>
  airShoppingRQ({ legs: [{ from: "LHR", to: "FRA", date: day(start, date) }, { from: "FRA", to: "LHR", date: day(start, date + 4) }], pax: PAX, criteria: [{ taxonomy: ["0200"] }], correlationId });
const shopAs = async (body: string, key?: string) => {
  const r = await t.ndc("AirShoppingRQ", body, key ? { headers: { "x-api-key": key } } : undefined);
  expect(r.status).toBe(200);
  return r.body;
};
const withoutCorrelation = (xml: string) => xml.replace(/<cns:CorrelationID>[^<]*<\/cns:CorrelationID>/, "");
const expiry = (xml: string) => Date.parse(all(xml, "OfferExpirationTimeLimitDateTime")[0]!);
const offerIds = (xml: string) => blocks(xml, "Offer").map((o) => all(o, "OfferID")[0]!);

describe("the answer cache", () => {
  test("the same seller's identical request is answered with the offers already issued, CorrelationID echoed", async () => {
    clock.set(T0);
    const first = await shopAs(rq("CACHE-1"));
    clock.advance(5 * 60_000);
    const again = await shopAs(rq("CACHE-2"));
    expect(again).toContain("<cns:CorrelationID>CACHE-2</cns:CorrelationID>");
    expect(withoutCorrelation(again)).toBe(withoutCorrelation(first));
    expect(expiry(again)).toBe(T0 + 30 * 60_000); // the expiry the offers were issued (and stored) with
    // The reused offers resolve: OfferPrice prices one of them.
    const offer = blocks(again, "Offer")[0]!;
    // Each passenger once: a PaxRefID repeated in one item is refused (docs/messages/OfferPriceRQ.md).
    const items = blocks(offer, "OfferItem").map((i) => ({ id: all(i, "OfferItemID")[0]!, pax: [...new Set(all(all(i, "FareDetail").length ? blocks(i, "FareDetail")[0]! : i, "PaxRefID"))] }));
    const priced = await t.ndc("OfferPriceRQ", offerPriceRQ({ offers: [{ offerId: all(offer, "OfferID")[0]!, items }] }));
    expect(priced.status).toBe(200);
  });

  test("a hit answers the same document whatever the encoding asked (identity or gzip)", async () => {
    clock.set(T0);
    const body = rq("CACHE-ENC-1", 44);
    const first = await shopAs(body);
    clock.advance(60_000);
    for (const encoding of ["identity", "gzip"]) {
      const r = await t.ndc("AirShoppingRQ", body.replace("CACHE-ENC-1", `CACHE-ENC-${encoding}`), { headers: { "accept-encoding": encoding } });
      expect(r.status).toBe(200);
      expect(r.headers.get("content-encoding") ?? "identity").toBe(encoding);
      expect(r.body).toBe(first.replace("CACHE-ENC-1", `CACHE-ENC-${encoding}`));
    }
  });

  test("another seller never gets the first seller's offers", async () => {
    clock.set(T0);
    const mine = await shopAs(rq("CACHE-A", 50));
    const theirs = await shopAs(rq("CACHE-B", 50), otherKey);
    const mineIds = new Set(offerIds(mine));
    expect(offerIds(theirs).length).toBe(mineIds.size);
    expect(offerIds(theirs).some((id) => mineIds.has(id))).toBe(false);
    // Each seller's repeat is its own answer again.
    expect(withoutCorrelation(await shopAs(rq("CACHE-A2", 50)))).toBe(withoutCorrelation(mine));
    expect(withoutCorrelation(await shopAs(rq("CACHE-B2", 50), otherKey))).toBe(withoutCorrelation(theirs));
  });

  test("an answer is reused for at most half the offer validity, then issued afresh", async () => {
    clock.set(T0);
    const first = await shopAs(rq("CACHE-E1", 60));
    clock.advance(15 * 60_000 - 1);
    expect(expiry(await shopAs(rq("CACHE-E2", 60)))).toBe(expiry(first));
    clock.advance(1);
    const fresh = await shopAs(rq("CACHE-E3", 60));
    expect(expiry(fresh)).toBe(T0 + 15 * 60_000 + 30 * 60_000);
    expect(expiry(fresh) - clock.now()).toBe(30 * 60_000);
  });

  test("catalogue failures are never hidden, and an answer with a failed read is not kept", async () => {
    clock.set(T0);
    const complete = await shopAs(rq("CACHE-F1", 70));
    expect(complete).not.toContain("services_not_listed");
    catalogueFaults(t.gw.supply).set("meal", "fail");
    const failed = await shopAs(rq("CACHE-F2", 70));
    expect(failed).toContain("services_not_listed");
    catalogueFaults(t.gw.supply).clear();
    expect(await shopAs(rq("CACHE-F3", 70))).not.toContain("services_not_listed");
  });
});

test("SHOP_ANSWER_CACHE=off: every request is issued afresh", async () => {
  const c = new ManualClock(T0);
  const g = await startTestGateway({ SHOP_ANSWER_CACHE: "off" }, c);
  try {
    const s = g.gw.supply.startDate;
    const body = airShoppingRQ({ legs: [{ from: "LHR", to: "FRA", date: day(s, 40) }], correlationId: "OFF-1" });
    const a = await g.ndc("AirShoppingRQ", body);
    c.advance(60_000);
    const b = await g.ndc("AirShoppingRQ", body);
    expect(expiry(b.body)).toBe(expiry(a.body) + 60_000);
  } finally {
    await g.close();
  }
});

test("the cache is bounded (least recently used dropped) and entries end when they should", () => {
  const cache = new AnswerCache(2);
  const view = (n: number) => ({ ownerCode: `X${n}` }) as unknown as AirShoppingView;
  cache.set("a", view(1), 100);
  cache.set("b", view(2), 100);
  expect(cache.get("a", 0)?.ownerCode).toBe("X1"); // a is now the most recently used
  cache.set("c", view(3), 100);
  expect(cache.size).toBe(2);
  expect(cache.get("b", 0)).toBeUndefined();
  expect(cache.get("c", 99)?.ownerCode).toBe("X3");
  expect(cache.get("c", 100)).toBeUndefined();
  expect(cache.size).toBe(1);
});
