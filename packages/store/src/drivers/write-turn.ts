import { dlopen, FFIType } from "bun:ffi";
import { closeSync, openSync } from "node:fs";
import { ensurePrivateFile } from "@ndc/config";

/**
 * The write lock's waiting room, for processes that write one database file (docs/decisions/0040).
 *
 * SQLite has no way to wait for its write lock off the event loop: busy-wait.ts polls BEGIN
 * IMMEDIATE on timers, and a poll that comes 0.25-4 ms after the other process's COMMIT leaves the
 * lock free all that while. With two workers booking, the lock sat free while one of them waited
 * for 10-15 % of the time (bench/scale-out.ts, BENCH_STATS=1), the time the lock is the limit.
 * So each batch first takes a turn: an exclusive flock(2) on the file's `-turn` companion, tried
 * at once on the event loop and, when another process holds it, waited for by a thread of this
 * process blocked in flock() (woken by the kernel when the holder gives the turn up), so the
 * event loop never waits. The turn is given up right after the batch's COMMIT or ROLLBACK.
 *
 * It is only a waiting room: BEGIN IMMEDIATE is still the lock, and still polled (busy-wait.ts)
 * when a writer that takes no turn holds it (an older build, the sqlite3 shell). A process that
 * dies holding the turn loses it with its file descriptor. Where flock cannot be reached (no libc
 * through bun:ffi, another system), there is no turn and the polling alone waits, as before.
 */
export interface WriteTurn {
  /** Resolves holding the turn, or after `maxWaitMs` without it (the BEGIN's own wait decides then). */
  take(maxWaitMs: number): Promise<void>;
  /** Gives the turn up if held (after COMMIT or ROLLBACK; a second call does nothing). */
  give(): void;
  close(): void;
}

const LOCK_EX = 2;
const LOCK_NB = 4;
const LOCK_UN = 8;

// The waiting thread: blocked in flock(fd, LOCK_EX) until the turn is this process's, then says so.
// A string run from a Blob URL like the checkpointer's: the compiled binary has no worker file.
const WAITER_SOURCE = `
import { dlopen, FFIType } from "bun:ffi";
const libc = dlopen("libc.so.6", { flock: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 } });
self.onmessage = (event) => postMessage(libc.symbols.flock(event.data, ${LOCK_EX}));
`;

type Flock = (fd: number, op: number) => number;

function libcFlock(): Flock | undefined {
  try {
    const libc = dlopen("libc.so.6", { flock: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 } });
    return (fd, op) => libc.symbols.flock(fd, op);
  } catch {
    return undefined;
  }
}

export function writeTurn(databasePath: string): WriteTurn | undefined {
  const found = libcFlock();
  if (!found) return undefined;
  const flock: Flock = found;
  const path = `${databasePath}-turn`;
  let fd: number;
  try {
    ensurePrivateFile(path);
    fd = openSync(path, "r");
  } catch {
    return undefined;
  }
  let held = false;
  let waiter: Worker | undefined;
  /** The waiting thread's flock() in flight, and whether a take() still wants what it brings. */
  let waiting: Promise<void> | undefined;
  let wanted = false;

  const waitInThread = (): Promise<void> => {
    waiter ??= new Worker(URL.createObjectURL(new Blob([WAITER_SOURCE], { type: "application/javascript" })));
    // Never what keeps the process alive.
    (waiter as unknown as { unref?(): void }).unref?.();
    const w = waiter;
    return new Promise<void>((resolve) => {
      w.onmessage = (event: MessageEvent<number>) => {
        waiting = undefined;
        if (event.data === 0) {
          held = true;
          // Nobody waits for it any more (that take() gave up): the next batch may want it, but
          // holding it idle would keep every other process out.
          if (!wanted) give();
        }
        resolve();
      };
      w.onerror = () => {
        waiting = undefined;
        resolve();
      };
      w.postMessage(fd);
    });
  };

  function give(): void {
    if (!held) return;
    held = false;
    flock(fd, LOCK_UN);
  }

  return {
    async take(maxWaitMs) {
      if (held) return;
      if (flock(fd, LOCK_EX | LOCK_NB) === 0) {
        held = true;
        return;
      }
      wanted = true;
      waiting ??= waitInThread();
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([waiting, new Promise<void>((r) => (timer = setTimeout(r, maxWaitMs)))]);
      clearTimeout(timer);
      wanted = false;
    },
    give,
    close() {
      give();
      waiter?.terminate();
      waiter = undefined;
      closeSync(fd);
    },
  };
}
