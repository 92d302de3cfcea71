import { afterAll, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * `npm run cli -- <command> [args]` runs the single binary's commands from a checkout, as real
 * processes (npm -> scripts/run.mjs -> bun apps/cli/src/main.ts), with their output and exit
 * codes. That it defaults to the same ./data as `npm start` is checked in a fresh clone by
 * readme-try.test.ts.
 */
const root = join(import.meta.dir, "../..");
const dataDir = mkdtempSync(join(tmpdir(), "ndc-cli-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function cli(...args: string[]) {
  const r = spawnSync("npm", ["run", "-s", "cli", "--", ...args], { cwd: root, encoding: "utf8", env: { ...process.env, GATEWAY_DATA_DIR: dataDir, GATEWAY_MODE: "local" }, timeout: 30_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test("npm run cli -- agency register / agency list work on the data directory, like ndc-gateway agency ...", () => {
  const reg = cli("agency", "register", "--agency-id", "AGY-CLI", "--iata", "87654321", "--name", "Checkout Travel");
  expect(reg.code).toBe(0);
  expect(reg.out.trim()).toBe("agency AGY-CLI registered (IATA 87654321, active)");
  const list = cli("agency", "list");
  expect(list.code).toBe(0);
  expect(list.out).toContain("AGY-CLI\t87654321\tactive\tCheckout Travel");
}, 60_000);

test("exit codes pass through npm: a wrong command line is 2 with the usage on stderr, a refusal is 1", () => {
  const wrong = cli("no-such-command");
  expect(wrong.code).toBe(2);
  expect(wrong.err).toContain('ndc-gateway: unknown command "no-such-command"');
  expect(wrong.err).toContain("usage: ndc-gateway <command> [options]");
  const refused = cli("client", "register", "--agency", "AGY-MISSING", "--scopes", "ndc:shop");
  expect(refused.code).toBe(1);
  // docs/registering-sellers.md: "<command>: <stable code>: <text>".
  expect(refused.err).toBe('client register: unknown_agency: No agency "AGY-MISSING" is registered (give its agency id or IATA number).\n');
}, 60_000);

test("npm run cli -- seller ...: the seller's commands from a checkout, with their exit codes", () => {
  const help = cli("seller", "help");
  expect(help.code).toBe(0);
  expect(help.out).toContain("usage: ndc-gateway seller <command> --base-url URL");
  const party = cli("seller", "book", "--base-url", "http://127.0.0.1:9", "--from", "LHR", "--to", "CDG", "--date", "2030-01-01", "--adults", "1", "--infants", "2", "--names", "A B");
  expect(party.code).toBe(2);
  expect(party.err).toContain("seller book: each lap infant travels on an adult's lap: 2 infants for 1 adults");
}, 60_000);
