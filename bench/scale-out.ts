/**
 * Scale-out (issue 22 item 5): the same load against `ndc-gateway serve` with 1 worker, then with
 * 2 workers (GATEWAY_WORKERS and `--workers N`: N gateway processes on one port with SO_REUSEPORT,
 * plus the scheduler app), each on a fresh data directory, in one run. Two loads, each at 32
 * concurrent sellers over keep-alive connections (the kernel spreads connections over the workers):
 *
 *   - paid OrderCreateRQ: two adults, two seats, one card leg, each order its own pre-shopped offer
 *     (bench/booking-pool.ts, shopped over HTTP against the same serve before the clock starts);
 *   - cold AirShoppingRQ: every request a one-way search never made before in that serve (another
 *     route, day or party), so it misses the answer cache and the supply memos.
 *
 * The load generator is this process: every body is built before its window opens, each seller
 * sends its next request as soon as the last is answered and only reads the status and the
 * bytes, so the workers get the cores (its own CPU per request is printed beside the workers').
 * Last lines, one per message: `{"bench":"scale-out","message":..,"workers":2,"speedup":..}`,
 * speedup = requests/s with 2 workers over requests/s with 1 in the same round, median of the
 * rounds. Both serves run side by side (the one waiting for its turn idle) and the rounds alternate
 * between them: one round each, one serve after the other, read 2.34 for two identical serves on
 * this shared machine (another session's load came and went), so a single pair decides nothing.
 * Target (issue 22): 1.6 or more for both.
 *
 * On PostgreSQL (GATEWAY_DATABASE_URL=postgres://..., bench/engine.ts) each serve runs in a fresh
 * database of its own in that cluster (its workers and scheduler app share it, as machines would),
 * and the lines per serve add the database server's CPU per request; every JSON line carries "engine".
 *
 *   node_modules/.bin/bun bench/scale-out.ts
 *   env BENCH_ROUNDS=3 BENCH_ORDERS=600 BENCH_SEARCHES=1000 BENCH_CONNECTIONS=32 BENCH_WORKERS=1,2
 *   BENCH_WORKERS_FLAG=0: pass GATEWAY_WORKERS only (a serve without the --workers flag)
 *
 * Each window also prints the serve tree's CPU per request by process and thread (/proc) and the
 * share of the cores other programs took (/proc/stat). Diagnostics (bench/README.md, "Scale-out,
 * profiled"): BENCH_STATS=1 (bench/worker-stats.ts preloaded into every process of both serves:
 * statements, COMMITs, refused BEGIN IMMEDIATE, the write lock's intervals, per process);
 * BENCH_PROFILE=<dir> with it (a --cpu-prof profile per process, for bench/lock-profile.ts);
 * BENCH_CLIENT=wrk (wrk and bench/scale-out.lua as the load generator, where installed).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { sourceCli, startServer, type Running } from "../test/binary/processes";
import { baseEnv, multiDataDir } from "../test/multi/support";
import { airShoppingRQ } from "../test/shopping/shop-requests";
import { dayAfter, T0 } from "../test/support/dates";
import { bookingPool, type Ndc } from "./booking-pool";
import { databaseCpuMs, ENGINE, freshDatabase } from "./engine";
import { IN_LOCK, LOCK_HELD, YIELDED, type Stat } from "./worker-stats-rows";
import { median } from "./support";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ORDERS = Number(process.env.BENCH_ORDERS ?? 600);
const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 1000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const WORKERS = (process.env.BENCH_WORKERS ?? "1,2").split(",").map(Number);
const WORKERS_FLAG = process.env.BENCH_WORKERS_FLAG !== "0";
/** BENCH_CLIENT=wrk: wrk with bench/scale-out.lua instead of this process's fetch (BENCH_WRK_THREADS, 1). */
const CLIENT = process.env.BENCH_CLIENT ?? "bun";
const WRK_THREADS = Number(process.env.BENCH_WRK_THREADS ?? 1);
const MSG_BOOKED = "<cns:StatusCode>BOOKED</cns:StatusCode>";

