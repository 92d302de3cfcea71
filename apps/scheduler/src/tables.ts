import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Each job's lease and last/next run (schemas/migrations/0026_scheduler_jobs.sql). Only the scheduler writes it. */
export const schedulerJobs = sqliteTable("scheduler_jobs", {
  job: text("job").primaryKey(),
  holder: text("holder"),
  leaseUntil: integer("lease_until").notNull().default(0),
  lastStartedAt: integer("last_started_at"),
  lastFinishedAt: integer("last_finished_at"),
  lastOutcome: text("last_outcome"),
  lastSummary: text("last_summary"),
  nextRunAt: integer("next_run_at"),
  updatedAt: integer("updated_at").notNull(),
});
