import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Actor runtime tables (schemas/migrations/0003_actor_journal.sql). */

export const actorJournal = sqliteTable(
  "actor_journal",
  {
    kind: text("kind").notNull(),
    key: text("key").notNull(),
    seq: integer("seq").notNull(),
    /** JSON text; the actor kind owns its shape. */
    payload: text("payload").notNull(),
    committedAt: integer("committed_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.key, t.seq] })],
);

export const actorSnapshots = sqliteTable(
  "actor_snapshots",
  {
    kind: text("kind").notNull(),
    key: text("key").notNull(),
    seq: integer("seq").notNull(),
    state: text("state").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.key] })],
);