interface Serve {
  run: Running;
  /** An NDC call as the sandbox seller, answer read as text (untimed shopping for the pool). */
  ndc: Ndc;
  headers(message: string): Record<string, string>;
  stop(): Promise<void>;
}

/** A free TCP port: every worker of one serve binds the same one (PORT=0 would give each its own). */
function freePort(): number {
  const s = Bun.serve({ port: 0, fetch: () => new Response() });
  const port = s.port!;
  s.stop(true);
  return port;
}

async function startServe(workers: number): Promise<Serve> {
  const data = multiDataDir();
  const database = await freshDatabase();
  const env = {
    ...baseEnv(data.dir),
    ...database.env,
    PORT: String(freePort()),
    GATEWAY_WORKERS: String(workers),
    RATE_LIMIT_SHOP_PER_MINUTE: "100000000",
    RATE_LIMIT_DEFAULT_PER_MINUTE: "100000000",
    LOG_LEVEL: "warn",
    ...(STATS_DIR ? { BUN_OPTIONS: `--preload ${join(import.meta.dir, "worker-stats.ts")}${PROFILE_DIR ? ` --cpu-prof --cpu-prof-dir=${PROFILE_DIR}` : ""}`, WORKER_STATS_DIR: STATS_DIR } : {}),
  };
  const run = await startServer(sourceCli, ["serve", ...(WORKERS_FLAG ? ["--workers", String(workers)] : [])], env);
  const { api_key } = JSON.parse(readFileSync(join(data.dir, "sandbox-credentials.json"), "utf8")) as { api_key: string };
  const headers = (message: string) => ({ "content-type": "application/xml", "iata-message-name": `IATA_${message}`, "x-api-key": api_key, "accept-encoding": "identity" });
  return {
    run,
    headers,
    ndc: async (message, body) => {
      const res = await fetch(`${run.url}/24.4/${message}`, { method: "POST", headers: headers(message), body });
      return { status: res.status, body: await res.text() };
    },
    async stop() {
      await run.stop();
      data.remove();
      await database.drop();
    },
  };
}

/** Every process of a serve tree (pid, its role from its command line) with its threads' CPU ticks by thread name. */
interface TreeCpu {
  processes: Map<number, { role: string; threads: Map<string, number> }>;
}

/** A thread's name, grouped: Bun names its JIT, GC, thread pool (the -wal fsyncs) and Worker (the checkpointer) threads. */
function threadGroup(comm: string): string {
  if (comm.startsWith("Bun Pool")) return "pool";
  if (comm === "JITWorker") return "jit";
  if (comm === "HeapHelper" || comm === "mi-scavenger") return "gc";
  if (comm === "Worker") return "worker-thread";
  if (comm === "HTTP Client") return "http-client";
  return "other";
}

const statFields = (text: string) => text.slice(text.lastIndexOf(")") + 2).split(" ");

/** CPU ticks (10 ms) of a process and every descendant, from /proc, by process and thread group. */
function treeCpu(root: number): TreeCpu {
  const parents = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      parents.set(Number(name), Number(statFields(readFileSync(`/proc/${name}/stat`, "utf8"))[1]));
    } catch {
      // gone meanwhile
    }
  }
  const processes: TreeCpu["processes"] = new Map();
  const visit = (pid: number) => {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      const role = args.includes("serve") ? "serve" : (args.filter(Boolean).at(-1) ?? "?");
      const threads = new Map<string, number>();
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        const f = statFields(readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8"));
        const group = tid === String(pid) ? "main" : threadGroup(readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").trim());
        threads.set(group, (threads.get(group) ?? 0) + Number(f[11]) + Number(f[12]));
      }
      processes.set(pid, { role, threads });
    } catch {
      return;
    }
    for (const [child, ppid] of parents) if (ppid === pid) visit(child);
  };
  visit(root);
  return { processes };
}

