import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { JOBS } from "../../apps/scheduler/src/jobs/index";
import { USAGE } from "../../apps/cli/src/usage";
import { EVENT_NAMES, PRODUCED_EVENTS } from "@ndc/notifications";
// @ts-expect-error: a plain .mjs module (scripts/run.mjs runs under Node before Bun exists), no types.
import { NODE_FLOOR, nodeTooOld } from "../../scripts/node-floor.mjs";

/** Docs that describe code state what the code does today; what is not built is called planned. */
const root = join(import.meta.dir, "../..");
const read = (p: string) => readFileSync(join(root, p), "utf8");

test("docs/scheduler.md's job table lists exactly the jobs the scheduler runs", () => {
  const doc = read("docs/scheduler.md");
  const table = doc.slice(doc.indexOf("## The jobs"), doc.indexOf("### Order work"));
  const documented = [...table.matchAll(/^\| `([a-z-]+\.[a-z-]+)` \|/gm)].map((m) => m[1]);
  expect(documented).toEqual(JOBS.map((j) => j.name));
});

test("the retention sweep is a scheduler job, and configuration.md and scheduler.md no longer call it planned", () => {
  expect(JOBS.map((j) => j.name)).toContain("documents.retention");
  const row = read("docs/configuration.md").split("\n").find((l) => l.startsWith("| `ORDER_TRAVEL_DOC_RETENTION_DAYS`"))!;
  expect(row).not.toContain("planned");
  expect(row).toContain("documents.retention");
  expect(read("docs/scheduler.md")).not.toMatch(/Planned, not built:[^.]*retention sweep/);
});

test("docs/single-binary.md documents every command of `ndc-gateway help`, and its npm run cli form", () => {
  const commands = [...USAGE.matchAll(/^ {2}([a-z-]+) /gm)].map((m) => m[1]!);
  expect(commands).toContain("web-shop");
  const doc = read("docs/single-binary.md");
  for (const c of commands) expect(doc).toContain(`\`ndc-gateway ${c}`);
  expect(doc).toContain("`npm run cli -- agency list`");
  expect(read("docs/registering-sellers.md")).toContain("npm run cli -- agency");
  expect(JSON.parse(read("package.json")).scripts.cli).toBe("node scripts/run.mjs cli");
});

test("the Node.js floor is the one package.json, the README and scripts/run.mjs state", () => {
  expect(NODE_FLOOR).toBe(20);
  expect(JSON.parse(read("package.json")).engines.node).toBe(`>=${NODE_FLOOR}`);
  expect(read("README.md")).toContain(`Node.js ${NODE_FLOOR} or newer`);
  expect(nodeTooOld("18.20.4")).toBe(
    "ndc-gateway needs Node.js 20 or newer to install its dependencies and start Bun; this is Node.js 18.20.4. Install a current Node.js (https://nodejs.org) and run again.",
  );
  expect(nodeTooOld("20.17.0")).toBeNull();
  expect(nodeTooOld("24.1.0")).toBeNull();
  expect(read("scripts/run.mjs")).toContain("nodeTooOld(process.versions.node)");
});

test("docs/notifications.md's event table names every event, and marks produced exactly those discovery advertises", () => {
  const doc = read("docs/notifications.md");
  const table = doc.slice(doc.indexOf("## Events"), doc.indexOf("Every name is accepted"));
  const rows = [...table.matchAll(/^\| `([a-z_]+\.[a-z_]+)` \| [^|]+ \| (\*\*Yes\.\*\*)?/gm)].map((m) => ({ event: m[1]!, produced: m[2] !== undefined }));
  expect(rows.map((r) => r.event).sort()).toEqual([...EVENT_NAMES].sort());
  // Discovery's notifications.events is PRODUCED_EVENTS (apps/gateway/src/routes/discovery.ts).
  expect(rows.filter((r) => r.produced).map((r) => r.event).sort()).toEqual([...PRODUCED_EVENTS].sort());
  expect(PRODUCED_EVENTS).toContain("accounting.service_status");
});

test("npm ci on the floor's Node warns of no engine: every package of package-lock.json, the workspace's own included, accepts Node.js 20.0.0", () => {
  const lock = JSON.parse(read("package-lock.json")) as { packages: Record<string, { engines?: { node?: string } }> };
  const ranges = Object.entries(lock.packages).filter(([, p]) => p.engines?.node);
  // The check sees the ranges npm checks (a lock without them would prove nothing) ...
  expect(ranges.length).toBeGreaterThan(10);
  const floor = `${NODE_FLOOR}.0.0`;
  // ... and would see a package asking for more, as nanoid 6 (^22 || ^24 || >=26) did.
  expect(Bun.semver.satisfies(floor, "^22 || ^24 || >=26")).toBe(false);
  expect(ranges.filter(([, p]) => !Bun.semver.satisfies(floor, p.engines!.node!)).map(([name, p]) => `${name || "(root)"} ${p.engines!.node}`)).toEqual([]);
  expect(JSON.parse(read("packages/client/package.json")).engines.node).toBe(`>=${NODE_FLOOR}`);
});
