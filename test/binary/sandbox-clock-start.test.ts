import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError, loadConfig } from "@ndc/config";
import { dayAfter, T0 } from "../support/dates";
import { assertSchemaValid } from "../support/xsd";
import { PRODUCTION_ENV } from "../support/gateway";
import { airShoppingRQ, all, blocks } from "../shopping/shop-requests";
import { killAll, run, sourceCli, startServer, type Running } from "./processes";
import { startSchedulerApp } from "../multi/support";

/**
 * SANDBOX_CLOCK_START (docs/configuration.md): `serve` from source starts its sandbox clock at a
 * chosen instant, so a test books the same travel days whatever the real date. The start here,
 * 2026-11-21, is in the past of every real date this suite runs on: the day after it is bookable
 * only when the gateway really sells from that instant.
 */
const dir = mkdtempSync(join(tmpdir(), "ndc-clock-start-"));
let gw: Running;
let apiKey: string;

beforeAll(async () => {
  gw = await startServer(sourceCli, ["serve"], { GATEWAY_WORKERS: "1", GATEWAY_DATA_DIR: dir, PORT: "0", SANDBOX_CLOCK_START: new Date(T0).toISOString(), LOG_LEVEL: "warn" });
  apiKey = (JSON.parse(readFileSync(join(dir, "sandbox-credentials.json"), "utf8")) as { api_key: string }).api_key;
}, 30_000);
afterAll(async () => {
  await gw?.stop();
  killAll();
  rmSync(dir, { recursive: true, force: true });
});

const post = (path: string, body: string, headers: Record<string, string>) => fetch(`${gw.url}${path}`, { method: "POST", headers: { "x-api-key": apiKey, ...headers }, body });

describe("serve with SANDBOX_CLOCK_START", () => {
  test("the sandbox clock reads the start instant plus the time since boot", async () => {
    const r = await post("/sandbox/clock", JSON.stringify({ advanceSeconds: 0 }), { "content-type": "application/json" });
    expect(r.status).toBe(200);
    const now = Date.parse(((await r.json()) as { now: string }).now);
    expect(now).toBeGreaterThanOrEqual(T0);
    expect(now - T0).toBeLessThan(120_000);
    expect(gw.stdout()).toContain(`sandbox clock started at ${new Date(T0).toISOString()} (SANDBOX_CLOCK_START), not the real time`);
  }, 30_000);

  test("the simulated airline sells from the start day: the next day is shopped and offered", async () => {
    const date = dayAfter(T0, 1);
    const r = await post("/24.4/AirShoppingRQ", airShoppingRQ({ legs: [{ from: "LHR", to: "CDG", date }], currency: "EUR" }), { "content-type": "application/xml", "iata-message-name": "IATA_AirShoppingRQ" });
    const body = await r.text();
    assertSchemaValid(body);
    expect(r.status).toBe(200);
    const offers = blocks(body, "Offer");
    expect(offers.length).toBeGreaterThan(0);
    expect(all(body, "AircraftScheduledDateTime").some((d) => d.startsWith(date))).toBe(true);
  }, 30_000);
});

describe("serve's scheduler app", () => {
  test("runs its jobs at the gateway's clock: their last run is stamped on the start day, not the real one", async () => {
    const sched = await startServer(sourceCli, ["serve"], { GATEWAY_WORKERS: "1", GATEWAY_DATA_DIR: join(dir, "scheduler"), PORT: "0", SANDBOX_CLOCK_START: new Date(T0).toISOString(), LOG_LEVEL: "warn" });
    try {
      // notifications.dispatch runs every few seconds in the scheduler app serve starts beside its worker.
      let dispatch: { lastStartedAt: string | null } | undefined;
      for (let i = 0; i < 200 && !dispatch?.lastStartedAt; i++) {
        const ready = (await (await fetch(`${sched.url}/health/ready`)).json()) as { scheduler?: { job: string; lastStartedAt: string | null }[] };
        dispatch = ready.scheduler?.find((j) => j.job === "notifications.dispatch");
        if (!dispatch?.lastStartedAt) await Bun.sleep(100);
      }
      expect(dispatch?.lastStartedAt?.slice(0, 10)).toBe(dayAfter(T0, 0));
    } finally {
      await sched.stop();
    }
  }, 60_000);
});

describe("SANDBOX_CLOCK_START is refused where it does not belong", () => {
  test("outside local mode, and without a zone or unparsable, with one line saying why", () => {
    const start = new Date(T0).toISOString();
    expect(() => loadConfig({ GATEWAY_MODE: "sandbox", GATEWAY_DATA_DIR: dir, SANDBOX_CLOCK_START: start })).toThrow(new ConfigError("SANDBOX_CLOCK_START is for local mode only, not sandbox"));
    expect(() => loadConfig({ ...PRODUCTION_ENV, GATEWAY_DATA_DIR: dir, SANDBOX_CLOCK_START: start })).toThrow("local mode only");
    for (const bad of ["2026-11-21", "2026-11-21T09:00:00", "2026-13-40T09:00:00Z", "tomorrow"]) {
      expect(() => loadConfig({ GATEWAY_DATA_DIR: dir, SANDBOX_CLOCK_START: bad })).toThrow("SANDBOX_CLOCK_START must be an ISO 8601 instant with its zone");
    }
    expect(loadConfig({ GATEWAY_DATA_DIR: dir, SANDBOX_CLOCK_START: "2026-11-21T10:00:00+01:00" }).sandboxClockStart).toBe(T0);
    expect(loadConfig({ GATEWAY_DATA_DIR: dir }).sandboxClockStart).toBeUndefined();
  });

  test("SANDBOX_CLOCK_STARTED_AT: the same format, local mode only, and only beside SANDBOX_CLOCK_START", () => {
    const start = new Date(T0).toISOString();
    const at = "2027-03-01T12:00:00.250Z";
    expect(loadConfig({ GATEWAY_DATA_DIR: dir, SANDBOX_CLOCK_START: start, SANDBOX_CLOCK_STARTED_AT: at }).sandboxClockStartedAt).toBe(Date.parse(at));
    expect(loadConfig({ GATEWAY_DATA_DIR: dir, SANDBOX_CLOCK_START: start }).sandboxClockStartedAt).toBeUndefined();
    expect(() => loadConfig({ GATEWAY_DATA_DIR: dir, SANDBOX_CLOCK_STARTED_AT: at })).toThrow(new ConfigError("SANDBOX_CLOCK_STARTED_AT needs SANDBOX_CLOCK_START (the business time it anchors)"));
    expect(() => loadConfig({ GATEWAY_MODE: "sandbox", GATEWAY_DATA_DIR: dir, SANDBOX_CLOCK_START: start, SANDBOX_CLOCK_STARTED_AT: at })).toThrow("local mode only");
    expect(() => loadConfig({ GATEWAY_DATA_DIR: dir, SANDBOX_CLOCK_START: start, SANDBOX_CLOCK_STARTED_AT: "2027-03-01 12:00" })).toThrow("SANDBOX_CLOCK_STARTED_AT must be an ISO 8601 instant with its zone");
  });

  test("serve in sandbox mode with it stops at start with that line", async () => {
    const r = await run(sourceCli, ["serve"], { GATEWAY_MODE: "sandbox", GATEWAY_DATA_DIR: join(dir, "sandbox"), PORT: "0", SANDBOX_CLOCK_START: new Date(T0).toISOString() }, 30_000);
    expect(r.code).not.toBe(0);
    expect(r.stderr + r.stdout).toContain("SANDBOX_CLOCK_START is for local mode only, not sandbox");
  }, 40_000);
});
