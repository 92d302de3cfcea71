import { AsyncLocalStorage } from "node:async_hooks";

/**
 * One write at a time per process. SQLite allows a single writer anyway; queueing here
 * (instead of waiting on SQLITE_BUSY) keeps the order of writes the order of calls.
 *
 * A write that calls write() again would wait for itself forever, so that is refused. The
 * check compares with the job running now, not just "some job ran in this async context":
 * a loop started inside a finished write (an actor mailbox, say) must still be able to write.
 */
export function serialQueue(): {
  run<T>(job: () => Promise<T>): Promise<T>;
  idle(): Promise<void>;
} {
  const context = new AsyncLocalStorage<symbol>();
  let running: symbol | null = null;
  let tail: Promise<unknown> = Promise.resolve();
  return {
    run<T>(job: () => Promise<T>): Promise<T> {
      const caller = context.getStore();
      if (caller !== undefined && caller === running) {
        return Promise.reject(new Error("store.write() called inside another write of the same store: it would wait for itself"));
      }
      const token = Symbol("write");
      const start = async () => {
        running = token;
        try {
          return await context.run(token, job);
        } finally {
          running = null;
        }
      };
      const p = tail.then(start, start);
      tail = p.catch(() => undefined);
      return p;
    },
    idle: () => tail.then(() => undefined),
  };
}
