import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { StoreDb } from "@ndc/store";
import { tables } from "@ndc/store";

const { actorJournal, actorSnapshots } = tables;

export interface JournalEntry<P> {
  seq: number;
  payload: P;
  committedAt: number;
}

/**
 * Appends events for one actor as seq afterSeq+1, afterSeq+2, ... inside the caller's write
 * transaction. The (kind, key, seq) primary key refuses a seq already taken, so a second
 * writer for the key (or a replayed command) fails the whole transaction instead of forking
 * the history. Returns the last seq written.
 */
export async function appendEvents<P>(
  tx: StoreDb,
  at: { kind: string; key: string; afterSeq: number; now: number },
  events: readonly P[],
): Promise<number> {
  if (events.length === 0) return at.afterSeq;
  await tx.insert(actorJournal).values(
    events.map((e, i) => ({
      kind: at.kind,
      key: at.key,
      seq: at.afterSeq + i + 1,
      payload: JSON.stringify(e),
      committedAt: at.now,
    })),
  );
  return at.afterSeq + events.length;
}

/** The events of one actor after `afterSeq`, in order. */
export async function readEvents<P>(db: StoreDb, kind: string, key: string, afterSeq = 0): Promise<JournalEntry<P>[]> {
  const rows = await db
    .select()
    .from(actorJournal)
    .where(and(eq(actorJournal.kind, kind), eq(actorJournal.key, key), gt(actorJournal.seq, afterSeq)))
    .orderBy(asc(actorJournal.seq));
  return rows.map((r) => ({ seq: r.seq, payload: JSON.parse(r.payload) as P, committedAt: r.committedAt }));
}

export async function saveSnapshot<V>(
  tx: StoreDb,
  at: { kind: string; key: string; seq: number; now: number },
  state: V,
): Promise<void> {
  const row = { kind: at.kind, key: at.key, seq: at.seq, state: JSON.stringify(state), updatedAt: at.now };
  await tx
    .insert(actorSnapshots)
    .values(row)
    .onConflictDoUpdate({
      target: [actorSnapshots.kind, actorSnapshots.key],
      set: { seq: row.seq, state: row.state, updatedAt: row.updatedAt },
      // Never move a snapshot backwards.
      setWhere: sql`excluded.seq > ${actorSnapshots.seq}`,
    });
}

export async function loadSnapshot<V>(db: StoreDb, kind: string, key: string): Promise<{ seq: number; state: V } | undefined> {
  const rows = await db
    .select()
    .from(actorSnapshots)
    .where(and(eq(actorSnapshots.kind, kind), eq(actorSnapshots.key, key)));
  const row = rows[0];
  return row ? { seq: row.seq, state: JSON.parse(row.state) as V } : undefined;
}
