#!/usr/bin/env node
/**
 * A throwaway PostgreSQL cluster for tests, benchmarks and CI (issue 23, decision 0041):
 * initdb in a fresh temporary folder, started on a free loopback port with its unix socket in
 * that folder, trust authentication (it listens on 127.0.0.1 only and lives for one run).
 *
 *   node scripts/pg-throwaway.mjs start [--watch PID] [--fast]
 *                                           prints GATEWAY_DATABASE_URL=postgres://... and
 *                                           PG_THROWAWAY_DIR=/tmp/pg-throwaway-...; the cluster
 *                                           is stopped and removed when the caller (this
 *                                           command's parent process, or PID: in a shell script
 *                                           `eval "$(node scripts/pg-throwaway.mjs start --watch $$)"`)
 *                                           exits, or on `stop`
 *   node scripts/pg-throwaway.mjs stop DIR  stops it now and removes DIR
 *   node scripts/pg-throwaway.mjs run [--fast] -- CMD ARGS...
 *                                           start, run CMD with GATEWAY_DATABASE_URL set, stop
 *                                           and remove whatever CMD did; exits with CMD's code
 *
 * PostgreSQL refuses to run as root: as root the server runs as the `postgres` user if there is
 * one, else `nobody` (PG_THROWAWAY_USER overrides), through runuser. Binaries come from
 * PG_BIN, else the newest /usr/lib/postgresql/N/bin (Debian's package `postgresql`), else PATH.
 * Durability is PostgreSQL's default (fsync on, synchronous_commit on): the benchmarks measure
 * real commits.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const DB = "gateway";
const ROLE = "gateway";

/** The folder holding initdb, pg_ctl and postgres, or null when none is installed. */
export function findPgBin() {
  if (process.env.PG_BIN) return existsSync(join(process.env.PG_BIN, "initdb")) ? process.env.PG_BIN : null;
  const debian = "/usr/lib/postgresql";
  if (existsSync(debian)) {
    const versions = readdirSync(debian).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
    for (const v of versions) if (existsSync(join(debian, v, "bin/initdb"))) return join(debian, v, "bin");
  }
  const found = spawnSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" });
  const path = found.status === 0 ? found.stdout.trim() : "";
  return path ? path.slice(0, path.lastIndexOf("/")) : null;
}

/** As root: the unprivileged user the server runs as (uid, gid, name); otherwise null. */
function serverUser() {
  if (process.getuid?.() !== 0) return null;
  const name = process.env.PG_THROWAWAY_USER ?? (spawnSync("id", ["-u", "postgres"]).status === 0 ? "postgres" : "nobody");
  const id = (flag) => Number(execFileSync("id", [flag, name], { encoding: "utf8" }).trim());
  return { name, uid: id("-u"), gid: id("-g") };
}

