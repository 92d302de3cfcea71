import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { assertSchemaValid } from "../support/xsd";
import { freePort, freshClone, removeClone, runInGroup, stopGroup } from "./fresh-clone";

/**
 * README.md's "Try it" block, pasted verbatim into a fresh clone (bash -euo pipefail, a free
 * PORT), must start the gateway, book an order and read it back; then `npm run try` runs the
 * longer journey against the same gateway and `npm run cli` sees the same data directory.
 * Needs a commit: the clone is of HEAD.
 */
let repo: string;
let port: number;
let group = 0;

beforeAll(async () => {
  repo = freshClone();
  port = await freePort();
});

afterAll(async () => {
  if (group) {
    stopGroup(group);
    // Let the gateway shut down before its data directory goes.
    for (let i = 0; i < 50; i++) {
      const up = await fetch(`http://127.0.0.1:${port}/health/live`).then(() => true, () => false);
      if (!up) break;
      await Bun.sleep(100);
    }
  }
  removeClone(repo);
});

/** The fenced sh block under "## Try it". */
function tryItBlock(readme: string): string {
  const section = readme.slice(readme.indexOf("## Try it"));
  const m = section.match(/```sh\n([\s\S]*?)```/);
  if (!m) throw new Error("README.md has no sh block under ## Try it");
  return m[1]!;
}

test("the README's Try it block books an order in a fresh clone, and npm run try and npm run cli work beside it", async () => {
  const block = tryItBlock(readFileSync(join(repo, "README.md"), "utf8"));
  const started = runInGroup("bash", ["-euo", "pipefail", "-c", block], { cwd: repo, env: { PORT: String(port) }, timeoutMs: 90_000 });
  group = started.pid;
  const r = await started.done;
  if (r.code !== 0) console.error(r.stdout.slice(-2000), r.stderr.slice(-2000), readFileSync(join(repo, "gateway.log"), "utf8").slice(-2000));
  expect(r.code).toBe(0);
  const orderId = r.stdout.match(/^booked: (ORD-[A-Z0-9]+) /m)?.[1];
  expect(orderId).toBeDefined();
  // The last thing it prints is the OrderViewRS of OrderRetrieveRQ: valid against IATA's XSD, naming that order.
  const view = r.stdout.slice(r.stdout.indexOf("<?xml"));
  expect(view).toContain("<IATA_OrderViewRS ");
  assertSchemaValid(view.trim());
  expect(view).toContain(`<cns:OrderID>${orderId}</cns:OrderID>`);
  expect(view).not.toContain("<cns:Error>");
  expect(r.stdout).toMatch(/^discovery: .*messages/m);
  // Nothing left in the tree beyond what .gitignore expects (data/, gateway.log, node_modules/).
  expect(Bun.spawnSync(["git", "status", "--porcelain"], { cwd: repo }).stdout.toString()).toBe("");

  const tried = await runInGroup("npm", ["run", "-s", "try"], { cwd: repo, env: { PORT: String(port) }, timeoutMs: 30_000 }).done;
  if (tried.code !== 0) console.error(tried.stdout, tried.stderr);
  expect(tried.code).toBe(0);
  for (const step of ["token", "AirShopping", "OfferPrice", "SeatAvailability", "OrderCreate", "OrderRetrieve"]) expect(tried.stdout).toMatch(new RegExp(`^✓ ${step} `, "m"));
  expect(tried.stdout).toMatch(/^booked ORD-[A-Z0-9]+$/m);

  // `npm run cli` from the checkout opens the same ./data as `npm start`: it lists the sandbox client npm start created.
  const creds = JSON.parse(readFileSync(join(repo, "data/sandbox-credentials.json"), "utf8")) as { client_id: string; agency_id: string };
  const listed = await runInGroup("npm", ["run", "-s", "cli", "--", "client", "list"], { cwd: repo, env: {}, timeoutMs: 30_000 }).done;
  expect(listed.code).toBe(0);
  expect(listed.stdout).toContain(creds.client_id);
}, 150_000);
