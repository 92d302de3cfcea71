import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { ManualClock } from "@ndc/clock";
import { registerAgency, registerClient, storeReads, type RegistryReads } from "@ndc/auth";
import { bearer, bearerError, bootAuthGateway, fetchToken, type AuthGateway } from "./harness";

/**
 * The callers' registry rows are cached between NDC calls (packages/auth/src/access/caller-cache.ts,
 * docs/decisions/0008-per-call-floor.md). These tests count the registry reads that reach the
 * store through a wrapper around them, and prove that a change made on another connection, or by
 * the CLI in another process, is still seen on the very next call.
 */
const reads = { caller: 0, apiKey: 0, aggregators: 0, version: 0 };
function counting(store: Parameters<typeof storeReads>[0]): RegistryReads {
  const real = storeReads(store);
  return {
    caller: (id) => (reads.caller++, real.caller(id)),
    apiKey: (d) => (reads.apiKey++, real.apiKey(d)),
    aggregatorAgencies: (id) => (reads.aggregators++, real.aggregatorAgencies(id)),
    version: () => (reads.version++, real.version()),
  };
}
const resetCounts = () => Object.assign(reads, { caller: 0, apiKey: 0, aggregators: 0, version: 0 });

let g: AuthGateway;
/** A second connection to the gateway's database file, as another process would hold. */
let other: Database;

beforeAll(async () => {
  // An injected clock keeps the orders background pass off: its commits would move data_version
  // between calls and blur the counts (they are proven harmless by the "commit elsewhere" test).
  const clock = new ManualClock(Date.now());
  g = await bootAuthGateway({ RATE_LIMIT_TOKEN_PER_MINUTE: "1000" }, { registryReads: counting, clock });
  await registerAgency(g.gw.store, { agencyId: "AGY-C", iataNumber: "33333333", name: "Agency C" });
  other = new Database(join(g.dataDir, "gateway.db"));
  other.exec("PRAGMA busy_timeout = 5000");
});
afterAll(async () => {
  other.close();
  await g.close();
});
beforeEach(resetCounts);

async function client(scopes = "ndc:shop") {
  const c = await registerClient(g.gw.store, { agency: "AGY-C", scopes });
  return { ...c, token: await fetchToken(g, c.clientId, c.clientSecret) };
}

describe("the caller cache", () => {
  test("a second call with the same token reads no registry row", async () => {
    const c = await client();
    resetCounts();
    expect((await g.ndc("AirShoppingRQ", bearer(c.token))).status).toBe(501);
    expect(reads.caller).toBe(1);
    expect((await g.ndc("AirShoppingRQ", bearer(c.token))).status).toBe(501);
    expect((await g.ndc("AirShoppingRQ", bearer(c.token))).status).toBe(501);
    expect(reads.caller).toBe(1);
    // Nothing was committed in between, so not even the version row was read again.
    expect(reads.version).toBe(1);
  });

  test("an API key and its client are read once too", async () => {
    const key = g.gw.sandbox!.api_key;
    expect((await g.ndc("AirShoppingRQ", { "x-api-key": key })).status).toBe(501);
    const after = { ...reads };
    expect((await g.ndc("AirShoppingRQ", { "x-api-key": key })).status).toBe(501);
    expect(reads).toEqual(after);
  });

  test("a commit elsewhere that does not touch the registry costs one version read, not the rows", async () => {
    const c = await client();
    await g.ndc("AirShoppingRQ", bearer(c.token));
    resetCounts();
    other.exec("CREATE TABLE IF NOT EXISTS unrelated (x INTEGER); INSERT INTO unrelated VALUES (1)");
    expect((await g.ndc("AirShoppingRQ", bearer(c.token))).status).toBe(501);
    expect(reads).toEqual({ caller: 0, apiKey: 0, aggregators: 0, version: 1 });
  });

  test("suspension on another connection bites on the very next call", async () => {
    const c = await client();
    expect((await g.ndc("AirShoppingRQ", bearer(c.token))).status).toBe(501);
    other.prepare("UPDATE clients SET suspended = 1 WHERE client_id = ?").run(c.clientId);
    const r = await g.ndc("AirShoppingRQ", bearer(c.token));
    expect(r.status).toBe(401);
    expect(r.headers.get("www-authenticate")).toBe(bearerError("The client is suspended."));
  });

  test("a scope revoked on another connection leaves the cached caller at once", async () => {
    const c = await client("ndc:shop ndc:order");
    expect((await g.ndc("AirShoppingRQ", bearer(c.token))).status).toBe(501);
    other.prepare("UPDATE clients SET scopes = 'ndc:order' WHERE client_id = ?").run(c.clientId);
    const r = await g.ndc("AirShoppingRQ", bearer(c.token));
    expect(r.status).toBe(403);
    expect(r.code).toBe("insufficient_scope");
  });

  test("the CLI suspending the client from another process bites on the very next call", async () => {
    const c = await client();
    expect((await g.ndc("AirShoppingRQ", bearer(c.token))).status).toBe(501);
    const cli = Bun.spawnSync([process.execPath, "apps/cli/src/main.ts", "client", "suspend", c.clientId], {
      cwd: join(import.meta.dir, "../.."),
      env: { ...process.env, GATEWAY_DATA_DIR: g.dataDir, LOG_LEVEL: "silent" },
    });
    expect(cli.exitCode).toBe(0);
    const r = await g.ndc("AirShoppingRQ", bearer(c.token));
    expect(r.status).toBe(401);
    expect(r.headers.get("www-authenticate")).toBe(bearerError("The client is suspended."));
  }, 30_000);
});
