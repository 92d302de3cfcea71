/**
 * A diagnostic, not a benchmark: where a worker's main thread spends its CPU inside and outside
 * the database's write lock, from the profiles and lock intervals `bench/scale-out.ts` leaves with
 * BENCH_STATS=1 BENCH_PROFILE=<dir> (every process of both serves under `--cpu-prof`, and
 * bench/worker-stats.ts recording each BEGIN IMMEDIATE..COMMIT in epoch µs, the profiles' clock).
 * Only the samples inside one window (its epoch µs, printed by the bench) count. Per process:
 * the share of samples taken while it held the lock, and the self time by area (the package or
 * library a function's file is in) inside and outside the lock, ms per request.
 *
 *   node_modules/.bin/bun bench/lock-profile.ts <profile dir> <stats dir> <from-to> <requests>
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const [profileDir, statsDir, window, requestsText] = process.argv.slice(2);
if (!profileDir || !statsDir || !window || !requestsText) throw new Error("usage: lock-profile.ts <profile dir> <stats dir> <from-to> <requests>");
const [from, to] = window.split("-").map(Number) as [number, number];
const requests = Number(requestsText);

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: Node[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

function area(url: string, fn: string): string {
  if (!url) return fn === "(garbage collector)" || fn === "(program)" || fn === "(idle)" ? fn : "native (SQLite, fetch, ...)";
  const m = url.match(/\/(packages|apps)\/([^/]+)\//);
  if (m) return `${m[1]}/${m[2]}`;
  const lib = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (lib) return lib[1]!;
  if (url.startsWith("node:") || url.includes("internal")) return "bun/node internals";
  return url.split("/").slice(-2).join("/");
}

for (const file of readdirSync(profileDir).filter((f) => f.endsWith(".cpuprofile"))) {
  const pid = Number(file.split(".")[3]);
  let locks: number[];
  try {
    locks = JSON.parse(readFileSync(join(statsDir, `${pid}.locks.json`), "utf8")) as number[];
  } catch {
    continue;
  }
  const p = JSON.parse(readFileSync(join(profileDir, file), "utf8")) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  let t = p.startTime;
  let li = 0;
  const inside = new Map<string, number>();
  const outside = new Map<string, number>();
  const fnInside = new Map<string, number>();
  let inMs = 0;
  let outMs = 0;
  for (let i = 0; i < p.samples.length; i++) {
    const dt = p.timeDeltas[i]!;
    t += dt;
    if (t < from || t > to) continue;
    const node = byId.get(p.samples[i]!)!;
    const { functionName: fn, url, lineNumber } = node.callFrame;
    if (fn === "(idle)" || fn === "(program)") continue;
    while (li < locks.length && locks[li + 1]! < t) li += 2;
    const locked = li < locks.length && locks[li]! <= t;
    const a = area(url, fn);
    const ms = Math.min(dt, 2000) / 1000;
    (locked ? inside : outside).set(a, ((locked ? inside : outside).get(a) ?? 0) + ms);
    if (locked) {
      inMs += ms;
      const key = `${fn || "(anonymous)"} ${url.split("/").slice(-2).join("/")}:${lineNumber}`;
      fnInside.set(key, (fnInside.get(key) ?? 0) + ms);
    } else outMs += ms;
  }
  if (inMs + outMs === 0) continue;
  const per = (ms: number) => (ms / requests).toFixed(3);
  console.log(`pid ${pid}: ${per(inMs + outMs)} ms a request sampled, ${per(inMs)} inside the write lock (${((100 * inMs) / (inMs + outMs)).toFixed(0)} %)`);
  const areas = [...new Set([...inside.keys(), ...outside.keys()])].sort((a, b) => (inside.get(b) ?? 0) + (outside.get(b) ?? 0) - (inside.get(a) ?? 0) - (outside.get(a) ?? 0));
  for (const a of areas.slice(0, 18)) console.log(`  ${a.padEnd(34)} inside ${per(inside.get(a) ?? 0)}  outside ${per(outside.get(a) ?? 0)}`);
  console.log("  top functions inside the lock (self ms a request):");
  for (const [k, ms] of [...fnInside].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`    ${per(ms)} ${k}`);
}
