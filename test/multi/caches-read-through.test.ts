/**
 * Issue 22 item 2: what every process reads from the store at each use, seen across two workers.
 * A seller's sandbox clock moved through one is the clock the other reads; the promotion criteria
 * switched off with the CLI are off in both; the per-minute request limits are a per-process share
 * (GATEWAY_WORKERS), so together the workers never allow more than the figure.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { run, sourceCli } from "../binary/processes";
import { orderRetrieveRQ, TRAVEL_DATE } from "../orders-http/helpers";
import { airShoppingRQ, all, blocks, offerPriceRQ } from "../shopping/shop-requests";
import { baseEnv, multiDataDir, type Worker } from "./support";

const DEFAULT_PER_MINUTE = 6;

const data = multiDataDir();
let a: Worker;
let b: Worker;
let apiKey: string;

beforeAll(async () => {
  // Two workers as `serve --workers 2` runs them: each allows half of every per-minute figure.
  const env = { GATEWAY_WORKERS: "2", RATE_LIMIT_DEFAULT_PER_MINUTE: String(DEFAULT_PER_MINUTE) };
  a = await data.startWorker(env);
  b = await data.startWorker(env);
  apiKey = (JSON.parse(readFileSync(join(data.dir, "sandbox-credentials.json"), "utf8")) as { api_key: string }).api_key;
}, 60_000);

afterAll(() => data.close());

async function sandboxClock(w: Worker, body?: object): Promise<{ now: string; offsetSeconds: number }> {
  const res = await fetch(`${w.url}/sandbox/clock`, body ? { method: "POST", headers: { "content-type": "application/json", "x-api-key": apiKey }, body: JSON.stringify(body) } : { headers: { "x-api-key": apiKey } });
  expect(res.status).toBe(200);
  return (await res.json()) as { now: string; offsetSeconds: number };
}

const warningCodes = (xml: string) => blocks(xml, "Warning").map((w) => all(w, "Code")[0]);

describe("read at every use, by every worker", () => {
  test("a seller's sandbox clock moved through one worker is the clock the other reads", async () => {
    const before = await sandboxClock(b);
    const moved = await sandboxClock(a, { advanceSeconds: 3_600 });
    expect(moved.offsetSeconds).toBe(before.offsetSeconds + 3_600);
    expect((await sandboxClock(b)).offsetSeconds).toBe(moved.offsetSeconds);
    await sandboxClock(a, { offsetSeconds: before.offsetSeconds });
  }, 30_000);

  test("promotion criteria switched off with the CLI are off for both workers' OfferPrice", async () => {
    const shop = await a.ndc("AirShoppingRQ", airShoppingRQ({ legs: [{ from: "LHR", to: "CDG", date: TRAVEL_DATE }], pax: [["PAX1", "ADT"]], currency: "EUR" }));
    expect(shop.status).toBe(200);
    const offer = blocks(shop.body, "Offer")[0]!;
    const items = blocks(offer, "OfferItem").map((i) => ({ id: all(i, "OfferItemID")[0]!, pax: ["PAX1"] }));
    const price = (w: Worker) => w.ndc("OfferPriceRQ", offerPriceRQ({ offers: [{ offerId: all(offer, "OfferID")[0]!, items }], currency: "EUR" }));
    for (const w of [a, b]) expect(warningCodes((await price(w)).body)).not.toContain("promotions_unavailable");

    const cli = await run(sourceCli, ["promotions", "off"], baseEnv(data.dir));
    expect(cli.code).toBe(0);
    for (const w of [a, b]) {
      const priced = await price(w);
      expect(priced.status).toBe(200);
      expect(warningCodes(priced.body)).toContain("promotions_unavailable");
    }
    expect((await run(sourceCli, ["promotions", "on"], baseEnv(data.dir))).code).toBe(0);
  }, 60_000);
});

describe("per-minute request limits with GATEWAY_WORKERS=2", () => {
  test("each worker allows half the figure: together, never more than the figure", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < DEFAULT_PER_MINUTE * 2; i++) statuses.push((await (i % 2 === 0 ? a : b).ndc("OrderRetrieveRQ", orderRetrieveRQ("XB-NO-SUCH-ORDER"))).status);
    const allowed = statuses.filter((s) => s !== 429).length;
    // The calls above were the shopping class (AirShoppingRQ, OfferPriceRQ) or no NDC call at all:
    // these are the credential's first default-class calls. Two budgets of 6 would allow all 12.
    expect(allowed).toBe(DEFAULT_PER_MINUTE);
    expect(statuses.filter((s) => s === 429)).toHaveLength(DEFAULT_PER_MINUTE);
  }, 60_000);
});
