import { migrate, openStore } from "@ndc/store";
import { loadRuntime } from "../config";
import { UsageError, type CliIo } from "../io";
import { migrateToCommand } from "./migrate-to";
import { schemaLine } from "./schema-line";

/**
 * `migrate`: applies pending migrations, names each one applied, then the schema's version.
 * `migrate --to postgres://...`: the one-time move of a SQLite database to PostgreSQL (migrate-to.ts).
 */
export async function migrateCommand(args: string[], io: CliIo): Promise<number> {
  if (args[0] === "--to" || args[0]?.startsWith("--to=")) {
    const target = args[0] === "--to" ? args[1] : args[0].slice("--to=".length);
    const rest = args.slice(args[0] === "--to" ? 2 : 1);
    if (!target) throw new UsageError("migrate --to needs a PostgreSQL URL (postgres://user@host/db)");
    if (rest.length) throw new UsageError(`migrate --to: unexpected argument ${rest[0]}`);
    return migrateToCommand(target, io);
  }
  if (args.length) throw new UsageError(`migrate: unexpected argument ${args[0]}`);
  const { config } = loadRuntime(io);
  const store = await openStore(config.databaseUrl);
  try {
    const applied = await migrate(store);
    for (const v of applied) io.out(`applied ${v}`);
    io.out(await schemaLine(store, applied.length));
    return 0;
  } finally {
    await store.close();
  }
}
