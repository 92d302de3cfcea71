import type { Store, StoreDb, WriteRaw } from "../open";
import { serialQueue } from "../serial";

/** What a libSQL flavour supplies; the serial queue and close semantics are shared. */
export interface DriverParts {
  db: StoreDb;
  exec(sql: string): Promise<void>;
  transaction<T>(fn: (tx: StoreDb, raw: WriteRaw) => Promise<T> | T): Promise<T>;
  close(): void;
}

export function assemble(p: DriverParts): Store {
  const queue = serialQueue();
  let closed = false;
  // A rejected promise, not a throw: callers chain on write() and expect one failure path.
  const refused = () => Promise.reject(new Error("store is closed"));
  // One transaction per write here (no group commit): each write is its own COMMIT.
  const commits = { transactions: 0, commits: 0 };
  return {
    driver: "libsql",
    dialect: "sqlite",
    db: p.db,
    commits,
    exec: (sql) => {
      if (closed) return refused();
      return queue.run(() => p.exec(sql));
    },
    write: (fn) => {
      if (closed) return refused();
      return queue.run(async () => {
        const result = await p.transaction(fn);
        commits.transactions++;
        commits.commits++;
        return result;
      });
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await queue.idle();
      p.close();
    },
  };
}
