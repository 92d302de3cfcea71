/**
 * Several real processes on one data directory (issue 22): gateway workers, each on its own
 * port so a test can choose which one answers, and the scheduler app. Every multi-process test
 * starts its processes through these functions, so the command lines live in one place. On
 * PostgreSQL the same processes also stand for several machines (issue 23, test/machines): each
 * machine a data directory of its own on the first's database (anotherMachine).
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { databaseEnv, databaseUrlFor, dropDatabaseFor } from "../support/database";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { killAll, run, sourceCli, spawnLong, startServer, waitFor, type Cli, type Finished, type Running, type Spawned } from "../binary/processes";
import { T0 } from "../support/dates";
import type { NdcReply } from "../support/gateway";
import { assertSchemaValid } from "../support/xsd";

export interface MultiDataDir {
  dir: string;
  /** The environment of every process on this directory (baseEnv; a machine's adds what it shares: anotherMachine). */
  env(): Record<string, string>;
  /** A worker on this directory (startWorker), stopped by close(). */
  startWorker(env?: Record<string, string>): Promise<Worker>;
  /** The scheduler app on this directory (startSchedulerApp), stopped by close(). */
  startSchedulerApp(env?: Record<string, string>): Promise<SchedulerApp>;
  /** For afterAll: stops the workers started here, kills whatever else a failed test left running, removes the directory. */
  close(): Promise<void>;
  remove(): void;
}

/**
 * A data directory for one test file's processes; `databaseUrl`: on that database instead of the
 * directory's own (a PostgreSQL cluster the test runs itself; the test drops or stops it).
 */
export function multiDataDir(opts: { databaseUrl?: string } = {}): MultiDataDir {
  const { databaseUrl } = opts;
  if (!databaseUrl) return dataDirWith("ndc-multi-", baseEnv, () => undefined, true, sourceCli);
  return dataDirWith("ndc-multi-", (dir) => ({ ...localEnv(dir), ...clockEnv(dir), GATEWAY_DATABASE_URL: databaseUrl }), () => undefined, false, sourceCli);
}

function dataDirWith(prefix: string, envOf: (dir: string) => Record<string, string>, beforeStart: (dir: string) => void, ownsDatabase: boolean, cli: Cli): MultiDataDir {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const workers: { stop(): Promise<unknown> }[] = [];
  const remove = () => {
    rmSync(dir, { recursive: true, force: true });
    if (ownsDatabase) dropDatabaseFor(dir);
  };
  return {
    dir,
    env: () => envOf(dir),
    async startWorker(env = {}) {
      beforeStart(dir);
      const w = await startWorkerWith(cli, dir, envOf(dir), env);
      workers.push(w);
      return w;
    },
    async startSchedulerApp(env = {}) {
      beforeStart(dir);
      const app = await startSchedulerAppWith(cli, envOf(dir), env);
      workers.push(app);
      return app;
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
 * What a gateway on a second machine needs besides the database's URL (issue 23 item 4,
 * docs/operations.md "Several machines"), found by starting one without each:
 * - `field-key`: without it the machine makes its own, cannot open the token signing key sealed
 *   under the first machine's, and seals a new one: each machine then refuses the other's tokens;
 *   a scheduler app with another key cannot open the webhook secrets of subscriptions made on the
 *   first and delivers no notification (both seen: test/machines/two-hosts.test.ts fails so), nor
 *   could it open the identity documents the first sealed;
 * - `sandbox-credentials.json` (local mode only): without it the machine rotates the sandbox
 *   client's secret and API key, and the first machine's saved ones stop working;
 * - `airline-signing-key.pem` and `airline-signing-cert.pem`: made on first use outside
 *   production, so each machine would sign OrderViewRS under a key of its own, which the other's
 *   discovery document does not publish.
 */
export const MACHINE_FILES = ["field-key", "sandbox-credentials.json", "airline-signing-key.pem", "airline-signing-cert.pem"] as const;

/**
 * Another machine beside `first` (issue 23 item 4): a data directory of its own, sharing with
 * `first` only the database (first's URL as GATEWAY_DATABASE_URL), the business clock (as every
 * machine of a sandbox is given the same SANDBOX_CLOCK_START and SANDBOX_CLOCK_STARTED_AT) and the
 * MACHINE_FILES, copied from `first` before each start, as an operator copies them. `first` must
 * have made them: started once, and asked for its discovery document (the airline's signing key is
 * made on first use). Its processes run under `hostName` (onHost). Its remove() leaves the
 * database, which is `first`'s.
 */
export function anotherMachine(first: MultiDataDir, hostName: string): MultiDataDir {
  const env = (dir: string) => ({ ...localEnv(dir), ...clockEnv(first.dir), GATEWAY_DATABASE_URL: first.env().GATEWAY_DATABASE_URL ?? databaseUrlFor(first.dir) });
  const copyKeys = (dir: string) => {
    for (const f of MACHINE_FILES) {
      if (!existsSync(join(first.dir, f))) throw new Error(`${f} is not in the first machine's ${first.dir} yet: start it (and ask its discovery document) first`);
      if (!existsSync(join(dir, f))) copyFileSync(join(first.dir, f), join(dir, f));
    }
  };
  return dataDirWith("ndc-machine-", env, copyKeys, false, onHost(hostName, sourceCli));
}

/**
 * `cli` run under host name `name`, in a UTS namespace of its own (util-linux's unshare, as root):
 * a process judges another dead by its pid only when the other's liveness row names its own host
 * (decision 0040), so processes of two "machines" on this one host must not share its name, or a
 * machine's death would be seen at once instead of after HEARTBEAT_LAPSE_MS, as on real machines.
 * Elsewhere (not root) `cli` as it is, said once.
 */
function onHost(name: string, cli: Cli): Cli {
  if (canNameHosts === undefined) {
    canNameHosts = process.getuid?.() === 0 && spawnSync("unshare", ["--uts", "--", "true"]).status === 0;
    if (!canNameHosts) console.log("the test's machines share this host's name (no UTS namespace: needs root and unshare): a dead machine is known by its pid at once");
  }
  return canNameHosts ? ["unshare", "--uts", "--", "sh", "-c", 'hostname "$0" && exec "$@"', name, ...cli] : cli;
}
let canNameHosts: boolean | undefined;

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
  return { ...localEnv(dir), ...databaseEnv(dir) };
}

/** storeEnv without the database (a second machine names the first's). */
function localEnv(dir: string): Record<string, string> {
  return {
    GATEWAY_DATA_DIR: dir,
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
  return startWorkerWith(sourceCli, dir, baseEnv(dir), env);
}

async function startWorkerWith(cli: Cli, dir: string, base: Record<string, string>, env: Record<string, string>): Promise<Worker> {
  const run = await startServer(cli, ["worker"], {
    ...base,
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
  return startSchedulerAppWith(sourceCli, baseEnv(dir), env);
}

async function startSchedulerAppWith(cli: Cli, base: Record<string, string>, env: Record<string, string>): Promise<SchedulerApp> {
  const child = spawnLong(cli, ["scheduler"], { ...base, ...env });
  await waitFor(child, "scheduler", () => (/^scheduler running/m.test(child.stdout()) ? true : undefined));
  return {
    ...child,
    async kill() {
      child.proc.kill("SIGKILL");
      await child.proc.exited;
    },
  };
}
