import { open, type FileHandle } from "node:fs/promises";

/**
 * Durability off the event loop (issue 8 §1): the writer commits with synchronous=NORMAL, so a
 * COMMIT only appends to the -wal file (no fsync on the main thread), and this fsyncs that file
 * on the thread pool (fdatasync through node:fs). A write's promise settles only after a sync
 * that started after its COMMIT: what the gateway answers has reached the disk, as with
 * synchronous=FULL. Calls made while a sync runs share the next one (one fsync covers every
 * COMMIT before it). Checkpoints sync the database file themselves (SQLite does, in NORMAL).
 */
export function walSync(walPath: string): { sync(): Promise<void>; close(): Promise<void> } {
  let handle: FileHandle | undefined;
  let running: Promise<void> | null = null;
  let next: { promise: Promise<void>; resolve(): void; reject(e: unknown): void } | null = null;

  const once = async () => {
    // Opened at the first sync: the -wal file exists once a COMMIT wrote to it, and keeps its
    // inode while the writer's connection is open (a checkpoint rewinds it, never deletes it).
    if (!handle) {
      try {
        handle = await open(walPath, "r");
      } catch (e) {
        // No -wal file yet: no COMMIT has written a frame, so nothing is waiting for the disk.
        if ((e as NodeJS.ErrnoException).code === "ENOENT") return;
        throw e;
      }
    }
    await handle.datasync();
  };

  const start = (): Promise<void> => {
    const p = once().finally(() => {
      running = null;
      if (next) {
        const waiting = next;
        next = null;
        start().then(waiting.resolve, waiting.reject);
      }
    });
    running = p;
    return p;
  };

  return {
    sync(): Promise<void> {
      if (!running) return start();
      // A sync already started may have missed this COMMIT: wait for the one after it.
      if (!next) {
        let resolve!: () => void;
        let reject!: (e: unknown) => void;
        const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
        next = { promise, resolve, reject };
      }
      return next.promise;
    },
    async close(): Promise<void> {
      while (running || next) await (next?.promise ?? running)!.catch(() => undefined);
      await handle?.close();
      handle = undefined;
    },
  };
}
