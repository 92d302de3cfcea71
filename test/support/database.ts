import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { join, resolve } from "node:path";
import { findPgBin } from "../../scripts/pg-throwaway.mjs";

/**
 * Which engine the gateways under test run on (issue 23, docs/testing.md "Both engines").
 * `NDC_TEST_ENGINE=postgres` with `NDC_TEST_PG_URL` (a throwaway cluster's URL: .ci/run starts one
 * with scripts/pg-throwaway.mjs) runs the same tests against PostgreSQL; anything else is the
 * embedded SQLite file, the default.
 */
export const TEST_ENGINE: "sqlite" | "postgres" = process.env.NDC_TEST_ENGINE === "postgres" ? "postgres" : "sqlite";
export const ON_POSTGRES = TEST_ENGINE === "postgres";

/** Why a test that reads or damages the SQLite file itself does not run on PostgreSQL. */
export const SQLITE_FILE_ONLY = "reads or damages the SQLite file itself (gateway.db); there is no file on PostgreSQL";

/** Why the several-machines tests (test/machines) run only on PostgreSQL. */
export const MACHINES_NEED_POSTGRES = "two hosts share only a database: needs PostgreSQL (NDC_TEST_ENGINE=postgres)";

function adminUrl(): string {
  const url = process.env.NDC_TEST_PG_URL;
  if (!url) throw new Error("NDC_TEST_ENGINE=postgres needs NDC_TEST_PG_URL (node scripts/pg-throwaway.mjs start --fast)");
  return url;
}

function psql(url: string, statement: string): { ok: boolean; stderr: string } {
  const bin = findPgBin();
  const r = spawnSync(bin ? join(bin, "psql") : "psql", ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", statement], { encoding: "utf8" });
  return { ok: r.status === 0, stderr: r.stderr ?? "" };
}

/**
 * The database of a data directory, named from its path, so that every process of one test
 * (workers, the scheduler app, the CLI, a fixture) that is given the same directory reaches the
 * same database without being told its name.
 */
function databaseName(dir: string): string {
  return `t_${createHash("sha256").update(resolve(dir)).digest("hex").slice(0, 24)}`;
}

const created = new Set<string>();

/**
 * The store URL a gateway on data directory `dir` uses: its SQLite file, or on PostgreSQL a
 * database of its own, created empty here (the gateway migrates it as it would a new file).
 */
export function databaseUrlFor(dir: string): string {
  if (!ON_POSTGRES) return `file:${join(dir, "gateway.db")}`;
  const name = databaseName(dir);
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  if (!created.has(name)) {
    const made = psql(adminUrl(), `CREATE DATABASE "${name}"`);
    // Another process of the same test made it first: the same database, which is the point.
    if (!made.ok && !/already exists/.test(made.stderr)) throw new Error(`CREATE DATABASE ${name}: ${made.stderr.trim()}`);
    created.add(name);
  }
  return url.toString();
}

/** The environment that points a gateway (in process or a child) at `dir`'s database. */
export function databaseEnv(dir: string): Record<string, string> {
  return ON_POSTGRES ? { GATEWAY_DATABASE_URL: databaseUrlFor(dir) } : {};
}

/** Drops `dir`'s PostgreSQL database once its test is done (the SQLite file goes with `dir`). */
export function dropDatabaseFor(dir: string): void {
  if (!ON_POSTGRES) return;
  const name = databaseName(dir);
  psql(adminUrl(), `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  created.delete(name);
}
