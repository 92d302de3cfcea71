import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
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
  TLS_TERMINATED_BY_PROXY: "true",
  PORT: "0",
  BIND_ADDRESS: "127.0.0.1",
  // One worker: these tests are about configuration, not about several processes.
  GATEWAY_WORKERS: "1",
  ...more,
});

let gw: Running;
beforeAll(async () => {
  gw = await startServer(sourceCli, ["serve"], production());
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
    const env = { GATEWAY_MODE: "production", GATEWAY_FIELD_KEY: Buffer.alloc(32, 9).toString("base64"), TLS_TERMINATED_BY_PROXY: "true", GATEWAY_DATA_DIR: dir };
    expect(loadConfig({ ...env, PUBLIC_BASE_URL: "https://ndc.example-airline.test/gw/" }).publicBaseUrl).toBe("https://ndc.example-airline.test/gw");
    for (const bad of ["ndc.example-airline.test", "https://user:pw@ndc.example-airline.test", "https://ndc.example-airline.test/?a=1", "https://ndc.example-airline.test/#x", "ftp://ndc.example-airline.test"]) {
      expect(() => loadConfig({ ...env, PUBLIC_BASE_URL: bad })).toThrow("PUBLIC_BASE_URL must be");
    }
    // Outside production an unset address is the request's own origin (a developer's gateway on any port).
    expect(loadConfig({ GATEWAY_DATA_DIR: dir }).publicBaseUrl).toBeUndefined();
    expect(loadConfig({ GATEWAY_DATA_DIR: dir, PUBLIC_BASE_URL: "http://127.0.0.1:8080" }).publicBaseUrl).toBe("http://127.0.0.1:8080");
  });
});

describe("TLS in production (item 9)", () => {
  test("production refuses to start in plain HTTP unless the operator states that a proxy terminates TLS", async () => {
    const r = await run(sourceCli, ["serve"], production({ TLS_TERMINATED_BY_PROXY: "" }), 30_000);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      "ndc-gateway: configuration error: production mode serves HTTPS only (spec 4.1): set TLS_CERT_FILE and TLS_KEY_FILE, or TLS_TERMINATED_BY_PROXY=true when a proxy in front of the gateway terminates TLS\n",
    );
    const unclear = await run(sourceCli, ["serve"], production({ TLS_TERMINATED_BY_PROXY: "perhaps" }), 30_000);
    expect(unclear.code).toBe(1);
    expect(unclear.stderr).toBe('ndc-gateway: configuration error: TLS_TERMINATED_BY_PROXY must be true or false, got "perhaps"\n');
  }, 60_000);

  test("behind the operator's proxy: plain HTTP, said at start on standard output and in the log", async () => {
    expect(gw.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(gw.stdout()).toContain("\ntransport: plain HTTP to a proxy that terminates TLS (TLS_TERMINATED_BY_PROXY=true): nothing else may reach this port\n");
    const started = gw.stdout().split("\n").filter((l) => l.includes('"gateway_started"')).map((l) => JSON.parse(l));
    expect(started).toHaveLength(1);
    expect(started[0]).toMatchObject({ mode: "production", tls: "proxy" });
  });

  test("with a certificate: HTTPS, said at start", async () => {
    const certFile = join(dir, "cert.pem");
    const keyFile = join(dir, "key.pem");
    const openssl = Bun.spawnSync(
      ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-days", "1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", keyFile, "-out", certFile],
      { stdout: "pipe", stderr: "pipe" },
    );
    expect(openssl.exitCode).toBe(0);
    const ca = readFileSync(certFile, "utf8");
    const tls = await startServer(sourceCli, ["serve"], production({ TLS_TERMINATED_BY_PROXY: "", TLS_CERT_FILE: certFile, TLS_KEY_FILE: keyFile }), { fetchTls: { ca } });
    try {
      expect(tls.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(tls.stdout()).toContain(`\ntransport: HTTPS with the certificate of TLS_CERT_FILE (${certFile})\n`);
      const started = tls.stdout().split("\n").find((l) => l.includes('"gateway_started"'));
      expect(JSON.parse(started!)).toMatchObject({ mode: "production", tls: "gateway" });
      expect((await fetch(`${tls.url}/health/ready`, { tls: { ca } } as RequestInit)).status).toBe(200);
    } finally {
      await tls.stop();
    }
  }, 60_000);

  test("local mode without a certificate says it serves plain HTTP", async () => {
    const local = await startServer(sourceCli, ["serve"], { GATEWAY_WORKERS: "1", GATEWAY_DATA_DIR: join(dir, "local"), PORT: "0" });
    try {
      expect(local.stdout()).toContain("\ntransport: plain HTTP, no TLS (local mode; production needs TLS_CERT_FILE and TLS_KEY_FILE, or TLS_TERMINATED_BY_PROXY=true)\n");
    } finally {
      await local.stop();
    }
  }, 60_000);
});
