import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "@ndc/config";
import { rawRequest } from "../support/raw-http";
import { killAll, run, sourceCli, startServer, type Running } from "./processes";

/**
 * Issue 19 items 8 and 9: `serve` in production mode, from source. Production publishes only the
 * address its operator configured, whatever Host a request names.
 */
const dir = mkdtempSync(join(tmpdir(), "ndc-prod-"));
let n = 0;
const production = (more: Record<string, string> = {}) => ({
  GATEWAY_MODE: "production",
  GATEWAY_DATA_DIR: join(dir, `data-${n++}`),
  GATEWAY_FIELD_KEY: Buffer.alloc(32, 9).toString("base64"),
  PUBLIC_BASE_URL: "https://ndc.example-airline.test",
  PORT: "0",
  BIND_ADDRESS: "127.0.0.1",
  ...more,
});

let gw: Running;
beforeAll(async () => {
  gw = await startServer(sourceCli, ["serve", "--no-scheduler"], production());
}, 60_000);
afterAll(async () => {
  await gw?.stop();
  killAll();
  rmSync(dir, { recursive: true, force: true });
});

describe("PUBLIC_BASE_URL (item 8)", () => {
  test("production refuses to start without it, or with an address that is not https", async () => {
    const without = await run(sourceCli, ["serve"], production({ PUBLIC_BASE_URL: "" }), 30_000);
    expect(without.code).toBe(1);
    expect(without.stderr).toBe(
      "ndc-gateway: configuration error: production mode needs PUBLIC_BASE_URL, the https:// address sellers reach the gateway at (discovery publishes it, never a request's Host header)\n",
    );
    const plain = await run(sourceCli, ["serve"], production({ PUBLIC_BASE_URL: "http://ndc.example-airline.test" }), 30_000);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toBe('ndc-gateway: configuration error: PUBLIC_BASE_URL must be an https address with no credentials, query or fragment, got "http://ndc.example-airline.test"\n');
  }, 60_000);

  test("discovery publishes the configured address whatever Host the request names", async () => {
    const port = Number(new URL(gw.url).port);
    for (const host of ["attacker.example", "ndc.example-airline.test.attacker.example:443", `127.0.0.1:${port}`]) {
      const r = await rawRequest(port, `GET /24.4 HTTP/1.1\r\nHost: ${host}\r\nX-Forwarded-Host: attacker.example\r\nConnection: close\r\n\r\n`);
      expect(r.status).toBe(200);
      const doc = JSON.parse(r.body);
      expect(doc.mode).toBe("production");
      expect(doc.tokenUrl).toBe("https://ndc.example-airline.test/oauth/token");
      expect(doc.notifications.subscriptionsUrl).toBe("https://ndc.example-airline.test/notifications/subscriptions");
    }
  });

  test("the address is kept as given, a path prefix included, without its trailing slash; malformed forms are refused", () => {
    const env = { GATEWAY_MODE: "production", GATEWAY_FIELD_KEY: Buffer.alloc(32, 9).toString("base64"), GATEWAY_DATA_DIR: dir };
    expect(loadConfig({ ...env, PUBLIC_BASE_URL: "https://ndc.example-airline.test/gw/" }).publicBaseUrl).toBe("https://ndc.example-airline.test/gw");
    for (const bad of ["ndc.example-airline.test", "https://user:pw@ndc.example-airline.test", "https://ndc.example-airline.test/?a=1", "https://ndc.example-airline.test/#x", "ftp://ndc.example-airline.test"]) {
      expect(() => loadConfig({ ...env, PUBLIC_BASE_URL: bad })).toThrow("PUBLIC_BASE_URL must be");
    }
    // Outside production an unset address is the request's own origin (a developer's gateway on any port).
    expect(loadConfig({ GATEWAY_DATA_DIR: dir }).publicBaseUrl).toBeUndefined();
    expect(loadConfig({ GATEWAY_DATA_DIR: dir, PUBLIC_BASE_URL: "http://127.0.0.1:8080" }).publicBaseUrl).toBe("http://127.0.0.1:8080");
  });
});