/** The machine's CPU ticks, busy and in all (every core, /proc/stat): whether the cores were the limit, and how much went to other programs. */
function machineTicks(): { busy: number; all: number } {
  const f = readFileSync("/proc/stat", "utf8").split("\n", 1)[0]!.split(/\s+/).slice(1).map(Number);
  const all = f.reduce((a, b) => a + b, 0);
  return { busy: all - f[3]! - f[4]!, all };
}

/** CPU time (ms) of a process and every descendant. */
function treeCpuMs(root: number): { ms: number; processes: number } {
  const { processes } = treeCpu(root);
  let ticks = 0;
  for (const p of processes.values()) for (const t of p.threads.values()) ticks += t;
  return { ms: ticks * 10, processes: processes.size };
}

/** Per process of the tree ("worker 1234", "scheduler", "serve") and thread group: ms of CPU between two readings. */
function cpuSplit(before: TreeCpu, after: TreeCpu): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const [pid, p] of after.processes) {
    const b = before.processes.get(pid)?.threads;
    const row: Record<string, number> = {};
    for (const [group, ticks] of p.threads) {
      const ms = (ticks - (b?.get(group) ?? 0)) * 10;
      if (ms) row[group] = ms;
    }
    out[p.role === "worker" ? `worker ${pid}` : p.role] = row;
  }
  return out;
}

interface Window {
  /** The window in epoch µs (a `--cpu-prof` profile's clock). */
  epochUs: [number, number];
  /** The machine's cores busy during the window (0..1), and the share of them other programs took. */
  machineBusy: number;
  othersBusy: number;
  perSecond: number;
  /** The serve tree's CPU per request (ms), and this process's (the load generator's). */
  serverCpuMs: number;
  clientCpuMs: number;
  /** PostgreSQL: the database server's CPU per request (every process of the cluster). */
  databaseCpuMs?: number;
  /** The serve tree's CPU per request by process and thread group (ms). */
  split: Record<string, Record<string, number>>;
  /** BENCH_STATS=1: per process, its SQLite statements per request (bench/worker-stats.ts). */
  statements?: Record<string, ReturnType<typeof statementsPerRequest>>;
  lock?: { held: number; idleWhileWaited: number; handOverUs: number };
}

// BENCH_STATS=1: every process of the serves counts its statements (bench/worker-stats.ts, preloaded).
const STATS_DIR = process.env.BENCH_STATS === "1" ? mkdtempSync(join(tmpdir(), "scale-stats-")) : undefined;
// BENCH_PROFILE=<dir> (with BENCH_STATS=1): every process of the serves writes a CPU profile there at its exit.
const PROFILE_DIR = process.env.BENCH_PROFILE;
type Counters = Record<string, Stat>;

