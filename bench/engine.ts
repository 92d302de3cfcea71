/**
 * Which engine a bench's gateways run on (issue 23 item 6), and a fresh database for each of them.
 *
 * `GATEWAY_DATABASE_URL=postgres://...` (a cluster the bench may create databases in: a throwaway
 * one from scripts/pg-throwaway.mjs, without --fast for figures) runs every gateway a bench starts
 * on PostgreSQL, each in a database of its own made here and dropped at the end, as a new data
 * directory gets a new SQLite file; anything else is the embedded SQLite file, the default. Every
 * JSON line a bench prints carries `"engine"`, so two runs' lines cannot be mistaken for each other.
 */
import { readdirSync, readFileSync } from "node:fs";

const ADMIN_URL = process.env.GATEWAY_DATABASE_URL?.trim() ?? "";
export const ENGINE: "sqlite" | "postgres" = /^postgres(ql)?:\/\//.test(ADMIN_URL) ? "postgres" : "sqlite";

export interface BenchDatabase {
  /** The environment that points one gateway (in process or a child) at this database. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

let made = 0;

/**
 * A database for one gateway: on PostgreSQL an empty one created in the given cluster (the gateway
 * migrates it at start, as it does a new file); on SQLite nothing, the data directory's file is it.
 */
export async function freshDatabase(): Promise<BenchDatabase> {
  if (ENGINE === "sqlite") return { env: {}, drop: async () => {} };
  const name = `bench_${process.pid}_${Date.now().toString(36)}_${made++}`;
  await admin((sql) => sql.unsafe(`CREATE DATABASE "${name}"`));
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    env: { GATEWAY_DATABASE_URL: url.toString() },
    // FORCE: a serve killed a moment ago may still hold a connection.
    drop: () => admin((sql) => sql.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}

async function admin<T>(fn: (sql: InstanceType<typeof Bun.SQL>) => Promise<T>): Promise<T> {
  const sql = new Bun.SQL({ url: ADMIN_URL, max: 1 });
  try {
    return await fn(sql);
  } finally {
    await sql.close();
  }
}

/**
 * The PostgreSQL server's own CPU (ms, every process of the cluster: the backends serving the
 * gateways, the WAL writer, the checkpointer), read from /proc: what a booking costs the database
 * on top of the gateway's process. Undefined when the cluster is not on this machine (the
 * postmaster found as the parent of this connection's backend) or on SQLite.
 */
export async function databaseCpuMs(): Promise<number | undefined> {
  if (ENGINE === "sqlite") return undefined;
  postmaster ??= await admin(async (sql) => {
    const [row] = (await sql.unsafe("SELECT pg_backend_pid() AS pid")) as { pid: number }[];
    try {
      return statOf(Number(row!.pid))?.ppid ?? null;
    } catch {
      return null;
    }
  });
  if (postmaster === null) return undefined;
  let ticks = 0;
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const s = statOf(Number(name));
    if (s && (Number(name) === postmaster || s.ppid === postmaster)) ticks += s.ticks;
  }
  return ticks * 10;
}
let postmaster: number | null | undefined;

function statOf(pid: number): { ppid: number; ticks: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) };
  } catch {
    return undefined;
  }
}
