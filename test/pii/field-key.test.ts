import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError, loadConfig } from "@ndc/config";
import { loadFieldKey } from "@ndc/pii";
import { PRODUCTION_ENV } from "../support/gateway";

const made: string[] = [];
const dir = () => {
  const d = mkdtempSync(join(tmpdir(), "ndc-key-"));
  made.push(d);
  return d;
};
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

test("local mode creates a 32-byte key file readable by its owner only, and reuses it", () => {
  const d = dir();
  const config = loadConfig({ GATEWAY_DATA_DIR: d });
  const a = loadFieldKey(config);
  const b = loadFieldKey(config);
  expect(a.key.length).toBe(32);
  expect(Buffer.from(a.key).equals(Buffer.from(b.key))).toBe(true);
  expect(statSync(join(d, "field-key")).mode & 0o777).toBe(0o600);
  expect(a.version).toBe(1);
});

test("GATEWAY_FIELD_KEY must be 32 bytes of base64", () => {
  const ok = loadFieldKey(loadConfig({ GATEWAY_DATA_DIR: dir(), GATEWAY_FIELD_KEY: Buffer.alloc(32, 1).toString("base64"), GATEWAY_FIELD_KEY_VERSION: "3" }));
  expect(ok.version).toBe(3);
  expect(() => loadFieldKey(loadConfig({ GATEWAY_DATA_DIR: dir(), GATEWAY_FIELD_KEY: Buffer.alloc(16).toString("base64") }))).toThrow(ConfigError);
});

test("production never invents a key", () => {
  const d = dir();
  expect(() => loadConfig({ GATEWAY_DATA_DIR: d, GATEWAY_MODE: "production" })).toThrow(/GATEWAY_FIELD_KEY/);
  const c = loadConfig({ ...PRODUCTION_ENV, GATEWAY_FIELD_KEY: "", GATEWAY_DATA_DIR: d, GATEWAY_FIELD_KEY_FILE: join(d, "missing") });
  expect(() => loadFieldKey(c)).toThrow(/does not exist/);
  expect(() => readFileSync(join(d, "missing"))).toThrow();
});

test("configuration errors are one clear line", () => {
  expect(() => loadConfig({ GATEWAY_MODE: "prod" })).toThrow('GATEWAY_MODE must be local, sandbox or production, got "prod"');
  expect(() => loadConfig({ PORT: "80a" })).toThrow("PORT must be a whole number");
  expect(() => loadConfig({ TLS_CERT_FILE: "/x.pem" })).toThrow("TLS_CERT_FILE and TLS_KEY_FILE must be set together");
});
