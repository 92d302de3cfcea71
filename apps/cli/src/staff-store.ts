import { migrate, openStore, type Store } from "@ndc/store";
import { loadRuntime } from "./config";
import type { CliIo } from "./io";

/**
 * The store a staff command works on: the one given (tests), or the configured database opened
 * and migrated beside a running gateway (the store serialises the writes), closed after `fn`.
 */
export async function withStaffStore<T>(io: CliIo, given: Store | undefined, fn: (store: Store) => Promise<T>): Promise<T> {
  if (given) return fn(given);
  const { config } = loadRuntime(io);
  const store = await openStore(config.databaseUrl, { driver: config.databaseDriver, authToken: config.databaseAuthToken });
  try {
    await migrate(store);
    return await fn(store);
  } finally {
    await store.close();
  }
}
