import type { Store } from "@ndc/store";

/**
 * A fault injected into the database itself: every INSERT into `table` (or only the rows `when`
 * matches, a condition on NEW) is refused with `message`, until the returned function drops the
 * trigger. Tests use it to prove that a write and its outbox or audit row commit together or not
 * at all. SQLite's `RAISE(ABORT)` trigger and PostgreSQL's plpgsql one raise the same class of
 * failure (SQLITE_CONSTRAINT_TRIGGER; SQLSTATE 23000, which the store maps to it, as the
 * append-only triggers do), so the gateway under test sees one kind of refusal on either engine.
 */
export async function refuseInserts(
  store: Store,
  table: string,
  { name = `refuse_${table}`, message = "injected", when }: { name?: string; message?: string; when?: string } = {},
): Promise<() => Promise<void>> {
  const quoted = message.replaceAll("'", "''");
  if (store.dialect === "postgres") {
    await store.write((_tx, raw) =>
      raw.exec(
        `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION '${quoted}' USING ERRCODE = '23000'; END $$;
         CREATE TRIGGER ${name} BEFORE INSERT ON ${table} FOR EACH ROW ${when ? `WHEN (${when})` : ""} EXECUTE FUNCTION ${name}();`,
      ),
    );
    return () => store.write((_tx, raw) => raw.exec(`DROP TRIGGER IF EXISTS ${name} ON ${table}; DROP FUNCTION IF EXISTS ${name}();`));
  }
  await store.write((_tx, raw) => raw.exec(`CREATE TRIGGER ${name} BEFORE INSERT ON ${table} ${when ? `WHEN ${when}` : ""} BEGIN SELECT RAISE(ABORT, '${quoted}'); END`));
  return () => store.write((_tx, raw) => raw.exec(`DROP TRIGGER IF EXISTS ${name}`));
}

/**
 * The statement that drops one of the schema's triggers (a test that edits an append-only row
 * "outside SQL", as anyone with write access to the database could): PostgreSQL names a trigger
 * per table, SQLite per database.
 */
export function dropTriggerSql(store: Pick<Store, "dialect">, name: string, table: string): string {
  return store.dialect === "postgres" ? `DROP TRIGGER IF EXISTS ${name} ON ${table}` : `DROP TRIGGER IF EXISTS ${name}`;
}

/** Drops one of the schema's triggers, outside any transaction. */
export async function dropTrigger(store: Store, name: string, table: string): Promise<void> {
  await store.exec(dropTriggerSql(store, name, table));
}
