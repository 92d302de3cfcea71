import type { Subprocess } from "bun";
import { join } from "node:path";
import { databaseEnv } from "../support/database";

export const ROOT = join(import.meta.dir, "../..");
const BUN = process.execPath;

/** Every process a test starts, so afterAll can kill what a failed test left running. */
const started = new Set<Subprocess>();

export function killAll(): void {
  for (const p of started) if (p.exitCode === null && p.signalCode === null) p.kill("SIGKILL");
  started.clear();
}

/** A command line running the CLI: the compiled binary, or the source through this Bun. */
export type Cli = string[];
export const sourceCli: Cli = [BUN, join(ROOT, "apps/cli/src/main.ts")];

/**
 * The environment a child gets: nothing of ours leaks in except PATH, HOME and a faked date
 * (libfaketime's LD_PRELOAD and FAKETIME* variables, the CI run two years ahead): a child on
 * the real date beside a test in the future would not be the system under that date.
 */
function childEnv(env: Record<string, string>): Record<string, string> {
  const faked = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => v !== undefined && (k === "LD_PRELOAD" || k.startsWith("FAKETIME"))));
  // On the PostgreSQL run (test/support/database.ts) a child given a data directory reaches that directory's database.
  const database = env.GATEWAY_DATA_DIR && !env.GATEWAY_DATABASE_URL ? databaseEnv(env.GATEWAY_DATA_DIR) : {};
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", LOG_LEVEL: "info", ...faked, ...database, ...env } as Record<string, string>;
}

export interface Finished {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a short command to completion (killed after `timeoutMs`). */
export async function run(cli: Cli, args: string[], env: Record<string, string>, timeoutMs = 15_000): Promise<Finished> {
  const proc = Bun.spawn([...cli, ...args], { cwd: ROOT, env: childEnv(env), stdout: "pipe", stderr: "pipe", timeout: timeoutMs });
  started.add(proc);
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  started.delete(proc);
  return { code, stdout, stderr };
}

/** A long-running child: its output collected as it comes, registered for killAll(). */
export interface Spawned {
  proc: Subprocess<"ignore", "pipe", "pipe">;
  stdout(): string;
  stderr(): string;
  /** SIGTERM, then the exit code (SIGKILL after 5 s). */
  stop(): Promise<number>;
}

export interface Running extends Spawned {
  /** The address from the "listening on" line. */
  url: string;
  /** Milliseconds from spawn to the first 200 of /health/ready. */
  readyMs: number;
}

async function collect(stream: ReadableStream<Uint8Array>, sink: { text: string }): Promise<void> {
  const decoder = new TextDecoder();
  for await (const chunk of stream) sink.text += decoder.decode(chunk, { stream: true });
}

/** Starts a long-running command (serve, worker, scheduler) and returns at once; see startServer and waitFor. */
export function spawnLong(cli: Cli, args: string[], env: Record<string, string>): Spawned {
  const proc = Bun.spawn([...cli, ...args], { cwd: ROOT, env: childEnv(env), stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  started.add(proc);
  const out = { text: "" };
  const err = { text: "" };
  void collect(proc.stdout, out);
  void collect(proc.stderr, err);
  return {
    proc,
    stdout: () => out.text,
    stderr: () => err.text,
    async stop() {
      proc.kill("SIGTERM");
      const timer = setTimeout(() => proc.kill("SIGKILL"), 5_000);
      const code = await proc.exited;
      clearTimeout(timer);
      started.delete(proc);
      return code;
    },
  };
}

/**
 * Polls `ready` every 25 ms until it gives a value; the child is killed, and the error shows its
 * output, if it exits first or 15 s pass.
 */
export async function waitFor<T>(child: Spawned, what: string, ready: () => Promise<T | undefined> | T | undefined): Promise<T> {
  const t0 = performance.now();
  const fail = (why: string) => {
    child.proc.kill("SIGKILL");
    return new Error(`${what} ${why}\nstdout:\n${child.stdout()}\nstderr:\n${child.stderr()}`);
  };
  for (;;) {
    if (performance.now() - t0 > 15_000) throw fail("did not become ready within 15 s");
    if (child.proc.exitCode !== null) throw fail(`exited with ${child.proc.exitCode}`);
    const value = await ready();
    if (value !== undefined) return value;
    await Bun.sleep(25);
  }
}

/** Starts `serve` (or any long-running command printing "listening on URL") and waits until it is ready. */
export async function startServer(
  cli: Cli,
  args: string[],
  env: Record<string, string>,
  opts: { fetchTls?: { ca?: string; rejectUnauthorized?: boolean } } = {},
): Promise<Running> {
  const t0 = performance.now();
  const child = spawnLong(cli, args, env);
  const url = await waitFor(child, "server", async () => {
    const url = child.stdout().match(/^listening on (https?:\/\/\S+)$/m)?.[1];
    if (!url) return undefined;
    const ok = await fetch(`${url}/health/ready`, { tls: opts.fetchTls } as RequestInit)
      .then((r) => r.status === 200)
      .catch(() => false);
    return ok ? url : undefined;
  });
  return { ...child, url, readyMs: Math.round(performance.now() - t0) };
}