/** Runs one of the cluster's binaries as the server's user. */
function asServer(user, bin, args, options = {}) {
  const argv = user ? ["runuser", ["-u", user.name, "--", bin, ...args]] : [bin, args];
  const r = spawnSync(argv[0], argv[1], { encoding: "utf8", ...options });
  if (r.status !== 0) throw new Error(`${bin} ${args.join(" ")} failed (${r.status}): ${r.stderr || r.stdout}`);
  return r.stdout;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Starts a cluster; returns its folder, port and URL. `fast` (the test suites' cluster, `--fast`)
 * turns off fsync and full-page writes and lets COMMIT answer before its WAL flush: nothing the
 * suites test depends on surviving a crash of PostgreSQL itself (a fast shutdown or restart still
 * writes everything out), and the suites then spend their time in the gateway, not in fsync.
 * Benchmarks and the restart-under-load test use the durable default.
 */
export async function start({ fast = false } = {}) {
  const bin = findPgBin();
  if (!bin) throw new Error("no PostgreSQL binaries (initdb): apt-get install -y postgresql, or set PG_BIN");
  const user = serverUser();
  const dir = mkdtempSync(join(tmpdir(), "pg-throwaway-"));
  if (user) chownSync(dir, user.uid, user.gid);
  const data = join(dir, "data");
  asServer(user, join(bin, "initdb"), ["-D", data, "-U", ROLE, "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"]);
  // A port taken between freePort and the server's bind fails pg_ctl -w: try a few.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const durability = fast ? " -c fsync=off -c full_page_writes=off -c synchronous_commit=off" : "";
    // Each gateway under test holds a pool (GATEWAY_DATABASE_POOL) and multi-process tests run several.
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=400${durability}`;
    try {
      asServer(user, join(bin, "pg_ctl"), ["-D", data, "-l", join(dir, "server.log"), "-o", options, "-w", "-t", "60", "start"], { cwd: dir });
    } catch (e) {
      if (attempt < 3) continue;
      rmSync(dir, { recursive: true, force: true });
      throw e;
    }
    asServer(user, join(bin, "createdb"), ["-h", dir, "-p", String(port), "-U", ROLE, DB]);
    return { dir, port, url: `postgres://${ROLE}@127.0.0.1:${port}/${DB}` };
  }
}

/** Stops the cluster in `dir` (fast shutdown: clients disconnected) and removes the folder. */
export function stop(dir) {
  const data = join(dir, "data");
  const bin = findPgBin();
  if (bin && existsSync(join(data, "postmaster.pid"))) {
    try {
      asServer(serverUser(), join(bin, "pg_ctl"), ["-D", data, "-m", "fast", "-w", "-t", "30", "stop"], { cwd: dir });
    } catch {
      asServer(serverUser(), join(bin, "pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"], { cwd: dir });
    }
  }
  rmSync(dir, { recursive: true, force: true });
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === "EPERM";
  }
}

/** A detached watchdog: stops the cluster once `parent` has exited (whatever way it ended). */
function watch(dir, parent) {
  const child = spawn(process.execPath, [new URL(import.meta.url).pathname, "watch", dir, String(parent)], { detached: true, stdio: "ignore" });
  child.unref();
}

async function main(argv) {
  const [command, ...rest] = argv;
  if (command === "start") {
    const fast = rest.includes("--fast");
    const w = rest.indexOf("--watch");
    const watched = w >= 0 ? Number(rest[w + 1]) : process.ppid;
    if (!Number.isInteger(watched) || watched <= 1) throw new Error(`--watch needs a process id, not ${rest[w + 1]}`);
    const { dir, url } = await start({ fast });
    watch(dir, watched);
    console.log(`GATEWAY_DATABASE_URL=${url}`);
    console.log(`PG_THROWAWAY_DIR=${dir}`);
  } else if (command === "stop" && rest[0]) {
    stop(rest[0]);
  } else if (command === "watch") {
    const [dir, parent] = [rest[0], Number(rest[1])];
    const timer = setInterval(() => {
      if (!existsSync(dir)) clearInterval(timer);
      else if (!alive(parent)) {
        clearInterval(timer);
        stop(dir);
      }
    }, 500);
  } else if (command === "run" && (rest[0] === "--" || (rest[0] === "--fast" && rest[1] === "--"))) {
    const fast = rest[0] === "--fast";
    const cmd = rest.slice(fast ? 2 : 1);
    if (!cmd[0]) throw new Error("run needs a command after --");
    const { dir, url } = await start({ fast });
    watch(dir, process.pid);
    const child = spawnSync(cmd[0], cmd.slice(1), { stdio: "inherit", env: { ...process.env, GATEWAY_DATABASE_URL: url, PG_THROWAWAY_DIR: dir } });
    stop(dir);
    process.exit(child.status ?? 1);
  } else {
    console.error("usage: pg-throwaway.mjs start [--watch PID] [--fast] | stop DIR | run [--fast] -- CMD ARGS...");
    process.exit(2);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
