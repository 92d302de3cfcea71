import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { run, sourceCli, startServer, type Running } from "../binary/processes";
import { baseEnv, multiDataDir } from "./support";

/**
 * `ndc-gateway serve --workers N` (issue 22 item 3): a supervisor of N gateway workers on one
 * port and the scheduler app, each its own process on one data directory.
 */
const data = multiDataDir();
afterAll(() => data.close());

/** The command a pid runs (its /proc cmdline), "" once it is gone. */
function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
  } catch {
    return "";
  }
}

/** A new connection every time (no pooled keep-alive): the kernel picks the worker per connection. */
async function ready(url: string): Promise<number> {
  const r = await fetch(`${url}/health/ready`, { headers: { connection: "close" }, keepalive: false });
  const body = (await r.json()) as { status: string; worker?: { pid: number } };
  expect(body.status).toBe("ready");
  return body.worker!.pid;
}

/** Business time minus real time as one answer reads it (the midpoint of the request). */
async function businessOffset(url: string, apiKey: string): Promise<number> {
  const before = Date.now();
  const r = await fetch(`${url}/sandbox/clock`, { headers: { "x-api-key": apiKey, connection: "close" }, keepalive: false });
  expect(r.status).toBe(200);
  const { now } = (await r.json()) as { now: string };
  return Date.parse(now) - (before + Date.now()) / 2;
}

