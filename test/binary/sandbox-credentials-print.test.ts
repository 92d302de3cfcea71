import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { killAll, run, sourceCli, startServer } from "./processes";

/**
 * Issue 7 item 9: the sandbox client_secret and api_key are printed only by the start that
 * creates them (and where the file is); a restart that reuses the saved file names the file and
 * prints neither. Real processes (the CLI from source) on a fresh data directory each.
 */
const dirs: string[] = [];
function dataDir(): string {
  const d = mkdtempSync(join(tmpdir(), "ndc-sbx-print-"));
  dirs.push(d);
  return d;
}
afterAll(() => {
  killAll();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const saved = (dir: string) => JSON.parse(readFileSync(join(dir, "sandbox-credentials.json"), "utf8"));

/** One `serve` start and stop; `tokenStatus` is what the token endpoint said to the file's credentials. */
async function serveOnce(dir: string): Promise<{ stdout: string; tokenStatus: number }> {
  const gw = await startServer(sourceCli, ["serve"], { GATEWAY_WORKERS: "1", GATEWAY_DATA_DIR: dir, PORT: "0" });
  const creds = saved(dir);
  const res = await fetch(`${gw.url}/oauth/token`, {
    method: "POST",
    headers: { authorization: `Basic ${btoa(`${creds.client_id}:${creds.client_secret}`)}`, "content-type": "application/x-www-form-urlencoded" },
    body: "grant_type=client_credentials",
  });
  expect(await gw.stop()).toBe(0);
  return { stdout: gw.stdout(), tokenStatus: res.status };
}

describe("serve (local mode)", () => {
  test("the first start prints the new secrets and the file; a restart prints neither secret, only where they are", async () => {
    const dir = dataDir();
    const file = join(dir, "sandbox-credentials.json");
    const first = await serveOnce(dir);
    const creds = saved(dir);
    expect(first.stdout).toMatch(new RegExp(`^  client_secret  ${creds.client_secret}$`, "m"));
    expect(first.stdout).toMatch(new RegExp(`^  api_key        ${creds.api_key}$`, "m"));
    expect(first.stdout).toContain(`  saved in       ${file}`);

    const second = await serveOnce(dir);
    // The same credentials still work (the token endpoint accepted the file's secret)...
    expect(second.tokenStatus).toBe(200);
    expect(saved(dir)).toEqual(creds);
    // ...but this start printed neither secret: it says where they are instead.
    expect(second.stdout).not.toContain(creds.client_secret);
    expect(second.stdout).not.toContain(creds.api_key);
    expect(second.stdout).toContain(`sandbox credentials (local mode only): client ${creds.client_id}, agency ${creds.agency_id}`);
    expect(second.stdout).toContain(`client_secret and api_key are unchanged and kept in ${file}`);
  }, 60_000);

  test("a start that has to rotate them (the saved file no longer verifies) prints the new ones", async () => {
    const dir = dataDir();
    await serveOnce(dir);
    const before = saved(dir);
    writeFileSync(join(dir, "sandbox-credentials.json"), JSON.stringify({ ...before, client_secret: "lost", api_key: "lost" }));
    const rotated = await serveOnce(dir);
    const now = saved(dir);
    expect(now.client_secret).not.toBe(before.client_secret);
    expect(rotated.stdout).toMatch(new RegExp(`^  client_secret  ${now.client_secret}$`, "m"));
    expect(rotated.stdout).toMatch(new RegExp(`^  api_key        ${now.api_key}$`, "m"));
  }, 60_000);
});

test("seed: prints the secrets when it creates them, not on a second run", async () => {
  const dir = dataDir();
  const a = await run(sourceCli, ["seed"], { GATEWAY_DATA_DIR: dir });
  expect(a.code).toBe(0);
  const creds = saved(dir);
  expect(a.stdout).toContain(`  client_secret  ${creds.client_secret}`);
  expect(a.stdout).toContain(`  api_key        ${creds.api_key}`);
  const b = await run(sourceCli, ["seed"], { GATEWAY_DATA_DIR: dir });
  expect(b.code).toBe(0);
  expect(b.stdout).toContain("schema up to date");
  expect(b.stdout).not.toContain(creds.client_secret);
  expect(b.stdout).not.toContain(creds.api_key);
  expect(b.stdout).toContain(`kept in ${join(dir, "sandbox-credentials.json")}`);
  expect(saved(dir)).toEqual(creds);
}, 60_000);
