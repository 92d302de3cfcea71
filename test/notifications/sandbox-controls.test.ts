import { afterAll, expect, test } from "bun:test";
import { ManualClock } from "@ndc/clock";
import { PRODUCTION_ENV, startTestGateway, type TestGateway } from "../support/gateway";
import { call, otherSellerToken } from "./helpers";

const open: TestGateway[] = [];
afterAll(async () => {
  for (const t of open) await t.close();
});
const gateway = async (mode: string, clock?: ManualClock) => {
  const t = await startTestGateway(mode === "production" ? PRODUCTION_ENV : { GATEWAY_MODE: mode, ...(mode === "local" ? {} : { GATEWAY_FIELD_KEY: Buffer.alloc(32, 7).toString("base64") }) }, clock);
  open.push(t);
  return t;
};

test("local mode: the clock moves and the due sweeps run; bad input and unknown jobs are refused; a credential is required", async () => {
  const clock = new ManualClock();
  const t = await gateway("local", clock);
  const key = t.gw.sandbox!.api_key;
  const before = clock.now();
  const r = await call(t, "POST", "/sandbox/clock", key, { advanceSeconds: 90 });
  expect(r.status).toBe(200);
  // The caller's business time moved; the injected clock (security time) did not (issue 19 items 22, 23).
  expect(clock.now()).toBe(before);
  expect(r.json).toEqual({ now: new Date(before + 90_000).toISOString(), offsetSeconds: 90, jobs: { "orders.expire-unpaid": { cancelled: 0 }, "orders.retained-lapse": { refunded: 0 }, "operations.feed": { flights: 0, orders: 0 }, "delivery.flown": { orders: 0 }, "partners.read-back": { orders: 0 }, "payments.clearance": { cleared: 0 }, "orders.closing": { closed: 0, waiting: 0 }, "notifications.dispatch": { started: 0, batches: 0 } } });
  // In that order: expiry, the airline's changes and deliveries, clearance, closing (which waits for delivery and clearance), then dispatch of what they wrote.
  expect(Object.keys(r.json.jobs)).toEqual(["orders.expire-unpaid", "orders.retained-lapse", "operations.feed", "delivery.flown", "partners.read-back", "payments.clearance", "orders.closing", "notifications.dispatch"]);
  for (const body of [{}, { advanceSeconds: -1 }, { advanceSeconds: 1.5 }, { advanceSeconds: "60" }]) {
    const bad = await call(t, "POST", "/sandbox/clock", key, body);
    expect([bad.status, bad.json.error]).toEqual([400, "request_invalid"]);
  }
  expect((await call(t, "GET", "/sandbox/clock", key)).json).toEqual({ now: new Date(before + 90_000).toISOString(), offsetSeconds: 90 });
  const unknown = await call(t, "POST", "/sandbox/scheduler/run", key, { job: "orders.teleport" });
  expect([unknown.status, unknown.json.error]).toEqual([400, "scheduler_job_unknown"]);
  expect(unknown.json.error_description).toContain("notifications.dispatch");
  expect((await call(t, "POST", "/sandbox/scheduler/run", key, { job: "notifications.dispatch" })).json).toEqual({ job: "notifications.dispatch", result: { started: 0, batches: 0 } });
  expect((await t.fetch("/sandbox/clock", { method: "POST", body: "{}" })).status).toBe(401);
  expect((await call(t, "PUT", "/sandbox/clock", key)).status).toBe(405);
});

test("on the wall clock in local mode, the caller's clock runs ahead of real time by what it asked", async () => {
  const t = await gateway("local");
  const key = t.gw.sandbox!.api_key;
  const r = await call(t, "POST", "/sandbox/clock", key, { advanceSeconds: 3600 });
  expect(r.status).toBe(200);
  expect(r.json.offsetSeconds).toBe(3600);
  expect(Date.parse(r.json.now) - Date.now()).toBeGreaterThan(3_599_000);
});

test("sandbox mode refuses to move the clock but runs a job; production answers 404 as for any unknown path", async () => {
  const sandbox = await gateway("sandbox");
  const key = await otherSellerToken(sandbox, "AGY-SBX", "12345703", "ndc:order");
  const moved = await call(sandbox, "POST", "/sandbox/clock", key, { advanceSeconds: 60 });
  expect([moved.status, moved.json.error]).toEqual([409, "sandbox_clock_local_only"]);
  expect((await call(sandbox, "POST", "/sandbox/scheduler/run", key, { job: "orders.expire-unpaid" })).json).toEqual({ job: "orders.expire-unpaid", result: { cancelled: 0 } });

  const production = await gateway("production");
  const pkey = await otherSellerToken(production, "AGY-PRD", "12345714", "ndc:order");
  for (const path of ["/sandbox/clock", "/sandbox/scheduler/run"]) {
    const r = await call(production, "POST", path, pkey, { advanceSeconds: 60, job: "notifications.dispatch" });
    expect([r.status, r.json]).toEqual([404, { error: "not_found" }]);
  }
  // Two gateways booted: on PostgreSQL each migrates a fresh database (about a second alone).
}, 30_000);
