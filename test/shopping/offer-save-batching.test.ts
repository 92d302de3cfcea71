import { afterAll, beforeAll, expect, test } from "bun:test";
import { ManualClock } from "@ndc/clock";
import type { Store } from "@ndc/store";
import { OfferRepository } from "@ndc/shopping";
import { startTestGateway, type NdcReply, type TestGateway } from "../support/gateway";
import { airShoppingRQ, all, blocks, day, offerPriceRQ } from "./shop-requests";

/**
 * The offers of AirShoppingRQ and OfferPriceRQ are saved through the store's group commit, the one
 * batching mechanism (packages/store/src/commit-queue.ts; the offer repository has none of its
 * own), and no answer names an offer before it is durable: the answer is written while the save
 * commits, and sent only once the save settled; a save that fails answers the error instead.
 */
let t: TestGateway;
const clock = new ManualClock(Date.UTC(2026, 10, 21, 9, 0, 0));
beforeAll(async () => {
  t = await startTestGateway({ SHOP_ANSWER_CACHE: "off" }, clock);
});
afterAll(() => t.close());

/**
 * Wraps the store's write path while `f` runs: counts write() calls, and settles each write only
 * when `settle` says (after the real commit), with its result or a failure.
 */
async function wrappedWrites<T>(f: () => Promise<T>, settle: () => Promise<"ok" | "fail"> = async () => "ok"): Promise<{ result: T; writes: number }> {
  const store = t.gw.store as Store & { write: Store["write"] };
  const original = store.write;
  let writes = 0;
  store.write = ((fn: Parameters<Store["write"]>[0]) => {
    writes++;
    return original.call(store, fn).then(async (v) => {
      if ((await settle()) === "fail") throw new Error("fsync failed (test)");
      return v;
    });
  }) as Store["write"];
  try {
    return { result: await f(), writes };
  } finally {
    store.write = original;
  }
}

const SHOPS = 6;
const shopRQ = (n: number) => airShoppingRQ({ legs: [{ from: "LHR", to: "FRA", date: day(t.gw.supply.startDate, n) }], pax: [["P1", "ADT"], ["P2", "CHD"]] });
const shops = () => Promise.all(Array.from({ length: SHOPS }, (_, i) => t.ndc("AirShoppingRQ", shopRQ(20 + i))));

/** The first flight offer of an answer, as an OfferPriceRQ. */
function priceFirstOffer(body: string): string {
  const offer = blocks(body, "Offer")[0]!;
  const items = blocks(offer, "OfferItem").map((i) => ({ id: all(i, "OfferItemID")[0]!, pax: all(blocks(i, "FareDetail")[0]!, "PaxRefID") }));
  return offerPriceRQ({ offers: [{ offerId: all(offer, "OfferID")[0]!, items }] });
}

const until = async (cond: () => boolean) => {
  for (let i = 0; i < 500 && !cond(); i++) await Bun.sleep(5);
};

test("one store write per shop, none batched by the repository; concurrent shops share COMMITs; every offer answered is stored", async () => {
  const before = t.gw.store.commits.commits;
  const { result: answers, writes } = await wrappedWrites(shops);
  for (const a of answers) expect(a.status).toBe(200);
  // The repository hands each save straight to the store (it kept a setImmediate batch of its own).
  expect(writes).toBe(SHOPS);
  expect(t.gw.store.commits.commits - before).toBeLessThanOrEqual(SHOPS);
  for (const a of answers) expect((await t.ndc("OfferPriceRQ", priceFirstOffer(a.body))).status).toBe(200);
});

test("saves ready in the same turn share one COMMIT through the store's group commit", async () => {
  await t.gw.store.write(async () => {}); // nothing of the earlier tests still queued
  const before = t.gw.store.commits.commits;
  const owner = { clientId: "batch-test", agencyId: "batch-test" };
  const offer = (i: number) => ({ offerId: `batch-test-${i}`, source: "air_shopping" as const, owner, createdAt: clock.now(), expiresAt: clock.now() + 60_000, payload: { i } });
  const offers = new OfferRepository(t.gw.store, clock);
  await Promise.all(Array.from({ length: 4 }, (_, i) => offers.save([offer(i)])));
  expect(t.gw.store.commits.commits - before).toBe(1);
  for (let i = 0; i < 4; i++) expect((await offers.resolve(`batch-test-${i}`, owner)).payload).toEqual({ i });
});

/**
 * Sends a request while every store write is held back after its commit, checks that no answer
 * arrives while it is held (the answer is written meanwhile), then lets it settle as `outcome`.
 */
async function withHeldSave(send: () => Promise<NdcReply>, outcome: "ok" | "fail"): Promise<NdcReply> {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const events: string[] = [];
  let asked = 0;
  const { result } = await wrappedWrites(
    async () => {
      const pending = send().then((a) => (events.push("answered"), a));
      await until(() => asked > 0);
      await Bun.sleep(150);
      expect(events).toEqual([]);
      events.push("settled");
      release();
      return pending;
    },
    async () => {
      asked++;
      await gate;
      return outcome;
    },
  );
  expect(events).toEqual(["settled", "answered"]);
  if (outcome === "fail") {
    expect(result.status).toBe(500);
    expect(result.body).not.toContain("<cns:OfferID>");
  } else expect(result.status).toBe(200);
  return result;
}

for (const outcome of ["ok", "fail"] as const) {
  const how = outcome === "ok" ? "delayed: sent after" : "delayed, then failed: an error, no offer";
  test(`an AirShopping answer waits for its offers' save to settle (${how})`, async () => {
    const answer = await withHeldSave(() => t.ndc("AirShoppingRQ", shopRQ(outcome === "ok" ? 41 : 42)), outcome);
    if (outcome === "ok") expect((await t.ndc("OfferPriceRQ", priceFirstOffer(answer.body))).status).toBe(200);
  });

  test(`an OfferPrice answer waits for its priced offer's save to settle (${how})`, async () => {
    const shopped = await t.ndc("AirShoppingRQ", shopRQ(outcome === "ok" ? 43 : 44));
    await withHeldSave(() => t.ndc("OfferPriceRQ", priceFirstOffer(shopped.body)), outcome);
  });
}

test("a failed commit fails every shop in it: no answer names an offer", async () => {
  const { result: answers, writes } = await wrappedWrites(shops, async () => "fail");
  expect(writes).toBe(SHOPS);
  for (const a of answers) {
    expect(a.status).toBe(500);
    expect(a.body).not.toContain("<cns:OfferID>");
  }
  // And the next shop is saved and answered normally.
  const again = await t.ndc("AirShoppingRQ", shopRQ(40));
  expect(again.status).toBe(200);
});
