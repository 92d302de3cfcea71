/**
 * The throwaway PostgreSQL of scripts/pg-throwaway.mjs (issue 23 groundwork, decision 0041):
 * a real cluster started as an unprivileged user on a free port, reached through Bun's built-in
 * client and through drizzle-orm/bun-sql (the driver 0041 chooses), then stopped, by `stop` and
 * by its caller's exit, with nothing left running and no folder left behind.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/bun-sql";
import { integer, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { findPgBin } from "../../scripts/pg-throwaway.mjs";

const SCRIPT = join(import.meta.dir, "../../scripts/pg-throwaway.mjs");
const bin = findPgBin();
if (!bin) console.log("pg-throwaway: skipped, no PostgreSQL binaries (apt-get install -y postgresql, or PG_BIN)");
const left: string[] = [];

afterAll(() => {
  for (const dir of left) if (existsSync(dir)) Bun.spawnSync([process.execPath, SCRIPT, "stop", dir]);
}, 60_000);

/** `start` run by `sh -c`, so the cluster's caller is a shell that has exited when this returns (with `exitCaller`). */
async function startCluster(exitCaller: boolean): Promise<{ url: string; dir: string }> {
  const cmd = exitCaller ? ["sh", "-c", `"${process.execPath}" "${SCRIPT}" start`] : [process.execPath, SCRIPT, "start"];
  const proc = Bun.spawn(cmd, { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  expect({ code, err }).toEqual({ code: 0, err: "" });
  const url = /^GATEWAY_DATABASE_URL=(postgres:\/\/\S+)$/m.exec(out)?.[1];
  const dir = /^PG_THROWAWAY_DIR=(\S+)$/m.exec(out)?.[1];
  if (!url || !dir) throw new Error(`no URL or folder in: ${out}`);
  left.push(dir);
  return { url, dir };
}

function postmasterPid(dir: string): number {
  return Number(readFileSync(join(dir, "data/postmaster.pid"), "utf8").split("\n")[0]);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Processes whose command line names the cluster's folder (the postmaster's -D, the watchdog). */
function processesOf(dir: string): string[] {
  const ps = Bun.spawnSync(["ps", "-eo", "pid,args"]).stdout.toString();
  return ps.split("\n").filter((l) => l.includes(dir));
}

async function until(ok: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (ok()) return true;
    await Bun.sleep(100);
  }
  return ok();
}

const journal = pgTable(
  "actor_journal",
  { kind: text("kind").notNull(), key: text("key").notNull(), seq: integer("seq").notNull(), payload: jsonb("payload").notNull() },
  (t) => [primaryKey({ columns: [t.kind, t.key, t.seq] })],
);

describe.skipIf(!bin)("throwaway PostgreSQL", () => {
  test("starts, answers Bun.sql and drizzle-orm/bun-sql, and `stop` leaves nothing", async () => {
    const { url, dir } = await startCluster(false);
    const pid = postmasterPid(dir);
    expect(alive(pid)).toBe(true);

    const client = new Bun.SQL(url);
    const [row] = await client`SELECT current_user AS who, current_setting('fsync') AS fsync, current_setting('listen_addresses') AS listen`;
    expect(row).toEqual({ who: "gateway", fsync: "on", listen: "127.0.0.1" });

    const db = drizzle({ client });
    await db.execute(sql`CREATE TABLE actor_journal (kind text NOT NULL, key text NOT NULL, seq integer NOT NULL, payload jsonb NOT NULL, PRIMARY KEY (kind, key, seq))`);
    await db.insert(journal).values({ kind: "order", key: "ORD1", seq: 1, payload: { type: "created" } });
    // The journal's concurrency rule rests on the primary key refusing a second seq 1.
    const duplicate = await db.insert(journal).values({ kind: "order", key: "ORD1", seq: 1, payload: {} }).then(() => null, (e: unknown) => e);
    expect(String((duplicate as { cause?: { errno?: string } })?.cause?.errno ?? duplicate)).toContain("23505");
    expect(await db.select().from(journal)).toEqual([{ kind: "order", key: "ORD1", seq: 1, payload: { type: "created" } }]);
    await client.close();

    const stopped = Bun.spawnSync([process.execPath, SCRIPT, "stop", dir]);
    expect(stopped.exitCode).toBe(0);
    expect(existsSync(dir)).toBe(false);
    expect(await until(() => !alive(pid), 5_000)).toBe(true);
    expect(await until(() => processesOf(dir).length === 0, 5_000)).toBe(true);
  }, 60_000);

  test("stops by itself when its caller exits", async () => {
    const { url, dir } = await startCluster(true);
    const pid = postmasterPid(dir);
    expect(alive(pid)).toBe(true);
    // The shell that ran `start` is gone: the watchdog stops the cluster and removes the folder.
    expect(await until(() => !existsSync(dir) && !alive(pid), 15_000)).toBe(true);
    expect(await until(() => processesOf(dir).length === 0, 5_000)).toBe(true);
    const refused = await new Bun.SQL(url, { connectionTimeout: 2 })`SELECT 1`.then(() => null, (e: unknown) => e);
    expect(refused).toBeInstanceOf(Error);
  }, 60_000);

  test("`start --watch PID` stops it when that process exits", async () => {
    const holder = Bun.spawn(["sleep", "60"]);
    const proc = Bun.spawn([process.execPath, SCRIPT, "start", "--watch", String(holder.pid)], { stdout: "pipe", stderr: "pipe" });
    const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    expect(code).toBe(0);
    const dir = /^PG_THROWAWAY_DIR=(\S+)$/m.exec(out)![1]!;
    left.push(dir);
    const pid = postmasterPid(dir);
    // The caller (this test) lives on; the watched process is what ends the cluster.
    await Bun.sleep(1_500);
    expect(existsSync(dir) && alive(pid)).toBe(true);
    holder.kill();
    expect(await until(() => !existsSync(dir) && !alive(pid), 15_000)).toBe(true);
  }, 60_000);

  test("`run -- CMD` gives CMD the URL, answers CMD's exit code and removes the cluster", async () => {
    // What .ci/run would do around a suite: the command sees a live server, then nothing is left.
    const cmd = `"${process.execPath}" -e 'const [r] = await new Bun.SQL(process.env.GATEWAY_DATABASE_URL)\`SELECT 6 * 7 AS n\`; console.log("n=" + r.n, "dir=" + process.env.PG_THROWAWAY_DIR); process.exit(3)'`;
    const proc = Bun.spawn([process.execPath, SCRIPT, "run", "--", "sh", "-c", cmd], { stdout: "pipe", stderr: "pipe" });
    const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    expect(out).toContain("n=42");
    expect(code).toBe(3);
    const dir = /dir=(\S+)/.exec(out)![1]!;
    left.push(dir);
    expect(existsSync(dir)).toBe(false);
    expect(await until(() => processesOf(dir).length === 0, 5_000)).toBe(true);
  }, 60_000);
});
