import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { newId } from "@ndc-gateway/client";
import { startListeningGateway, type ListeningGateway } from "./support";
// @ts-expect-error: a plain .mjs module (scripts/run.mjs runs under Node before Bun exists), no types.
import { NODE_FLOOR } from "../../scripts/node-floor.mjs";

/**
 * Issue 11 item 6: @ndc-gateway/client is publishable on its own: it imports nothing of the
 * gateway (only relative files, node: built-ins, @xmldom/xmldom and xml-crypto), its
 * package.json depends on nothing of the workspace, and its Node build talks to a real gateway.
 */
const root = join(import.meta.dir, "../..");
const pkg = join(root, "packages/client");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith(".ts") ? [p] : [];
  });
}

/** Every module specifier of a file: static imports and exports, dynamic import(), require(). */
export function specifiers(text: string): string[] {
  const found = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']/g), ...text.matchAll(/(?:^|\n)\s*import\s*["']([^"']+)["']/g), ...text.matchAll(/\b(?:import|require)\s*\(\s*["']([^"']+)["']\s*\)/g)];
  return found.map((m) => m[1]!);
}

const ALLOWED = (s: string) => s.startsWith("./") || s.startsWith("../") || s.startsWith("node:") || s === "@xmldom/xmldom" || s === "xml-crypto";

test("the client imports nothing of the gateway", () => {
  const files = sources(join(pkg, "src"));
  expect(files.length).toBeGreaterThan(8);
  const bad = files.flatMap((f) => specifiers(readFileSync(f, "utf8")).filter((s) => !ALLOWED(s)).map((s) => `${relative(root, f)}: ${s}`));
  expect(bad).toEqual([]);
  // The scan sees imports at all (a scan of nothing proves nothing), and would see a gateway one.
  expect(specifiers(readFileSync(join(pkg, "src/transport.ts"), "utf8"))).toContain("node:zlib");
  expect(specifiers(`import { x } from "@ndc/xml";\nexport * from "@ndc/orders";\nconst y = await import("@ndc/auth");`).filter((s) => !ALLOWED(s))).toEqual(["@ndc/xml", "@ndc/orders", "@ndc/auth"]);
});

test("package.json: publishable name, exact external dependencies only, the project's Node floor", () => {
  const p = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8"));
  expect(p.name).toBe("@ndc-gateway/client");
  expect(p.private).toBeUndefined();
  expect(Object.keys(p.dependencies).sort()).toEqual(["@xmldom/xmldom", "xml-crypto"]);
  const rootPkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  for (const [name, version] of Object.entries(p.dependencies)) expect(version).toBe(rootPkg.dependencies[name]);
  expect(p.engines.node).toBe(`>=${NODE_FLOOR}`);
});

let g: ListeningGateway;
let out: string;
beforeAll(async () => {
  g = await startListeningGateway();
  // Inside the checkout (.tmp/ is gitignored) so node resolves the two external dependencies from its node_modules.
  mkdirSync(join(root, ".tmp"), { recursive: true });
  out = mkdtempSync(join(root, ".tmp", "client-build-"));
});
afterAll(async () => {
  await g.close();
  rmSync(out, { recursive: true, force: true });
});

test("the Node build (what prepack publishes) shops on a real gateway under node", async () => {
  const bun = join(root, "node_modules/.bin/bun");
  const build = Bun.spawnSync([bun, "build", join(pkg, "src/index.ts"), "--target", "node", "--outdir", out, "--external", "xml-crypto", "--external", "@xmldom/xmldom"], { cwd: pkg });
  expect(build.exitCode).toBe(0);
  // As published: the package is "type": "module".
  writeFileSync(join(out, "package.json"), JSON.stringify({ type: "module" }));
  const script = join(out, "run.mjs");
  writeFileSync(
    script,
    `import { NdcClient, party } from ${JSON.stringify(join(out, "index.js"))};
const c = new NdcClient({ baseUrl: process.argv[2], clientId: process.argv[3], clientSecret: process.argv[4] });
const date = new Date(Date.now() + 30 * 864e5).toISOString().slice(0, 10);
const shop = await c.shop({ origin: "LHR", destination: "CDG", date, passengers: party({ adults: 1 }) });
console.log(JSON.stringify({ offers: shop.offers.length, first: shop.offers[0].offerId, tokens: c.tokens.fetched }));`,
  );
  const proc = Bun.spawn(["node", script, g.url, g.clientId, g.clientSecret], { cwd: root, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  expect(stderr).toBe("");
  expect(code).toBe(0);
  const r = JSON.parse(stdout);
  expect(r.offers).toBeGreaterThan(3);
  expect(r.first).toMatch(/^OFR-/);
  expect(r.tokens).toBe(1);
}, 120_000);

test("fresh CorrelationIDs and TrxIDs: unique, within 24.4's text limits, and never a digit a gateway could take for a card number", () => {
  const ids = Array.from({ length: 20_000 }, () => newId("ORDERRETRIEVE"));
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids.every((id) => /^ORDERRETRIEVE-[A-Z]{22}$/.test(id))).toBe(true);
  // Every letter appears: the alphabet is used whole (a biased or truncated one would show here).
  expect(new Set(ids.map((id) => id.slice("ORDERRETRIEVE-".length)).join("")).size).toBe(26);
});
