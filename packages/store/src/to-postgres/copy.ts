import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrate } from "../migrate";
import { openStore } from "../open";
import { WRITE_LOCK_KEY } from "../drivers/postgres";
import { redact } from "../url";
import { quoteName, sourceTables, type SourceTable } from "./catalogue";
import { RowDigest } from "./digest";

/** What one table's copy came to: both sides' row counts and digests, read back. */
export interface TableCopy {
  table: string;
  source: { rows: number; sha256: string };
  target: { rows: number; sha256: string };
  same: boolean;
}

/** A reason not to start: the target holds data, the versions differ. Nothing was written. */
export class CopyRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CopyRefused";
  }
}

export interface CopyOptions {
  /** The source SQLite file, migrated to the latest version, no gateway process on it. */
  sourcePath: string;
  /** The target PostgreSQL, migrated to the same version. */
  targetUrl: string;
  /** Rows per INSERT (bounded by PostgreSQL's 65,535 parameters per statement). */
  batchRows?: number;
  /** Called once per table as it is verified, in copy order. */
  onTable?: (t: TableCopy) => void;
}

export interface CopyResult {
  tables: TableCopy[];
  /** True when every table matched and the transaction committed; false: rolled back, the target as it was. */
  committed: boolean;
}

const PARAMETERS_PER_STATEMENT = 65_535;
const FETCH_ROWS = 1_000;

/** The slice of Bun.SQL this file uses (a transaction's connection). */
interface Tx {
  unsafe(sql: string, params?: unknown[]): Promise<unknown> & { values(): Promise<unknown[][]> };
}

/**
 * Copies every table of a SQLite database into an empty PostgreSQL one of the same schema
 * version, in ONE PostgreSQL transaction, then reads every table back from both and compares
 * row counts and digests (ordered by primary key); commits only if all match (issue 23 item 5,
 * decision 0041). Values keep their meaning: SQLite's integers are read as BigInt (never through
 * a double) into bigint, BLOBs into bytea, text as it is; sealed identity fields are bytes like
 * any others (no key is needed, nothing of a row is ever printed).
 *
 * The target's user triggers are disabled for the copy (`ALTER TABLE ... DISABLE TRIGGER USER`,
 * enabled again before COMMIT, both inside the transaction so a rollback restores them): copied
 * rows are history, not new writes, so the append-only refusals, the registry_version bumps and
 * the order views' staleness marks must not fire, and the rowid triggers have nothing to number.
 * Why not `SET LOCAL session_replication_role = replica`: it needs a superuser, and the gateway's
 * role owns its tables (what ALTER TABLE needs) without being one. The ALTERs also lock each
 * table exclusively until COMMIT, and the store's write lock is held: no gateway can write the
 * target meanwhile. Foreign keys stay checked (they are not user triggers): tables are copied
 * after the tables they reference.
 */
export async function copyToPostgres(opts: CopyOptions): Promise<CopyResult> {
  const source = new Database(opts.sourcePath, { readonly: true, safeIntegers: true });
  const seedDir = mkdtempSync(join(tmpdir(), "ndc-migrate-to-"));
  let seed: Database | undefined;
  const pg = new Bun.SQL({ url: opts.targetUrl, bigint: true, max: 1 });
  try {
    seed = await freshlyMigrated(join(seedDir, "seed.db"));
    const tables = sourceTables(source);
    await sameVersions(source, pg as unknown as Tx, opts.targetUrl);
    const tablesDone: TableCopy[] = [];
    let mismatch = false;
    try {
      await pg.begin(async (t) => {
        const tx = t as unknown as Tx;
        await tx.unsafe(`SELECT pg_advisory_xact_lock(${WRITE_LOCK_KEY})`);
        await refuseUnlessEmpty(tx, tables, seed!);
        for (const table of tables) await tx.unsafe(`ALTER TABLE ${quoteName(table.name)} DISABLE TRIGGER USER`);
        // What the migrations seeded goes (the source has its own rows for it), dependants first.
        for (const table of [...tables].reverse()) await tx.unsafe(`DELETE FROM ${quoteName(table.name)}`);
        const copied = new Map<string, RowDigest>();
        for (const table of tables) copied.set(table.name, await copyTable(tx, source, table, opts.batchRows ?? 500));
        for (const table of tables) await tx.unsafe(`ALTER TABLE ${quoteName(table.name)} ENABLE TRIGGER USER`);
        for (const table of tables) {
          const from = copied.get(table.name)!;
          const back = await targetDigest(tx, table);
          const sourceSide = { rows: from.rows, sha256: from.hex() };
          const targetSide = { rows: back.rows, sha256: back.hex() };
          const result = { table: table.name, source: sourceSide, target: targetSide, same: sourceSide.rows === targetSide.rows && sourceSide.sha256 === targetSide.sha256 };
          if (!result.same) mismatch = true;
          tablesDone.push(result);
          opts.onTable?.(result);
        }
        // Thrown so that Bun.SQL rolls the transaction back: the target stays as it was.
        if (mismatch) throw MISMATCH;
      });
    } catch (e) {
      if (e !== MISMATCH) throw e;
    }
    return { tables: tablesDone, committed: !mismatch };
  } finally {
    source.close();
    seed?.close();
    rmSync(seedDir, { recursive: true, force: true });
    await pg.close();
  }
}

