import { migrate, openStore } from "@ndc/store";
import { loadRuntime } from "../config";
import { UsageError, type CliIo } from "../io";

/** `migrate`: applies pending migrations, names each one applied, then the schema's version. */
export async function migrateCommand(args: string[], io: CliIo): Promise<number> {
  if (args.length) throw new UsageError(`migrate: unexpected argument ${args[0]}`);
  const { config } = loadRuntime(io);
  const store = await openStore(config.databaseUrl);
  try {
    const applied = await migrate(store);
    for (const v of applied) io.out(`applied ${v}`);
    const rows = (await store.db.all("SELECT version FROM schema_migrations ORDER BY version")) as Array<{ version: string }>;
    const latest = rows.at(-1)?.version ?? "none";
    io.out(
      applied.length
        ? `${applied.length} migration(s) applied; schema at ${latest}`
        : `nothing to apply; schema at ${latest} (${rows.length} migration(s))`,
    );
    return 0;
  } finally {
    await store.close();
  }
}
