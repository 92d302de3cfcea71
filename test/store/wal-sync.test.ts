import { afterEach, expect, test } from "bun:test";
import { open as openFile } from "node:fs/promises";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { commitQueue, type TransactionControl } from "@ndc/store";
import { openMigrated, tempDir } from "../actors/helpers";

/**
 * Commits off the event loop (issue 8 §1): the bun:sqlite writer commits with
 * synchronous=NORMAL and fsyncs the -wal file on the thread pool (drivers/wal-sync.ts). An
 * acknowledged write is never answered before the fsync that follows its COMMIT; while one
 * batch's fsync runs, the queue commits the next batch.
 */
let tmp: ReturnType<typeof tempDir> | undefined;
afterEach(() => tmp?.cleanup());

function gate() {
  let open!: () => void;
  let fail!: (e: unknown) => void;
  const wait = new Promise<void>((res, rej) => ((open = res), (fail = rej)));
  return { wait, open, fail };
}

/** A transaction control that logs what the queue asks, with fsyncs the test lets finish. */
function fakeControl() {
  const log: string[] = [];
  const syncs: ReturnType<typeof gate>[] = [];
  let inTx = false;
  const control: TransactionControl = {
    begin: () => ((inTx = true), log.push("BEGIN")),
    commit: () => ((inTx = false), log.push("COMMIT")),
    rollback: () => ((inTx = false), log.push("ROLLBACK")),
    savepoint: () => undefined,
    release: () => undefined,
    rollbackToSavepoint: () => undefined,
    inTransaction: () => inTx,
    exec: () => undefined,
    sync: () => {
      log.push("fsync");
      const g = gate();
      syncs.push(g);
      return g.wait;
    },
  };
  return { control, log, syncs };
}

const tick = () => new Promise((r) => setTimeout(r, 5));

test("a write settles only after the fsync that follows its COMMIT; writes arriving during that fsync share the next COMMIT, after it", async () => {
  const { control, log, syncs } = fakeControl();
  const q = commitQueue(control);
  const settled: string[] = [];
  const first = q.write(async () => "a").then((v) => settled.push(v));
  await tick();
  expect(log).toEqual(["BEGIN", "COMMIT", "fsync"]);
  expect(settled).toEqual([]); // committed, not yet on disk: not acknowledged
  const later = [q.write(async () => "b"), q.write(async () => "c")].map((w) => w.then((v) => settled.push(v)));
  await tick();
  // Gathered while the first fsync runs, not committed yet: they could not be acknowledged before the next fsync anyway.
  expect(log).toEqual(["BEGIN", "COMMIT", "fsync"]);
  syncs[0]!.open();
  await first;
  await tick();
  expect(settled).toEqual(["a"]);
  // One COMMIT for both, once the first fsync ended.
  expect(log).toEqual(["BEGIN", "COMMIT", "fsync", "BEGIN", "COMMIT", "fsync"]);
  syncs[1]!.open();
  await Promise.all(later);
  expect(settled).toEqual(["a", "b", "c"]);
  expect(q.stats).toEqual({ transactions: 3, commits: 2 });
  await q.idle();
});

test("a failed fsync fails every write of its batch; idle() waits for pending fsyncs", async () => {
  const { control, syncs } = fakeControl();
  const q = commitQueue(control);
  const writes = [q.write(async () => 1), q.write(async () => 2)].map((w) => w.then(String, (e: Error) => e.message));
  await tick();
  let idle = false;
  void q.idle().then(() => (idle = true));
  await tick();
  expect(idle).toBe(false);
  syncs[0]!.fail(new Error("EIO"));
  expect(await Promise.all(writes)).toEqual(["EIO", "EIO"]);
  await tick();
  expect(idle).toBe(true);
  expect(q.stats.transactions).toBe(0);
});

test("the real store: the -wal file is fsynced (on the thread pool) before a write's promise settles", async () => {
  tmp = tempDir("ndc-wal-sync-");
  const store = await openMigrated(tmp.url, "bun-sqlite");
  // Every FileHandle shares its prototype: watch datasync there and hold it until told.
  const probe = await openFile(join(tmp.dir, "gateway.db"), "r");
  const proto = Object.getPrototypeOf(probe) as { datasync(): Promise<void> };
  await probe.close();
  const original = proto.datasync;
  const events: string[] = [];
  const held = gate();
  proto.datasync = async function (this: unknown) {
    events.push("fsync started");
    await held.wait;
    await original.call(this);
    events.push("fsync done");
  };
  try {
    const ack = store.write((tx) => tx.run(sql`CREATE TABLE t (v TEXT)`)).then(() => events.push("write acknowledged"));
    await tick();
    expect(events).toEqual(["fsync started"]);
    held.open();
    await ack;
    expect(events).toEqual(["fsync started", "fsync done", "write acknowledged"]);
  } finally {
    proto.datasync = original;
    await store.close();
  }
});
