/**
 * Several real processes on one data directory (issue 22): gateway workers, each on its own
 * port so a test can choose which one answers, and the scheduler app. Every multi-process test
 * starts its processes through these functions, so the command lines live in one place.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { databaseEnv, dropDatabaseFor } from "../support/database";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { killAll, run, sourceCli, spawnLong, startServer, waitFor, type Finished, type Running, type Spawned } from "../binary/processes";
import { T0 } from "../support/dates";
import type { NdcReply } from "../support/gateway";
import { assertSchemaValid } from "../support/xsd";

export interface MultiDataDir {
  dir: string;
  /** A worker on this directory (startWorker), stopped by close(). */
  startWorker(env?: Record<string, string>): Promise<Worker>;
  /** For afterAll: stops the workers started here, kills whatever else a failed test left running, removes the directory. */
  close(): Promise<void>;
  remove(): void;
}

/** A data directory for one test file's processes. */
export function multiDataDir(): MultiDataDir {
  const dir = mkdtempSync(join(tmpdir(), "ndc-multi-"));
  const workers: Worker[] = [];
  const remove = () => {
    rmSync(dir, { recursive: true, force: true });
    dropDatabaseFor(dir);
  };
  return {
    dir,
    async startWorker(env) {
      const w = await startWorker(dir, env);
      workers.push(w);
      return w;
    },
    async close() {
      await Promise.all(workers.map((w) => w.stop()));
      killAll();
      remove();
    },
    remove,
  };
}

/**
 * One business clock for every process of a data directory: business time was SANDBOX_CLOCK_START
 * (T0) at the real instant SANDBOX_CLOCK_STARTED_AT, the first time a process of `dir` started,
 * so a process started later (or restarted) agrees with the others to the millisecond.
 */
const anchors = new Map<string, number>();
export function clockEnv(dir: string): Record<string, string> {
  let at = anchors.get(dir);
  if (at === undefined) anchors.set(dir, (at = Date.now()));
  return { SANDBOX_CLOCK_START: new Date(T0).toISOString(), SANDBOX_CLOCK_STARTED_AT: new Date(at).toISOString() };
}

/** What every process of a test store shares: local mode, the sandbox seed, limits out of the way of a load. */
export function baseEnv(dir: string): Record<string, string> {
  return { ...clockEnv(dir), ...storeEnv(dir) };
}

/** baseEnv without the clock (test/crash/support.ts gives its own start to restarted gateways). */
export function storeEnv(dir: string): Record<string, string> {
  return {
    GATEWAY_DATA_DIR: dir,
    ...databaseEnv(dir),
    GATEWAY_MODE: "local",
    SUPPLY_SEED: "xb-sandbox-1",
    RATE_LIMIT_SHOP_PER_MINUTE: "1000000",
    RATE_LIMIT_DEFAULT_PER_MINUTE: "1000000",
    LOG_LEVEL: "warn",
  };
}

export interface Worker {
  run: Running;
  url: string;
  /** An NDC call with the sandbox API key; the answer is XSD-checked. */
  ndc(message: string, body: string): Promise<NdcReply>;
  /** The same without the XSD check (xmllint is synchronous: under load it would serialise the callers). */
  ndcUnchecked(message: string, body: string): Promise<NdcReply>;
  /** SIGKILL; resolves once the process is gone. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * One gateway process that runs no scheduled work (no in-process scheduler, no background pass,
 * no dispatch loop): what `serve --workers N` starts N of. PORT 0: its own free port.
 */
export async function startWorker(dir: string, env: Record<string, string> = {}): Promise<Worker> {
  const run = await startServer(sourceCli, ["worker"], {
    ...baseEnv(dir),
    PORT: "0",
    ORDERS_BACKGROUND_MS: "0",
    NOTIFY_DISPATCH_MS: "0",
    ...env,
  });
  return workerOf(run, dir);
}

export function workerOf(run: Running, dir: string): Worker {
  const { api_key } = JSON.parse(readFileSync(join(dir, "sandbox-credentials.json"), "utf8")) as { api_key: string };
  const call = async (message: string, body: string, check: boolean): Promise<NdcReply> => {
    const res = await fetch(`${run.url}/24.4/${message}`, {
      method: "POST",
      headers: { "content-type": "application/xml", "iata-message-name": `IATA_${message}`, "x-api-key": api_key },
      body,
    });
    const text = await res.text();
    if (check && res.headers.get("content-type")?.startsWith("application/xml")) assertSchemaValid(text);
    return { status: res.status, headers: res.headers, body: text };
  };
  return {
    run,
    url: run.url,
    ndc: (m, b) => call(m, b, true),
    ndcUnchecked: (m, b) => call(m, b, false),
    async kill() {
      run.proc.kill("SIGKILL");
      await run.proc.exited;
    },
    async stop() {
      if (run.proc.exitCode === null && run.proc.signalCode === null) await run.stop();
    },
  };
}

/**
 * `ndc-gateway web-shop ARGS...` as its own process on `dir`, on the workers' business clock:
 * the airline's web shop, a further process with its own actors on the same keys.
 */
export function webShop(dir: string, args: string[], timeoutMs = 60_000): Promise<Finished> {
  return run(sourceCli, ["web-shop", ...args], baseEnv(dir), timeoutMs);
}

/** Business time minus real time in a worker, as GET /sandbox/clock reads it (the midpoint of the call). */
export async function businessOffset(w: Worker, dir: string): Promise<number> {
  const { api_key } = JSON.parse(readFileSync(join(dir, "sandbox-credentials.json"), "utf8")) as { api_key: string };
  const before = Date.now();
  const r = await fetch(`${w.url}/sandbox/clock`, { headers: { "x-api-key": api_key } });
  if (r.status !== 200) throw new Error(`GET /sandbox/clock: ${r.status}`);
  const { now } = (await r.json()) as { now: string };
  return Date.parse(now) - (before + Date.now()) / 2;
}

export interface SchedulerApp extends Spawned {
  /** SIGKILL; resolves once the process is gone. */
  kill(): Promise<void>;
}

/** The scheduler app alone (`ndc-gateway scheduler`) on `dir`; resolves once it says it runs. */
export async function startSchedulerApp(dir: string, env: Record<string, string> = {}): Promise<SchedulerApp> {
  const child = spawnLong(sourceCli, ["scheduler"], { ...baseEnv(dir), ...env });
  await waitFor(child, "scheduler", () => (/^scheduler running/m.test(child.stdout()) ? true : undefined));
  return {
    ...child,
    async kill() {
      child.proc.kill("SIGKILL");
      await child.proc.exited;
    },
  };
}