const MISMATCH = Symbol("mismatch");

/**
 * A SQLite database just migrated: what "empty" means for the target, since migrations seed
 * rows (registry_version's first one). SQLite's, as the PostgreSQL baseline is printed from it
 * with its seeded rows and test/store/pg-catalogue.test.ts holds the two equal.
 */
async function freshlyMigrated(path: string): Promise<Database> {
  const store = await openStore(`file:${path}`, { driver: "bun-sqlite" });
  try {
    await migrate(store);
  } finally {
    await store.close();
  }
  return new Database(path, { readonly: true, safeIntegers: true });
}

/** Both databases must be at the same schema version (both were just migrated by this binary). */
async function sameVersions(source: Database, pg: Tx, targetUrl: string): Promise<void> {
  const mine = (source.query("SELECT version FROM schema_migrations ORDER BY version").all() as { version: string }[]).map((r) => r.version);
  const theirs = ((await pg.unsafe("SELECT version FROM schema_migrations ORDER BY version")) as { version: string }[]).map((r) => r.version);
  if (mine.join() !== theirs.join()) {
    throw new CopyRefused(`the source is at schema ${mine.at(-1) ?? "none"} (${mine.length} migrations), the target ${redact(targetUrl)} at ${theirs.at(-1) ?? "none"} (${theirs.length}): both must be at the same version`);
  }
}

/** The target holds nothing but what its migrations seeded, table by table (read under the lock). */
async function refuseUnlessEmpty(tx: Tx, tables: SourceTable[], seed: Database): Promise<void> {
  for (const table of tables) {
    const fresh = sourceDigest(seed, table);
    const held = await targetDigest(tx, table);
    if (held.hex() !== fresh.hex()) {
      throw new CopyRefused(`the target already holds rows in ${table.name} (${held.rows} row(s)): migrate --to fills an empty database only (a freshly created one, migrated or not)`);
    }
  }
}

function selectAll(table: SourceTable): string {
  // NULLS FIRST on both engines: SQLite sorts NULL first by default, PostgreSQL last.
  const order = table.key.map((k) => `${quoteName(k)} NULLS FIRST`).join(", ");
  return `SELECT ${table.columns.map(quoteName).join(", ")} FROM ${quoteName(table.name)} ORDER BY ${order}`;
}

function sourceDigest(db: Database, table: SourceTable): RowDigest {
  const digest = new RowDigest();
  for (const row of db.query(selectAll(table)).values()) digest.add(row);
  return digest;
}

/** Streams the source table in key order into batched INSERTs; answers the digest of what was read. */
async function copyTable(tx: Tx, db: Database, table: SourceTable, batchRows: number): Promise<RowDigest> {
  const digest = new RowDigest();
  const width = table.columns.length;
  const perInsert = Math.max(1, Math.min(batchRows, Math.floor(PARAMETERS_PER_STATEMENT / width)));
  const head = `INSERT INTO ${quoteName(table.name)} (${table.columns.map(quoteName).join(", ")}) VALUES `;
  let batch: unknown[][] = [];
  const flush = async () => {
    if (!batch.length) return;
    const tuples = batch.map((_, r) => `(${Array.from({ length: width }, (_, c) => `$${r * width + c + 1}`).join(", ")})`);
    await tx.unsafe(head + tuples.join(", "), batch.flat());
    batch = [];
  };
  const query = db.query(selectAll(table));
  for (const row of query.iterate() as IterableIterator<Record<string, unknown>>) {
    const values = table.columns.map((c) => row[c]);
    digest.add(values);
    batch.push(values);
    if (batch.length >= perInsert) await flush();
  }
  await flush();
  return digest;
}

/** Reads a target table back in key order through a cursor (never the whole table in memory). */
async function targetDigest(tx: Tx, table: SourceTable): Promise<RowDigest> {
  const digest = new RowDigest();
  await tx.unsafe(`DECLARE ndc_copy_check NO SCROLL CURSOR FOR ${selectAll(table)}`);
  for (;;) {
    const rows = await tx.unsafe(`FETCH ${FETCH_ROWS} FROM ndc_copy_check`).values();
    for (const row of rows) digest.add(row);
    if (rows.length < FETCH_ROWS) break;
  }
  await tx.unsafe("CLOSE ndc_copy_check");
  return digest;
}
