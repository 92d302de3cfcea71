import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { MESSAGES } from "@ndc/messages";
import { PRODUCTION_ENV, startTestGateway, type TestGateway } from "../support/gateway";
import { ndcRequest } from "../support/requests";

// Transport is tested up to the handler boundary: no business handlers, so every message answers 501.
const NO_HANDLERS = new Map();

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway({ AIRLINE_NAME: "Test Air" }, undefined, NO_HANDLERS);
});
afterAll(() => t.close());

describe("discovery document GET /24.4", () => {
  test("describes the airline, version, messages, capabilities, compression, token URL and sandbox", async () => {
    const res = await t.fetch("/24.4");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("application/json");
    const doc = (await res.json()) as any;
    expect(doc.airline).toEqual({ designator: "XB", name: "Test Air" });
    expect(doc.version).toBe("24.4");
    expect(doc.tokenUrl).toBe("http://localhost/oauth/token");
    expect(doc.requestCompression.gzip).toBe(true);
    // The budgets the gateway enforces, the per-address token failure limit among them.
    expect(doc.rateLimits).toEqual({ shopPerMinute: t.gw.config.rateLimits.shopPerMinute, defaultPerMinute: t.gw.config.rateLimits.defaultPerMinute, tokenPerMinute: t.gw.config.rateLimits.tokenPerMinute, tokenFailuresPerAddressPerMinute: 20 });
    expect(Array.isArray(doc.capabilities)).toBe(true);
    expect(doc.messages).toHaveLength(MESSAGES.length);
    expect(doc.messages).toContainEqual({
      name: "OrderCreateRQ",
      path: "/24.4/OrderCreateRQ",
      messageNameHeader: "IATA_OrderCreateRQ",
      scope: "ndc:order:write",
      responseRoot: "IATA_OrderViewRS",
      // No handlers in this suite: every message answers 501, so discovery calls each one planned.
      status: "planned",
    });
    expect(doc.capabilities).toEqual([]);
    expect(doc.sandbox.airports.length).toBeGreaterThanOrEqual(8);
    expect(doc.sandbox.cityPairs).toContainEqual(["LHR", "JFK"]);
    // Every served pair joins two published airports.
    const codes = new Set(doc.sandbox.airports.map((a: any) => a.code));
    for (const [o, d] of doc.sandbox.cityPairs) expect(codes.has(o) && codes.has(d) && o !== d).toBe(true);
  });

  test("the designator is configurable and production publishes no sandbox", async () => {
    const p = await startTestGateway({ ...PRODUCTION_ENV, AIRLINE_DESIGNATOR: "QX" });
    try {
      const doc = (await (await p.fetch("/24.4")).json()) as any;
      expect(doc.airline.designator).toBe("QX");
      expect(doc.sandbox).toBeUndefined();
      expect(doc.tokenUrl).toBe("https://ndc.example.test/oauth/token");
    } finally {
      await p.close();
    }
  });
});

describe("health", () => {
  test("live and ready", async () => {
    expect((await t.fetch("/health/live")).status).toBe(200);
    const ready = await t.fetch("/health/ready");
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready" });
  });

  test("ready is 503 once the store is gone", async () => {
    const g = await startTestGateway({}, undefined, NO_HANDLERS);
    await g.gw.store.close();
    const r = await g.fetch("/health/ready");
    expect(r.status).toBe(503);
    expect(await r.json()).toEqual({ status: "not_ready" });
    await g.close();
  });
});

describe("structured request log", () => {
  test("one JSON line per NDC request with correlation id, client, message, status and duration; no body or key", async () => {
    t.logs.length = 0;
    await t.ndc("AirShoppingRQ", ndcRequest("AirShoppingRQ", { correlationId: "log-corr-1", request: "<cns:Secret>Smith P1234567</cns:Secret>" }));
    const lines = t.logs.map((l) => JSON.parse(l)).filter((l) => l.event === "request");
    expect(lines).toHaveLength(1);
    const line = lines[0];
    expect(line.correlationId).toBe("log-corr-1");
    expect(line.client).toBeString();
    expect(line.message).toBe("AirShoppingRQ");
    expect(line.status).toBe(501);
    expect(typeof line.durationMs).toBe("number");
    const all = t.logs.join("\n");
    expect(all).not.toContain("P1234567");
    expect(all).not.toContain(t.gw.sandbox!.api_key);
  });

  test("a path the gateway does not serve is 404, not cached, and logged with its error code", async () => {
    t.logs.length = 0;
    const res = await t.fetch("/admin/secret?x=1", { method: "POST", body: "x" });
    expect(res.status).toBe(404);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.json()).toEqual({ error: "not_found" });
    const lines = t.logs.map((l) => JSON.parse(l)).filter((l) => l.event === "request");
    expect(lines.map((l) => [l.method, l.path, l.status, l.errorCode])).toEqual([["POST", "/admin/secret", 404, "not_found"]]);
  });

  test("a refused request is logged with its error code", async () => {
    t.logs.length = 0;
    await t.ndc("AirShoppingRQ", "<broken", {});
    const line = t.logs.map((l) => JSON.parse(l)).find((l) => l.event === "request");
    expect(line.status).toBe(400);
    expect(line.errorCode).toBe("xml_malformed");
  });
});

test("a token request gets its log line, naming the client only once authenticated, never the secret", async () => {
  t.logs.length = 0;
  const s = t.gw.sandbox!;
  const ok = await t.fetch("/oauth/token", {
    method: "POST",
    headers: { authorization: `Basic ${btoa(`${s.client_id}:${s.client_secret}`)}`, "content-type": "application/x-www-form-urlencoded" },
    body: "grant_type=client_credentials",
  });
  expect(ok.status).toBe(200);
  expect(ok.headers.get("x-authenticated-client")).toBeNull();
  const bad = await t.fetch("/oauth/token", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: `grant_type=client_credentials&client_id=${s.client_id}&client_secret=wrong`,
  });
  expect(bad.status).toBe(401);
  expect(bad.headers.get("x-error-code")).toBeNull();
  const lines = t.logs.map((l) => JSON.parse(l)).filter((l) => l.event === "request");
  expect(lines.map((l) => [l.message, l.status, l.client, l.errorCode])).toEqual([
    ["token", 200, s.client_id, undefined],
    ["token", 401, undefined, "invalid_client"],
  ]);
  const all = t.logs.join("\n");
  expect(all).not.toContain(s.client_secret);
  expect(all).not.toContain((await ok.json() as any).access_token);
});
