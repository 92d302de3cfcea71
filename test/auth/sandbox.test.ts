import { describe, expect, test } from "bun:test";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createApiKey, SANDBOX_AGENCY_ID, SANDBOX_CLIENT_ID, SANDBOX_IATA_NUMBER } from "@ndc/auth";
import { ALL_SCOPES } from "@ndc/messages";
import { basic, bearerError, bootAuthGateway, form } from "./harness";

/** The local sandbox seller (spec 5.8) and its credentials file. */
const CC = form({ grant_type: "client_credentials" });

describe("local sandbox", () => {
  test("creates the agency, client and API key and writes sandbox-credentials.json (0600)", async () => {
    const g = await bootAuthGateway();
    try {
      const file = join(g.dataDir, "sandbox-credentials.json");
      const saved = JSON.parse(readFileSync(file, "utf8"));
      expect(Object.keys(saved).sort()).toEqual(["agency_id", "api_key", "client_id", "client_secret", "iata_number"]);
      expect(saved).toEqual({ ...g.gw.sandbox! });
      expect(saved.agency_id).toBe(SANDBOX_AGENCY_ID);
      expect(saved.iata_number).toBe(SANDBOX_IATA_NUMBER);
      expect(saved.client_id).toBe(SANDBOX_CLIENT_ID);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const tok = await g.token({ authorization: basic(saved.client_id, saved.client_secret), body: CC });
      expect(tok.status).toBe(200);
      expect(tok.json.scope).toBe(ALL_SCOPES.filter((s) => s !== "ndc:aggregator").join(" "));
    } finally {
      await g.close();
    }
  });

  test("a restart reuses the file's credentials while they verify", async () => {
    const first = await bootAuthGateway();
    const before = first.gw.sandbox!;
    await first.close({ keepDir: true });
    const second = await bootAuthGateway({}, { dataDir: first.dataDir });
    try {
      expect(second.gw.sandbox).toEqual(before);
      expect((await second.ndc("AirShoppingRQ", { "x-api-key": before.api_key })).status).toBe(501);
    } finally {
      await second.close();
    }
  });

  test("a damaged file is replaced by rotated credentials; the old ones stop working", async () => {
    const first = await bootAuthGateway();
    const before = first.gw.sandbox!;
    await first.close({ keepDir: true });
    const file = join(first.dataDir, "sandbox-credentials.json");
    writeFileSync(file, JSON.stringify({ ...before, client_secret: "lost", api_key: "lost" }));
    const second = await bootAuthGateway({}, { dataDir: first.dataDir });
    try {
      const now = second.gw.sandbox!;
      expect(now.client_secret).not.toBe(before.client_secret);
      expect(now.api_key).not.toBe(before.api_key);
      expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ ...now });
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect((await second.token({ authorization: basic(now.client_id, now.client_secret), body: CC })).status).toBe(200);
      expect((await second.token({ authorization: basic(before.client_id, before.client_secret), body: CC })).status).toBe(401);
      expect((await second.ndc("AirShoppingRQ", { "x-api-key": before.api_key })).status).toBe(401);
      expect((await second.ndc("AirShoppingRQ", { "x-api-key": now.api_key })).status).toBe(501);
    } finally {
      await second.close();
    }
  });

  test("sandbox mode: no sandbox seller, the sandbox client and API keys are refused even when their rows exist", async () => {
    const local = await bootAuthGateway();
    const creds = local.gw.sandbox!;
    await local.close({ keepDir: true });
    const hosted = await bootAuthGateway({ GATEWAY_MODE: "sandbox" }, { dataDir: local.dataDir });
    try {
      expect(hosted.gw.sandbox).toBeNull();
      const tok = await hosted.token({ authorization: basic(creds.client_id, creds.client_secret), body: CC });
      expect(tok.status).toBe(401);
      expect(tok.json.error).toBe("invalid_client");
      expect(tok.headers.get("www-authenticate")).toBe('Basic realm="ndc-gateway"');
      expect(tok.headers.get("cache-control")).toBe("no-store");
      const desc = "API keys (X-API-Key) are accepted by a local gateway only; use an OAuth 2.0 bearer token.";
      for (const key of [creds.api_key, (await createApiKey(hosted.gw.store, SANDBOX_CLIENT_ID)).apiKey]) {
        const r = await hosted.ndc("AirShoppingRQ", { "x-api-key": key });
        expect(r.status).toBe(401);
        expect(r.code).toBe("invalid_token");
        expect(r.headers.get("www-authenticate")).toBe(bearerError(desc));
      }
    } finally {
      await hosted.close();
    }
  });
});
