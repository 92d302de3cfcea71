import type { ScheduledJob } from "../job";

/**
 * WAL housekeeping. SQLite checkpoints on its own when the WAL passes 1000 pages but never
 * shrinks the file; TRUNCATE resets it to zero bytes so a long-running gateway's -wal file
 * stays small. It goes through store.exec so it queues behind in-flight writes instead of
 * racing them. If a reader holds the WAL the checkpoint simply does less and the next hour
 * tries again: nothing is lost either way. A libSQL server manages its own log, so the job
 * only touches embedded (file:) databases, and on PostgreSQL it is a no-op that says so.
 */
export const storeCheckpoint: ScheduledJob = {
  name: "store.checkpoint",
  schedule: "0 17 * * * *", // hourly, off the top of the hour where other hourly work piles up
  description: "PRAGMA wal_checkpoint(TRUNCATE): fold the write-ahead log into the database file and truncate it",
  async run({ store, config }) {
    // PostgreSQL's own checkpointer folds and recycles its WAL (decision 0041): nothing to do.
    if (store.dialect === "postgres") return { skipped: "PostgreSQL checkpoints by itself" };
    if (!config.databaseUrl.startsWith("file:")) return { skipped: "not an embedded database" };
    await store.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    return { driver: store.driver };
  },
};
