import { copyToPostgres, CopyRefused, driverFor, filePath, isMemory, migrate, openStore, redact, type Store, type TableCopy } from "@ndc/store";
import { liveInstances } from "@ndc/orders";
import { loadRuntime } from "../config";
import { UsageError, type CliIo } from "../io";
import { schemaLine } from "./schema-line";

/**
 * `migrate --to postgres://...`: an airline that started on the embedded SQLite file moves to
 * PostgreSQL once (issue 23 item 5, docs/operations.md "Moving from SQLite to PostgreSQL").
 * Migrates the source (GATEWAY_DATABASE_URL, the data directory's gateway.db) and the target to
 * the latest version; refuses while a gateway process runs on the source (no --force: a copy
 * taken under a live gateway misses its later writes) and a target holding any row; copies and
 * verifies every table in one PostgreSQL transaction (@ndc/store's copyToPostgres). Prints one
 * line per table and a summary; exit 1 on a refusal or a mismatch (the target then rolled back).
 */
export async function migrateToCommand(target: string, io: CliIo): Promise<number> {
  if (!/^postgres(ql)?:\/\//i.test(target)) throw new UsageError(`migrate --to takes a PostgreSQL URL (postgres://user@host/db), not ${redact(target)}`);
  const { config } = loadRuntime(io);
  const sourceUrl = config.databaseUrl;
  if (driverFor(sourceUrl) === "postgres") return refuse(io, `the configured database is already PostgreSQL (${redact(sourceUrl)}): migrate --to moves a SQLite file`);
  if (!sourceUrl.startsWith("file:") || isMemory(filePath(sourceUrl))) return refuse(io, `migrate --to copies a SQLite file; GATEWAY_DATABASE_URL is ${redact(sourceUrl)}`);

  const source = await openStore(sourceUrl);
  try {
    const applied = await migrate(source);
    io.out(`source ${redact(sourceUrl)}: ${await schemaLine(source, applied.length)}`);
    const live = await liveInstances(source);
    if (live.length) {
      const names = live.map((p) => `pid ${p.pid} on ${p.host} (heartbeat ${Math.round((Date.now() - p.heartbeatAt) / 1000)} s ago)`).join(", ");
      return refuse(io, `a gateway process is running on the source: ${names}; stop every gateway, scheduler and worker on it first`);
    }
  } finally {
    await source.close();
  }

  const pg: Store = await openStore(target);
  try {
    const applied = await migrate(pg);
    io.out(`target ${redact(target)}: ${await schemaLine(pg, applied.length)}`);
  } finally {
    await pg.close();
  }

  try {
    const result = await copyToPostgres({ sourcePath: filePath(sourceUrl), targetUrl: target, onTable: (t) => io.out(tableLine(t)) });
    const rows = result.tables.reduce((n, t) => n + t.source.rows, 0);
    const bad = result.tables.filter((t) => !t.same);
    if (!result.committed) {
      io.err(`ndc-gateway: migrate --to: ${bad.length} table(s) differ after the copy (${bad.map((t) => t.table).join(", ")}): rolled back, ${redact(target)} is as it was`);
      return 1;
    }
    io.out(`copied ${rows} row(s) in ${result.tables.length} tables to ${redact(target)}; every table verified (row count and sha256 of its rows by primary key); committed`);
    io.out(`next: stop using ${redact(sourceUrl)}; set GATEWAY_DATABASE_URL=${redact(target)} and keep the same field key and airline signing key files (and the staff audit anchor), then start the gateway`);
    return 0;
  } catch (e) {
    if (e instanceof CopyRefused) return refuse(io, e.message);
    throw e;
  }
}

function refuse(io: CliIo, why: string): number {
  io.err(`ndc-gateway: migrate --to refused: ${why}`);
  return 1;
}

/** One table: its rows and digest on both sides; the digest's first 16 hex digits are enough to read. */
function tableLine(t: TableCopy): string {
  const side = (s: { rows: number; sha256: string }) => `${s.rows} row(s) sha256 ${s.sha256.slice(0, 16)}`;
  return t.same ? `ok       ${t.table}: ${side(t.source)}` : `MISMATCH ${t.table}: source ${side(t.source)}, target ${side(t.target)}`;
}
