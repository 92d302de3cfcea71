/**
 * A throwaway PostgreSQL cluster per test file (scripts/pg-throwaway.mjs), watched by this test
 * process: stopped and removed in afterAll, and by the watchdog if the process dies first.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { join } from "node:path";
import { findPgBin } from "../../scripts/pg-throwaway.mjs";

const SCRIPT = join(import.meta.dir, "../../scripts/pg-throwaway.mjs");

export const pgBin = findPgBin();
if (!pgBin) console.log("PostgreSQL store tests skipped: no PostgreSQL binaries (apt-get install -y postgresql, or PG_BIN)");

export interface Cluster {
  url: string;
  dir: string;
}

/** `fast`: fsync off (the suites' cluster); leave it out where a test depends on PostgreSQL surviving its own crash. */
export function startCluster(o: { fast?: boolean } = {}): Cluster {
  const r = spawnSync(process.execPath, [SCRIPT, "start", "--watch", String(process.pid), ...(o.fast ? ["--fast"] : [])], { encoding: "utf8" });
  const url = /^GATEWAY_DATABASE_URL=(\S+)$/m.exec(r.stdout)?.[1];
  const dir = /^PG_THROWAWAY_DIR=(\S+)$/m.exec(r.stdout)?.[1];
  if (r.status !== 0 || !url || !dir) throw new Error(`pg-throwaway start failed: ${r.stderr}${r.stdout}`);
  return { url, dir };
}

export function stopCluster(c: Cluster | undefined): void {
  if (c) spawnSync(process.execPath, [SCRIPT, "stop", c.dir]);
}

/** `pg_ctl restart -m fast` of the cluster (as the user the script runs it as when we are root). */
export function restartCluster(c: Cluster): void {
  const [cmd, ...args] = restartCommand(c);
  execFileSync(cmd!, args, { cwd: c.dir, stdio: "ignore" });
}

/** The same, without blocking this process's event loop: a load it drives goes on meeting the restart. */
export async function restartClusterInBackground(c: Cluster): Promise<void> {
  const proc = Bun.spawn(restartCommand(c), { cwd: c.dir, stdout: "ignore", stderr: "pipe" });
  const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
  if (code !== 0) throw new Error(`pg_ctl restart failed (${code}): ${stderr}`);
}

function restartCommand(c: Cluster): string[] {
  const pgCtl = join(pgBin!, "pg_ctl");
  const args = ["-D", join(c.dir, "data"), "-m", "fast", "-w", "-t", "60", "restart"];
  const user = process.getuid?.() === 0 ? (process.env.PG_THROWAWAY_USER ?? (spawnSync("id", ["-u", "postgres"]).status === 0 ? "postgres" : "nobody")) : null;
  return user ? ["runuser", "-u", user, "--", pgCtl, ...args] : [pgCtl, ...args];
}