/** Intervals (epoch µs, flat from, to pairs) merged into a sorted union, clipped to [from, to]. */
function union(lists: number[][], from: number, to: number): [number, number][] {
  const all: [number, number][] = [];
  for (const l of lists) for (let i = 0; i + 1 < l.length; i += 2) if (l[i + 1]! > from && l[i]! < to) all.push([Math.max(l[i]!, from), Math.min(l[i + 1]!, to)]);
  all.sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [a, b] of all) {
    const last = out.at(-1);
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

const total = (xs: [number, number][]) => xs.reduce((sum, [a, b]) => sum + b - a, 0);

/**
 * Over one window, from every process's lock and wait intervals: the share of the window some
 * process held the write lock, and the share during which some process was waiting for it while
 * nobody held it (the hand-over's cost: a waiter polls on timers, busy-wait.ts).
 */
function lockTimeline(root: number, [from, to]: [number, number]): { held: number; idleWhileWaited: number; handOverUs: number } {
  const pids = [...treeCpu(root).processes.keys()];
  const read = (pid: number, what: string) => {
    try {
      return JSON.parse(readFileSync(join(STATS_DIR!, `${pid}.${what}.json`), "utf8")) as number[];
    } catch {
      return [];
    }
  };
  const held = union(pids.map((p) => read(p, "locks")), from, to);
  const waited = union(pids.map((p) => read(p, "waits")), from, to);
  // Waiting time not covered by any holder: walk the waits against the (sorted, disjoint) holds.
  let idle = 0;
  for (const [a, b] of waited) {
    let covered = 0;
    for (const [c, d] of held) if (d > a && c < b) covered += Math.min(b, d) - Math.max(a, c);
    idle += b - a - covered;
  }
  // The hand-over: from one process's COMMIT to the next BEGIN IMMEDIATE that took the lock, when
  // that was another process's (median, µs): how long the lock lies free between two holders.
  const holds = pids.flatMap((pid) => {
    const l = read(pid, "locks");
    const out: [number, number, number][] = [];
    for (let i = 0; i + 1 < l.length; i += 2) if (l[i]! >= from && l[i + 1]! <= to) out.push([l[i]!, l[i + 1]!, pid]);
    return out;
  });
  holds.sort((a, b) => a[0] - b[0]);
  const gaps: number[] = [];
  for (let i = 1; i < holds.length; i++) if (holds[i]![2] !== holds[i - 1]![2]) gaps.push(holds[i]![0] - holds[i - 1]![1]);
  gaps.sort((a, b) => a - b);
  return { held: total(held) / (to - from), idleWhileWaited: idle / (to - from), handOverUs: gaps.length ? gaps[Math.floor(gaps.length / 2)]! : 0 };
}

/** Each process of the tree writes its statement counters (SIGUSR2); read them by role. */
async function statementCounters(root: number): Promise<Record<string, Counters>> {
  const pids = [...treeCpu(root).processes.keys()];
  for (const pid of pids) process.kill(pid, "SIGUSR2");
  await Bun.sleep(300);
  const out: Record<string, Counters> = {};
  for (const pid of pids) {
    try {
      const { role, stats } = JSON.parse(readFileSync(join(STATS_DIR!, `${pid}.json`), "utf8")) as { role: string; stats: Counters };
      out[role === "worker" ? `worker ${pid}` : role.startsWith("--") || /^\d+$/.test(role) ? "serve" : role] = stats;
    } catch {
      // a process without the preload (none expected)
    }
  }
  return out;
}

/** The difference of two readings, per request: statements, COMMITs, writes a COMMIT, refused BEGINs, the lock held, SQLite ms. */
function statementsPerRequest(before: Counters | undefined, after: Counters, requests: number) {
  const diff = (key: string): Stat => ({ n: (after[key]?.n ?? 0) - (before?.[key]?.n ?? 0), ms: (after[key]?.ms ?? 0) - (before?.[key]?.ms ?? 0), busy: (after[key]?.busy ?? 0) - (before?.[key]?.busy ?? 0) });
  const statements = Object.keys(after).filter((k) => !k.startsWith("(")).map((k): [string, Stat] => [k, diff(k)]).filter(([, d]) => d.n);
  const per = (x: number) => +(x / requests).toFixed(3);
  const commits = diff("COMMIT").n;
  return {
    statements: per(statements.reduce((sum, [, d]) => sum + d.n, 0)),
    sqliteMs: per(statements.reduce((sum, [, d]) => sum + d.ms, 0)),
    commits: per(commits),
    writesPerCommit: commits ? +(diff("SAVEPOINT write").n / commits).toFixed(2) : 0,
    beginRefused: per(diff("BEGIN IMMEDIATE").busy),
    dataVersion: per(diff("PRAGMA data_version").n),
    lockHeldMs: per(diff(LOCK_HELD).ms),
    statementsInLockMs: per(diff(IN_LOCK).ms),
    yieldedBatches: diff(YIELDED).n,
    top: statements
      .sort((x, y) => y[1].ms - x[1].ms)
      .slice(0, 14)
      .map(([k, d]) => `${per(d.n)} x ${((1000 * d.ms) / d.n).toFixed(1)} us ${k.slice(0, 90)}`),
  };
}

interface Sent {
  seconds: number;
  /** The load generator's CPU (ms) in all. */
  clientCpuMs: number;
  failed?: string;
}

/**
 * The Bun client: CONNECTIONS sellers over keep-alive connections, each sending its next body as
 * soon as the last is answered. Each answer is read as bytes and searched natively (no decoding,
 * no string of the 12 KB booking or 50-100 KB shopping answer): only a failure is decoded.
 */
async function bunLoad(url: string, headers: Record<string, string>, bodies: string[], mustContain: string | undefined): Promise<Sent> {
  const needle = mustContain === undefined ? undefined : Buffer.from(mustContain);
  let next = 0;
  let failed: string | undefined;
  const client0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (next < bodies.length && !failed) {
        const res = await fetch(url, { method: "POST", headers, body: bodies[next++]!, keepalive: true });
        const bytes = Buffer.from(await res.arrayBuffer());
        if (res.status !== 200 || (needle && bytes.indexOf(needle) < 0)) failed = `${res.status}: ${bytes.toString("utf8", 0, 400)}`;
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const client = process.cpuUsage(client0);
  return { seconds, clientCpuMs: (client.user + client.system) / 1000, ...(failed ? { failed } : {}) };
}

/**
 * wrk (BENCH_CLIENT=wrk, where installed: `apt-get install wrk`) with bench/scale-out.lua: the same
 * closed loop from C, each body sent once. The window runs from wrk's first "started" line to its
 * last thread's "finished"; its CPU is the child's own.
 */
async function wrkLoad(url: string, headers: Record<string, string>, bodies: string[], mustContain: string | undefined): Promise<Sent> {
  const dir = mkdtempSync(join(tmpdir(), "scale-wrk-"));
  try {
    const file = join(dir, "bodies");
    writeFileSync(file, bodies.join("\0"));
    const { origin, pathname } = new URL(url);
    const args = [pathname, file, String(WRK_THREADS), headers["iata-message-name"]!.replace(/^IATA_/, ""), headers["x-api-key"]!, ...(mustContain ? [mustContain] : [])];
    const proc = Bun.spawn(["wrk", "-t", String(WRK_THREADS), "-c", String(CONNECTIONS), "--timeout", "60s", "-d", "600s", "-s", join(import.meta.dir, "scale-out.lua"), origin, "--", ...args], { stdout: "pipe", stderr: "pipe" });
    let t0 = 0;
    let t1 = 0;
    let finished = 0;
    let out = "";
    const decoder = new TextDecoder();
    for await (const chunk of proc.stdout) {
      out += decoder.decode(chunk, { stream: true });
      if (!t0 && out.includes("started")) t0 = performance.now();
      const count = out.split("finished\n").length - 1;
      if (count > finished) {
        finished = count;
        if (finished === WRK_THREADS) {
          t1 = performance.now();
          proc.kill("SIGINT");
        }
      }
    }
    await proc.exited;
    const result = JSON.parse(out.trim().split("\n").at(-1)!) as { answered: number; failures: number; failure: string; socketErrors: number };
    const cpu = proc.resourceUsage()!.cpuTime;
    const failed = result.failures || result.answered !== bodies.length ? `${result.failures} failed, ${result.answered} of ${bodies.length} answered, ${result.socketErrors} socket errors; first: ${result.failure}` : undefined;
    return { seconds: (t1 - t0) / 1000, clientCpuMs: Number(cpu.user + cpu.system) / 1000, ...(failed ? { failed } : {}) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `bodies` sent by CONNECTIONS sellers, closed loop; every answer must be 200 (and hold `mustContain`). */
async function window(serve: Serve, message: string, bodies: string[], mustContain?: string): Promise<Window> {
  const url = `${serve.run.url}/24.4/${message}`;
  const headers = serve.headers(message);
  const counters0 = STATS_DIR ? await statementCounters(serve.run.proc.pid) : undefined;
  const server0 = treeCpu(serve.run.proc.pid);
  const machine0 = machineTicks();
  const database0 = await databaseCpuMs();
  const t0 = performance.now();
  const epochUs = (t: number) => Math.round((performance.timeOrigin + t) * 1000);
  const sent = await (CLIENT === "wrk" ? wrkLoad : bunLoad)(url, headers, bodies, mustContain);
  const { seconds } = sent;
  if (sent.failed) throw new Error(`${message} ${sent.failed}`);
  const split = cpuSplit(server0, treeCpu(serve.run.proc.pid));
  const machine1 = machineTicks();
  const database1 = await databaseCpuMs();
  let serverMs = 0;
  for (const row of Object.values(split)) for (const [group, ms] of Object.entries(row)) {
    serverMs += ms;
    row[group] = +(ms / bodies.length).toFixed(3);
  }
  const machineBusy = (machine1.busy - machine0.busy) / (machine1.all - machine0.all);
  // Ticks of 10 ms on every core: what this serve and this process did not use went to other programs.
  const othersBusy = Math.max(0, machineBusy - (serverMs + sent.clientCpuMs) / (seconds * 1000 * availableParallelism()));
  const w: Window = { machineBusy, othersBusy, epochUs: [epochUs(t0), epochUs(performance.now())], perSecond: bodies.length / seconds, serverCpuMs: serverMs / bodies.length, clientCpuMs: sent.clientCpuMs / bodies.length, split };
  if (database0 !== undefined && database1 !== undefined) w.databaseCpuMs = (database1 - database0) / bodies.length;
  if (counters0) {
    const counters1 = await statementCounters(serve.run.proc.pid);
    w.statements = Object.fromEntries(Object.entries(counters1).map(([who, c]) => [who, statementsPerRequest(counters0[who], c, bodies.length)]));
    // The share of the window during which some process held the write lock (one file, one writer),
    // and during which one waited for it while it was free.
    w.lock = lockTimeline(serve.run.proc.pid, w.epochUs);
  }
  return w;
}

// Cold searches: one-way, over the sandbox's direct routes both ways, days and parties; the i-th
// is never the same as another, and every serve gets the same list on its own fresh store.
const ROUTES = [["LHR", "FRA"], ["LHR", "CDG"], ["LHR", "MAD"], ["CDG", "FRA"], ["FRA", "AMS"], ["CDG", "AMS"]] as const;
const PARTIES: [string, string][][] = [[["PAX1", "ADT"]], [["PAX1", "ADT"], ["PAX2", "ADT"]], [["PAX1", "ADT"], ["PAX2", "CHD"]], [["PAX1", "ADT"], ["PAX2", "ADT"], ["PAX3", "CHD"]]];
const SEARCH_DAYS = 300;
function coldSearch(i: number): string {
  const day = 5 + (i % SEARCH_DAYS);
  let j = Math.floor(i / SEARCH_DAYS);
  const route = ROUTES[j % ROUTES.length]!;
  j = Math.floor(j / ROUTES.length);
  const [from, to] = j % 2 ? [route[1], route[0]] : [route[0], route[1]];
  j = Math.floor(j / 2);
  if (j >= PARTIES.length) throw new Error("cold searches exhausted: lower BENCH_SEARCHES");
  return airShoppingRQ({ legs: [{ from, to, date: dayAfter(T0, day) }], pax: PARTIES[j]!, currency: "EUR", correlationId: `SCALE-${i}` });
}
const allSearches = Array.from({ length: SEARCHES * ROUNDS }, (_, i) => coldSearch(i));
// A few searches outside the timed lists, to load each worker's code before its windows.
const warmSearches = Array.from({ length: 64 }, (_, i) => coldSearch(SEARCHES * ROUNDS + i));

type Message = "OrderCreateRQ" | "AirShoppingRQ";
const results: Record<Message, Map<number, Window[]>> = { OrderCreateRQ: new Map(), AirShoppingRQ: new Map() };

interface Ready {
  workers: number;
  serve: Serve;
  processes: number;
  /** Per round: its own paid bodies and its own never-made searches. */
  bookings: string[][];
  searches: string[][];
}

/** One serve, warmed up outside the windows, with every round's bodies built. */
async function prepare(workers: number): Promise<Ready> {
  const serve = await startServe(workers);
  const pool = bookingPool(serve.ndc);
  // Warm-up: every worker loads its code paths (32 connections reach them all).
  await window(serve, "OrderCreateRQ", await pool(64), MSG_BOOKED);
  await window(serve, "AirShoppingRQ", warmSearches);
  const bookings: string[][] = [];
  const searches: string[][] = [];
  for (let r = 0; r < ROUNDS; r++) {
    bookings.push(await pool(ORDERS));
    searches.push(allSearches.slice(r * SEARCHES, (r + 1) * SEARCHES));
  }
  return { workers, serve, processes: treeCpuMs(serve.run.proc.pid).processes, bookings, searches };
}

async function measure(ready: Ready, round: number): Promise<void> {
  const { serve, workers } = ready;
  const booked = await window(serve, "OrderCreateRQ", ready.bookings[round]!, MSG_BOOKED);
  const shopped = await window(serve, "AirShoppingRQ", ready.searches[round]!);
  for (const [message, w] of [["OrderCreateRQ", booked], ["AirShoppingRQ", shopped]] as const) {
    const list = results[message].get(workers) ?? [];
    list.push(w);
    results[message].set(workers, list);
    console.log(
      `round ${round + 1}, workers ${workers} (${ready.processes} processes in the serve tree): ${message} ${w.perSecond.toFixed(1)}/s, server CPU ${w.serverCpuMs.toFixed(2)} ms and load generator ${w.clientCpuMs.toFixed(2)} ms per request${w.databaseCpuMs === undefined ? "" : ` (PostgreSQL ${w.databaseCpuMs.toFixed(2)} ms)`}; cores busy ${(100 * w.machineBusy).toFixed(0)} %, ${(100 * w.othersBusy).toFixed(0)} % by other programs`,
    );
    console.log(`  CPU ms per request by process and thread: ${JSON.stringify(w.split)}`);
    if (STATS_DIR) console.log(`  window (epoch µs): ${w.epochUs.join("-")}`);
    if (w.lock) console.log(`  write lock held ${(100 * w.lock.held).toFixed(0)} % of the window; free while a process polled for it ${(100 * w.lock.idleWhileWaited).toFixed(1)} %; hand-over to another process ${w.lock.handOverUs} µs (median)`);
    if (w.statements) for (const [who, st] of Object.entries(w.statements)) console.log(`  ${who}: ${JSON.stringify(st)}`);
  }
}

// Every serve up and its bodies built first; then the windows alternate between them, round by
// round (which goes first alternates too), so a burst of another session's load on the shared
// cores falls on both sides instead of deciding the ratio. A serve waiting for its turn is idle
// (its scheduler app ticks, a few ms a second).
const ready: Ready[] = [];
try {
  for (const w of WORKERS) ready.push(await prepare(w));
  const load0 = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  for (let round = 0; round < ROUNDS; round++) {
    for (const r of round % 2 ? [...ready].reverse() : ready) await measure(r, round);
  }
  const load1 = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  console.log(`${CONNECTIONS} sellers, ${ORDERS} paid OrderCreateRQ and ${SEARCHES} cold one-way AirShoppingRQ per serve and round, ${ROUNDS} rounds, load average ${load0} -> ${load1}`);
} finally {
  for (const r of ready) await r.serve.stop();
  if (STATS_DIR && !PROFILE_DIR) rmSync(STATS_DIR, { recursive: true, force: true });
  if (PROFILE_DIR) console.log(`statement counters and lock intervals in ${STATS_DIR}, profiles in ${PROFILE_DIR}`);
}
const [one, many] = [WORKERS[0]!, WORKERS.at(-1)!];
for (const message of ["OrderCreateRQ", "AirShoppingRQ"] as const) {
  const base = results[message].get(one)!;
  const top = results[message].get(many)!;
  const speedups = top.map((w, i) => w.perSecond / base[i]!.perSecond);
  console.log(
    JSON.stringify({
      bench: "scale-out",
      engine: ENGINE,
      message,
      workers: many,
      perSecond: +median(top.map((w) => w.perSecond)).toFixed(1),
      baselinePerSecond: +median(base.map((w) => w.perSecond)).toFixed(1),
      speedup: +median(speedups).toFixed(2),
    }),
  );
}
