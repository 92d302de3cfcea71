/**
 * WAL checkpoints on a worker thread (issue 8 §1, "commits must not stall the event loop").
 *
 * SQLite's automatic checkpoint runs inside the COMMIT that takes the WAL past 1,000 pages: on
 * the writer's connection, so on the event loop, copying the log into the database file and
 * fsyncing it (measured: 40-60 % of the time the bench's COMMITs spent, and a stall every other
 * request waits behind). The writer turns it off (`wal_autocheckpoint = 0`) and this worker, with
 * a connection of its own, runs `PRAGMA wal_checkpoint(PASSIVE)` a short while after commits:
 * PASSIVE never waits for, nor blocks, the writer or a reader, and copies what no reader still
 * needs. The next write after a complete checkpoint starts the log again from its beginning,
 * so the -wal file stays as small as the automatic checkpoint kept it. Durability does not depend
 * on it: a COMMIT is durable once its -wal frames are fsynced (wal-sync.ts).
 *
 * The worker's code is a string run from a Blob URL, not a file: the compiled binary
 * (docs/single-binary.md) has no worker entry point to load, and `bun:sqlite` is built in.
 * If the worker cannot start or fails, `onFailure` gives SQLite its automatic checkpoint back.
 */
const WORKER_SOURCE = `
import { Database } from "bun:sqlite";
let db;
self.onmessage = (event) => {
  const m = event.data;
  try {
    if (m.type === "open") {
      db = new Database(m.path, { strict: true });
      db.exec("PRAGMA busy_timeout = 5000");
      db.exec("PRAGMA synchronous = NORMAL");
      postMessage({ type: "opened" });
    } else if (m.type === "checkpoint") {
      const r = db.query("PRAGMA wal_checkpoint(PASSIVE)").get();
      postMessage({ type: "checkpointed", busy: r.busy, log: r.log, checkpointed: r.checkpointed });
    } else if (m.type === "close") {
      db?.close();
      db = undefined;
      postMessage({ type: "closed" });
    }
  } catch (e) {
    postMessage({ type: "failed", message: String(e && e.message || e) });
  }
};
`;

/** How long after a commit the checkpoint runs: commits meanwhile share it. */
const DELAY_MS = 200;

export interface Checkpointer {
  /** A commit appended to the log: checkpoint soon. */
  committed(): void;
  /** Checkpoints done by the worker (for tests and benches). */
  readonly stats: { checkpoints: number; lastLogPages: number; lastCheckpointedPages: number };
  close(): Promise<void>;
}

type Reply = { type: "opened" | "closed" } | { type: "checkpointed"; busy: number; log: number; checkpointed: number } | { type: "failed"; message: string };

export function startCheckpointer(path: string, onFailure: (reason: string) => void): Checkpointer | undefined {
  let worker: Worker;
  try {
    worker = new Worker(URL.createObjectURL(new Blob([WORKER_SOURCE], { type: "application/javascript" })));
  } catch (e) {
    onFailure(`no checkpoint worker: ${(e as Error).message}`);
    return undefined;
  }
  const stats = { checkpoints: 0, lastLogPages: 0, lastCheckpointedPages: 0 };
  let failed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight = false;
  let again = false;
  let closing: (() => void) | undefined;

  const fail = (reason: string) => {
    if (failed) return;
    failed = true;
    onFailure(reason);
    closing?.();
  };
  // Unref'd: a short-lived process (a CLI command) is not kept alive for a checkpoint; its store's
  // close, or the next open, folds the log in anyway.
  const schedule = () => {
    if (timer) return;
    timer = setTimeout(run, DELAY_MS);
    (timer as { unref?(): void }).unref?.();
  };
  const run = () => {
    timer = undefined;
    if (failed || closing) return;
    inFlight = true;
    worker.postMessage({ type: "checkpoint" });
  };
  worker.onmessage = (event: MessageEvent<Reply>) => {
    const m = event.data;
    if (m.type === "checkpointed") {
      inFlight = false;
      stats.checkpoints++;
      stats.lastLogPages = m.log;
      stats.lastCheckpointedPages = m.checkpointed;
      if (again && !closing) {
        again = false;
        schedule();
      }
    } else if (m.type === "failed") {
      inFlight = false;
      fail(`checkpoint worker: ${m.message}`);
    } else if (m.type === "closed") closing?.();
  };
  worker.onerror = (e) => fail(`checkpoint worker: ${e.message}`);
  // Never what keeps the process alive: the writer (and its close) decides that.
  (worker as unknown as { unref?(): void }).unref?.();
  worker.postMessage({ type: "open", path });

  return {
    stats,
    committed() {
      if (failed || closing) return;
      if (inFlight) again = true;
      else schedule();
    },
    async close() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      if (!failed) {
        // Its connection closes before the writer's, so the writer's close (the last one) folds the log in.
        await new Promise<void>((resolve) => {
          closing = resolve;
          worker.postMessage({ type: "close" });
        });
      }
      worker.terminate();
    },
  };
}
