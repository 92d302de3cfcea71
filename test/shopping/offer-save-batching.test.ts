import { afterAll, beforeAll, expect, test } from "bun:test";
import { ManualClock } from "@ndc/clock";
import type { Store } from "@ndc/store";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { airShoppingRQ, all, blocks, day, offerPriceRQ } from "./shop-requests";

/**
 * Offers of concurrent AirShoppingRQs are saved in one durable transaction (one fsync) instead of
 * one each (packages/shopping/src/offers/repository.ts; issue 8, section 3), and still no answer
 * names an offer before it is durable: each save resolves only after its commit, and a failed
 * commit fails every shop in it.
 */
let t: TestGateway;
const clock = new ManualClock(Date.UTC(2026, 10, 21, 9, 0, 0));
beforeAll(async () => {
  t = await startTestGateway({ SHOP_ANSWER_CACHE: "off" }, clock);
});
afterAll(() => t.close());

/** Counts (and optionally fails) the store's write transactions while `f` runs. */
async function countingWrites<T>(f: () => Promise<T>, fail = false): Promise<{ result: T; writes: number }> {
  const store = t.gw.store as Store & { write: Store["write"] };
  const original = store.write;
  let writes = 0;
  store.write = ((fn: Parameters<Store["write"]>[0]) => {
    writes++;
    return fail ? Promise.reject(new Error("disk full (test)")) : original.call(store, fn);
  }) as Store["write"];
  try {
    return { result: await f(), writes };
  } finally {
    store.write = original;
  }
}

const SHOPS = 6;
const shops = () =>
  Promise.all(
    Array.from({ length: SHOPS }, (_, i) =>
      t.ndc("AirShoppingRQ", airShoppingRQ({ legs: [{ from: "LHR", to: "FRA", date: day(t.gw.supply.startDate, 20 + i) }], pax: [["P1", "ADT"], ["P2", "CHD"]] })),
    ),
  );

test("concurrent shops share one commit of their offers, and every offer they answer is stored", async () => {
  const { result: answers, writes } = await countingWrites(shops);
  for (const a of answers) expect(a.status).toBe(200);
  // One commit per answer before batching; concurrent saves now join one.
  expect(writes).toBeLessThan(SHOPS);
  expect(writes).toBeGreaterThanOrEqual(1);
  // Every answer's offers were durable when it was sent: OfferPrice resolves one of each.
  for (const a of answers) {
    const offer = blocks(a.body, "Offer")[0]!;
    const items = blocks(offer, "OfferItem").map((i) => ({ id: all(i, "OfferItemID")[0]!, pax: all(blocks(i, "FareDetail")[0]!, "PaxRefID") }));
    const priced = await t.ndc("OfferPriceRQ", offerPriceRQ({ offers: [{ offerId: all(offer, "OfferID")[0]!, items }] }));
    expect(priced.status).toBe(200);
  }
});

test("a failed commit fails every shop in it: no answer names an offer", async () => {
  const { result: answers, writes } = await countingWrites(shops, true);
  expect(writes).toBeGreaterThanOrEqual(1);
  for (const a of answers) {
    expect(a.status).toBe(500);
    expect(a.body).not.toContain("<cns:OfferID>");
  }
  // And the next shop is saved and answered normally.
  const again = await t.ndc("AirShoppingRQ", airShoppingRQ({ legs: [{ from: "LHR", to: "FRA", date: day(t.gw.supply.startDate, 40) }] }));
  expect(again.status).toBe(200);
});
