import type { Dialect, Store, StoreDb, WriteRaw } from "../open";
import type { commitQueue } from "../commit-queue";
import { runCommitted, withEndOfWrite } from "../end-of-write";

/**
 * The Store of a driver that writes through the commit queue (bun:sqlite, the libSQL file driver):
 * writes and bare statements go through the queue, reads through the driver's read connection,
 * and close waits for every queued write (its fsync included) before the driver closes.
 */
export function queuedStore(p: {
  driver: Store["driver"];
  /** The SQL the engine speaks; sqlite unless said. */
  dialect?: Dialect;
  db: StoreDb;
  writeDb: StoreDb;
  raw: WriteRaw;
  queue: ReturnType<typeof commitQueue>;
  othersCommitted?: () => number;
  close(): Promise<void> | void;
}): Store {
  let closed = false;
  // A rejected promise, not a throw: callers chain on write() and expect one failure path.
  const refused = () => Promise.reject(new Error("store is closed"));
  return {
    driver: p.driver,
    dialect: p.dialect ?? "sqlite",
    db: p.db,
    commits: p.queue.stats,
    ...(p.othersCommitted ? { othersCommitted: p.othersCommitted } : {}),
    exec: (sql) => {
      if (closed) return refused();
      return p.queue.exec(sql);
    },
    write<T>(fn: Parameters<Store["write"]>[0]): Promise<T> {
      if (closed) return refused();
      // The queue settles a write after its batch's COMMIT: only then are its afterCommit callbacks run.
      const committed: (() => void)[] = [];
      return p.queue.write(() => withEndOfWrite(p.writeDb, async () => (await fn(p.writeDb, p.raw)) as T, committed)).then((result) => {
        runCommitted(committed);
        return result;
      });
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await p.queue.idle();
      await p.close();
    },
  };
}