/** serve's process line, once its output has reached us (it follows "listening on" in a later write). */
async function started(gw: Running): Promise<ReturnType<typeof pidsOf>> {
  const t0 = performance.now();
  while (!/^serve \(pid /m.test(gw.stdout()) && performance.now() - t0 < 10_000) await Bun.sleep(10);
  return pidsOf(gw.stdout());
}

function pidsOf(stdout: string): { serve: number; workers: number[]; scheduler: number } {
  const m = stdout.match(/^serve \(pid (\d+)\): (\d+) gateway workers? \(pid ([\d, ]+)\) on one port, the scheduler app \(pid (\d+)\)$/m);
  if (!m) throw new Error(`no process line in:\n${stdout}`);
  return { serve: Number(m[1]), workers: m[3]!.split(", ").map(Number), scheduler: Number(m[4]) };
}

describe("serve --workers 2", () => {
  let gw: Running;
  let pids: ReturnType<typeof pidsOf>;

  test("starts two workers and the scheduler app, three processes of its own", async () => {
    gw = await startServer(sourceCli, ["serve", "--workers", "2"], { ...baseEnv(data.dir), PORT: "0" });
    pids = await started(gw);
    expect(pids.serve).toBe(gw.proc.pid);
    expect(pids.workers).toHaveLength(2);
    expect(new Set([...pids.workers, pids.scheduler, pids.serve]).size).toBe(4);
    for (const pid of pids.workers) expect(commandOf(pid)).toEndWith(" worker");
    expect(commandOf(pids.scheduler)).toEndWith(" scheduler");
    // One banner: the address once, the sandbox secrets once (the workers found them provisioned).
    expect(gw.stdout().match(/^listening on /gm)).toHaveLength(1);
    expect(gw.stdout().split("\n")[0]).toBe(`listening on ${gw.url}`);
    const { client_secret } = JSON.parse(readFileSync(join(data.dir, "sandbox-credentials.json"), "utf8")) as { client_secret: string };
    expect(gw.stdout().split(client_secret)).toHaveLength(2);
  }, 60_000);

  test("both workers answer on the one port, over fresh connections", async () => {
    // serve says "listening on" once the first worker listens; the second may still be booting.
    const seen = new Set<number>();
    const t0 = performance.now();
    while (seen.size < 2 && performance.now() - t0 < 30_000) {
      seen.add(await ready(gw.url));
      await Bun.sleep(5);
    }
    expect([...seen].sort()).toEqual([...pids.workers].sort());
  }, 60_000);

  test("a worker killed with SIGKILL is restarted while the port keeps answering, on the same business clock", async () => {
    const [victim, survivor] = pids.workers as [number, number];
    const { api_key } = JSON.parse(readFileSync(join(data.dir, "sandbox-credentials.json"), "utf8")) as { api_key: string };
    process.kill(victim, "SIGKILL");
    // Once serve has reaped it, its socket is closed: a connection the kernel had queued on it in
    // the instant of the kill is reset (SIGKILL takes what it holds), no later one goes there.
    while (!(gw.stdout() + gw.stderr()).includes(`"event":"child_exited","role":"worker","pid":${victim}`)) await Bun.sleep(10);
    // Until the new worker answers, every request is answered (by the survivor).
    const answeredBy = new Set<number>();
    let failures = 0;
    let requests = 0;
    const t0 = performance.now();
    while (answeredBy.size < 2 && performance.now() - t0 < 30_000) {
      requests++;
      const pid = await ready(gw.url).catch(() => (failures++, null));
      if (pid !== null) answeredBy.add(pid);
      await Bun.sleep(10);
    }
    expect(failures).toBe(0);
    expect(answeredBy.has(survivor)).toBe(true);
    const restarted = [...answeredBy].find((p) => p !== survivor)!;
    expect(restarted).not.toBe(victim);
    expect(commandOf(restarted)).toEndWith(" worker");
    expect(requests).toBeGreaterThan(2);
    // The restarted worker booted seconds after the first ones, yet reads the same business time:
    // serve anchored SANDBOX_CLOCK_START for all its children (SANDBOX_CLOCK_STARTED_AT).
    const offsets: number[] = [];
    for (let i = 0; i < 30; i++) offsets.push(await businessOffset(gw.url, api_key));
    expect(Math.max(...offsets) - Math.min(...offsets)).toBeLessThan(500);
  }, 60_000);

  test("SIGTERM stops every child, then serve exits 0", async () => {
    const children = [...pidsOf(gw.stdout()).workers, pids.scheduler];
    const live = (await Promise.all(Array.from({ length: 40 }, () => ready(gw.url)))).filter((p) => !children.includes(p));
    children.push(...live);
    expect(await gw.stop()).toBe(0);
    for (const pid of children) expect(commandOf(pid)).toBe("");
  }, 60_000);
});

describe("serve restarts a child that dies", () => {
  test("a worker that keeps dying young waits longer each time (250, 500, 1000 ms); the scheduler app is restarted too", async () => {
    const gw = await startServer(sourceCli, ["serve", "--workers", "1"], { ...baseEnv(data.dir), PORT: "0", LOG_LEVEL: "info" });
    const events = (name: string) =>
      gw.stdout().split("\n").filter((l) => l.includes(`"event":"${name}"`)).map((l) => JSON.parse(l) as { role: string; pid: number; restartInMs?: number });
    try {
      for (let i = 1; i <= 3; i++) {
        const pid = await ready(gw.url);
        process.kill(pid, "SIGKILL");
        // Each one lived far less than 10 s: a crash loop, so the next waits twice as long.
        while (events("child_restarted").filter((e) => e.role === "worker").length < i) await Bun.sleep(10);
        while ((await ready(gw.url).catch(() => pid)) === pid) await Bun.sleep(10);
      }
      expect(events("child_exited").map((e) => [e.role, e.restartInMs])).toEqual([["worker", 250], ["worker", 500], ["worker", 1000]]);
      const { scheduler } = await started(gw);
      process.kill(scheduler, "SIGKILL");
      while (!events("child_restarted").some((e) => e.role === "scheduler")) await Bun.sleep(10);
      const again = events("child_restarted").find((e) => e.role === "scheduler")!.pid;
      expect(again).not.toBe(scheduler);
      expect(commandOf(again)).toEndWith(" scheduler");
    } finally {
      expect(await gw.stop()).toBe(0);
    }
  }, 90_000);
});

describe("serve's children never outlive it", () => {
  test("serve killed with SIGKILL: its workers and scheduler app go too", async () => {
    const gw = await startServer(sourceCli, ["serve", "--workers", "1"], { ...baseEnv(data.dir), PORT: "0" });
    const { workers, scheduler } = await started(gw);
    gw.proc.kill("SIGKILL");
    await gw.proc.exited;
    const t0 = performance.now();
    while ([...workers, scheduler].some((p) => commandOf(p) !== "") && performance.now() - t0 < 10_000) await Bun.sleep(25);
    for (const pid of [...workers, scheduler]) expect(`${pid}: ${commandOf(pid)}`).toBe(`${pid}: `);
  }, 60_000);
});

describe("serve's start", () => {
  test("a port another program holds: the workers cannot bind it, serve stops and exits 1 saying so", async () => {
    const other = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("another program") });
    try {
      const r = await run(sourceCli, ["serve", "--workers", "2"], { ...baseEnv(data.dir), PORT: String(other.port) }, 30_000);
      expect(r.code).toBe(1);
      expect(r.stdout).not.toContain("listening on");
      expect(r.stderr).toContain(`Is port ${other.port} in use?`);
      expect(r.stderr).toMatch(/serve failed: the worker \(pid \d+\) exited with code 1 before any worker was ready/);
    } finally {
      await other.stop(true);
    }
  }, 40_000);
});

describe("serve's command line", () => {
  const env = () => ({ ...baseEnv(data.dir), PORT: "0" });
  test("--no-scheduler is refused, naming the worker command", async () => {
    const r = await run(sourceCli, ["serve", "--no-scheduler"], env());
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--no-scheduler is gone");
    expect(r.stderr).toContain("ndc-gateway worker");
  });

  test("--workers 0, garbage or nothing is refused; GATEWAY_WORKERS=0 is a configuration error", async () => {
    for (const args of [["--workers", "0"], ["--workers", "two"], ["--workers=-1"], ["--workers"], ["--frobnicate"]]) {
      const r = await run(sourceCli, ["serve", ...args], env());
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain(args[0] === "--frobnicate" ? "serve: unknown option --frobnicate" : "serve: --workers needs a whole number of at least 1");
    }
    const zero = await run(sourceCli, ["serve"], { ...env(), GATEWAY_WORKERS: "0" });
    expect(zero.code).toBe(1);
    expect(zero.stderr).toBe("ndc-gateway: configuration error: GATEWAY_WORKERS must be at least 1, got 0\n");
  }, 30_000);
});
