import { migrate, openStore } from "@ndc/store";
import { loadRuntime } from "../config";
import type { CliIo } from "../io";
import { runClientCommand } from "./clients";

/**
 * `agency ...` and `client ...`: opens the store (migrated, so a fresh data directory works),
 * hands the whole command line to the registry commands, and always closes the store.
 */
export async function registryCommand(argv: string[], io: CliIo): Promise<number> {
  const { config } = loadRuntime(io);
  const store = await openStore(config.databaseUrl);
  try {
    await migrate(store);
    return await runClientCommand(argv, { store, config, out: io.out, err: io.err });
  } finally {
    await store.close();
  }
}
