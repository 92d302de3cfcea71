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
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { sourceCli, startServer, type Running } from "../test/binary/processes";
import { baseEnv, multiDataDir } from "../test/multi/support";
import { airShoppingRQ } from "../test/shopping/shop-requests";
import { dayAfter, T0 } from "../test/support/dates";
import { bookingPool, type Ndc } from "./booking-pool";
import { databaseCpuMs, ENGINE, freshDatabase } from "./engine";
import { median } from "./support";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ORDERS = Number(process.env.BENCH_ORDERS ?? 600);
const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 1000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const WORKERS = (process.env.BENCH_WORKERS ?? "1,2").split(",").map(Number);
const WORKERS_FLAG = process.env.BENCH_WORKERS_FLAG !== "0";
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

/** CPU time (ms) of a process and every descendant, from /proc (clock ticks of 10 ms). */
function treeCpuMs(root: number): { ms: number; processes: number } {
  const stats = new Map<number, { ppid: number; ticks: number }>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const text = readFileSync(`/proc/${name}/stat`, "utf8");
      const f = text.slice(text.lastIndexOf(")") + 2).split(" ");
      stats.set(Number(name), { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) });
    } catch {
      // gone meanwhile
    }
  }
  let ticks = 0;
  let processes = 0;
  const visit = (pid: number) => {
    const s = stats.get(pid);
    if (!s) return;
    ticks += s.ticks;
    processes++;
    for (const [child, c] of stats) if (c.ppid === pid) visit(child);
  };
  visit(root);
  return { ms: ticks * 10, processes };
}

interface Window {
  perSecond: number;
  /** The serve tree's CPU per request (ms), and this process's (the load generator's). */
  serverCpuMs: number;
  clientCpuMs: number;
  /** PostgreSQL: the database server's CPU per request (every process of the cluster). */
  databaseCpuMs?: number;
}

/** `bodies` sent by CONNECTIONS sellers, closed loop; every answer must pass `ok`. */
async function window(serve: Serve, message: string, bodies: string[], ok: (status: number, text: string) => boolean): Promise<Window> {
  const url = `${serve.run.url}/24.4/${message}`;
  const headers = serve.headers(message);
  let next = 0;
  let failed: string | undefined;
  const server0 = treeCpuMs(serve.run.proc.pid).ms;
  const database0 = await databaseCpuMs();
  const client0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (next < bodies.length && !failed) {
        const res = await fetch(url, { method: "POST", headers, body: bodies[next++]!, keepalive: true });
        const text = await res.text();
        if (!ok(res.status, text)) failed = `${message} ${res.status}: ${text.slice(0, 400)}`;
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const client = process.cpuUsage(client0);
  const serverMs = treeCpuMs(serve.run.proc.pid).ms - server0;
  const database1 = await databaseCpuMs();
  if (failed) throw new Error(failed);
  const databaseMs = database0 !== undefined && database1 !== undefined ? { databaseCpuMs: (database1 - database0) / bodies.length } : {};
  return { perSecond: bodies.length / seconds, serverCpuMs: serverMs / bodies.length, clientCpuMs: (client.user + client.system) / 1000 / bodies.length, ...databaseMs };
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
  await window(serve, "OrderCreateRQ", await pool(64), (s, t) => s === 200 && t.includes(MSG_BOOKED));
  await window(serve, "AirShoppingRQ", warmSearches, (s) => s === 200);
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
  const booked = await window(serve, "OrderCreateRQ", ready.bookings[round]!, (s, t) => s === 200 && t.includes(MSG_BOOKED));
  const shopped = await window(serve, "AirShoppingRQ", ready.searches[round]!, (s) => s === 200);
  for (const [message, w] of [["OrderCreateRQ", booked], ["AirShoppingRQ", shopped]] as const) {
    const list = results[message].get(workers) ?? [];
    list.push(w);
    results[message].set(workers, list);
    console.log(
      `round ${round + 1}, workers ${workers} (${ready.processes} processes in the serve tree): ${message} ${w.perSecond.toFixed(1)}/s, server CPU ${w.serverCpuMs.toFixed(2)} ms${w.databaseCpuMs === undefined ? "" : `, PostgreSQL ${w.databaseCpuMs.toFixed(2)} ms`} and load generator ${w.clientCpuMs.toFixed(2)} ms per request`,
    );
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
