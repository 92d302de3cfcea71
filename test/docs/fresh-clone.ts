/**
 * A fresh clone of this checkout's HEAD in a temp dir, for tests that run what the README tells a
 * newcomer to paste. node_modules is borrowed from the checkout instead of `npm ci` (minutes):
 * packages are symlinked, while node_modules/@ndc, @ndc-gateway and .bin are copied, because their
 * relative symlinks must resolve to the clone's own workspace packages and binaries.
 */
import { spawn, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, utimesSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const CHECKOUT = join(import.meta.dir, "../..");

export function freshClone(): string {
  const dir = mkdtempSync(join(tmpdir(), "ndc-clone-"));
  const r = spawnSync("git", ["clone", "--quiet", CHECKOUT, join(dir, "repo")], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`git clone failed: ${r.stderr}`);
  const repo = join(dir, "repo");
  const from = join(CHECKOUT, "node_modules");
  const to = join(repo, "node_modules");
  mkdirSync(to);
  for (const entry of readdirSync(from)) {
    if (entry === "@ndc" || entry === "@ndc-gateway" || entry === ".bin" || entry === ".package-lock.json") cpSync(join(from, entry), join(to, entry), { recursive: true, verbatimSymlinks: true });
    else symlinkSync(join(from, entry), join(to, entry));
  }
  // scripts/run.mjs reinstalls when package-lock.json is newer than this marker; the clone's lock was just written.
  const now = new Date(Date.now() + 1000);
  utimesSync(join(to, ".package-lock.json"), now, now);
  return repo;
}

export function removeClone(repo: string): void {
  rmSync(join(repo, ".."), { recursive: true, force: true });
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command in its own process group (so whatever it leaves running, such as `npm start &`,
 * can be stopped with `stopGroup`), with a time limit.
 */
export function runInGroup(cmd: string, args: string[], o: { cwd: string; env: Record<string, string>; timeoutMs: number }): { pid: number; done: Promise<Ran> } {
  // What a newcomer's shell has: none of this machine's gateway settings (the README relies on the defaults, ./data).
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(GATEWAY_|PORT$|BIND_ADDRESS$|SUPPLY_)/.test(k)));
  const child = spawn(cmd, args, { cwd: o.cwd, env: { ...inherited, ...o.env }, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (c) => (stdout += c));
  child.stderr!.on("data", (c) => (stderr += c));
  const done = new Promise<Ran>((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), o.timeoutMs);
    // "exit", not "close": a background job still holds the pipes open after the shell is done.
    child.on("exit", (code) => {
      clearTimeout(timer);
      setTimeout(() => resolve({ code, stdout, stderr }), 50);
    });
  });
  return { pid: child.pid!, done };
}

export function stopGroup(pid: number): void {
  try {
    process.kill(-pid, "SIGTERM");
  } catch {
    // Already gone.
  }
}
