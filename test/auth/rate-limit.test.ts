import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ManualClock } from "@ndc/clock";
import { createRateLimiter } from "@ndc/auth";
import { basic, bearer, bootAuthGateway, form, type AuthGateway } from "./harness";

/** Per-credential token buckets (spec 7.2, 8): 429 rate_limited with Retry-After. */
describe("rate limits over HTTP", () => {
  let g: AuthGateway;
  const clock = new ManualClock();
  beforeAll(async () => {
    g = await bootAuthGateway({ RATE_LIMIT_SHOP_PER_MINUTE: "2", RATE_LIMIT_DEFAULT_PER_MINUTE: "3", RATE_LIMIT_TOKEN_PER_MINUTE: "2" }, { clock });
  });
  afterAll(() => g.close());

  test("shopping messages: the third call in a minute gets 429 with Retry-After", async () => {
    const key = { "x-api-key": g.gw.sandbox!.api_key };
    expect((await g.ndc("AirShoppingRQ", key)).status).toBe(501);
    expect((await g.ndc("AirShoppingRQ", key)).status).toBe(501);
    const r = await g.ndc("AirShoppingRQ", key);
    expect(r.status).toBe(429);
    expect(r.code).toBe("rate_limited");
    expect(r.headers.get("retry-after")).toBe("30");
    // Another class has its own bucket.
    expect((await g.ndc("ServiceListRQ", key, undefined)).status).not.toBe(429);
    clock.advance(30_000);
    expect((await g.ndc("AirShoppingRQ", key)).status).toBe(501);
  });

  test("each credential has its own bucket", async () => {
    const s = g.gw.sandbox!;
    const tok = await g.token({ authorization: basic(s.client_id, s.client_secret), body: form({ grant_type: "client_credentials" }) });
    expect(tok.status).toBe(200);
    const t = tok.json.access_token as string;
    expect((await g.ndc("AirShoppingRQ", bearer(t))).status).toBe(501);
    expect((await g.ndc("AirShoppingRQ", bearer(t))).status).toBe(501);
    expect((await g.ndc("AirShoppingRQ", bearer(t))).status).toBe(429);
  });

  test("the token endpoint is limited per client", async () => {
    const s = g.gw.sandbox!;
    clock.advance(60_000);
    const ask = () => g.token({ authorization: basic(s.client_id, s.client_secret), body: form({ grant_type: "client_credentials" }) });
    expect((await ask()).status).toBe(200);
    expect((await ask()).status).toBe(200);
    const r = await ask();
    expect(r.status).toBe(429);
    expect(r.headers.get("retry-after")).toBe("30");
    expect(r.headers.get("cache-control")).toBe("no-store");
  });
});

describe("createRateLimiter", () => {
  const limits = { shopPerMinute: 60, defaultPerMinute: 120, tokenPerMinute: 6, tokenFailuresPerMinute: 6 };

  test("burst equals the per-minute figure, refill is continuous", () => {
    const clock = new ManualClock();
    const rl = createRateLimiter(limits, clock);
    for (let i = 0; i < 60; i++) expect(rl.take("k", "shop")).toEqual({ ok: true });
    expect(rl.take("k", "shop")).toEqual({ ok: false, retryAfterSeconds: 1 });
    clock.advance(999);
    expect(rl.take("k", "shop").ok).toBe(false);
    clock.advance(1);
    expect(rl.take("k", "shop")).toEqual({ ok: true });
  });

  test("Retry-After is whole seconds until one token, at least 1", () => {
    const clock = new ManualClock();
    const rl = createRateLimiter(limits, clock);
    for (let i = 0; i < 6; i++) rl.take("k", "token");
    expect(rl.take("k", "token")).toEqual({ ok: false, retryAfterSeconds: 10 });
    clock.advance(9_500);
    expect(rl.take("k", "token")).toEqual({ ok: false, retryAfterSeconds: 1 });
  });

  test("keys and classes are independent", () => {
    const rl = createRateLimiter({ shopPerMinute: 1, defaultPerMinute: 1, tokenPerMinute: 1, tokenFailuresPerMinute: 1 }, new ManualClock());
    expect(rl.take("a", "shop").ok).toBe(true);
    expect(rl.take("a", "shop").ok).toBe(false);
    expect(rl.take("a", "default").ok).toBe(true);
    expect(rl.take("b", "shop").ok).toBe(true);
  });

  test("GATEWAY_WORKERS: each process allows its share, rounded down, so together they never exceed the figure", () => {
    const clock = new ManualClock();
    // Three workers sharing 60 shopping calls a minute: 20 each; 7 token requests: 2 each (6 in all).
    const rl = createRateLimiter({ ...limits, tokenPerMinute: 7, workers: 3 }, clock);
    for (let i = 0; i < 20; i++) expect(rl.take("k", "shop")).toEqual({ ok: true });
    expect(rl.take("k", "shop")).toEqual({ ok: false, retryAfterSeconds: 3 });
    expect(rl.take("k", "token").ok).toBe(true);
    expect(rl.take("k", "token").ok).toBe(true);
    expect(rl.take("k", "token").ok).toBe(false);
    // A figure below the workers still lets each process serve one call.
    const tiny = createRateLimiter({ ...limits, defaultPerMinute: 1, workers: 4 }, clock);
    expect(tiny.take("k", "default").ok).toBe(true);
    expect(tiny.take("k", "default").ok).toBe(false);
  });

  test("memory stays bounded: idle buckets are dropped, then the least recently used", () => {
    const clock = new ManualClock();
    const rl = createRateLimiter({ shopPerMinute: 1, defaultPerMinute: 1, tokenPerMinute: 1, tokenFailuresPerMinute: 1 }, clock, { maxBuckets: 100 });
    for (let i = 0; i < 10_000; i++) rl.take(`k${i}`, "shop");
    expect(rl.size).toBeLessThanOrEqual(100);
    // "recent" stays limited while thousands of other keys pass through.
    rl.take("recent", "shop");
    expect(rl.take("recent", "shop").ok).toBe(false);
    for (let i = 0; i < 50; i++) rl.take(`other${i}`, "shop");
    expect(rl.take("recent", "shop").ok).toBe(false);
    clock.advance(60_000);
    expect(rl.take("recent", "shop").ok).toBe(true);
    // After a quiet minute every other bucket was full, so the next sweep drops them.
    expect(rl.size).toBeLessThanOrEqual(1);
  });
});
