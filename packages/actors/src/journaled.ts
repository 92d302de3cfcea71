import type { Store, StoreDb } from "@ndc/store";
import { appendEvents, journalMovedSince, loadSnapshot, readEvents, saveSnapshot } from "./journal";
import { defineActorKind, type ActorContext, type ActorKind, type PersistContext } from "./kind";

/** The in-memory state of a journaled actor: its value and the seq of the last event in it. */
export interface Journaled<V> {
  seq: number;
  value: V;
}

/**
 * A decision's reply that is the actor's value after its events (an order answers with the order
 * it became): the kind gives the very object that becomes the actor's state, folded once.
 */
export const NEXT_VALUE: unique symbol = Symbol("the value after the events");

/** What persistAlso sees: the value before (`state`) and the value the events fold into (`next`). */
export interface JournaledPersistContext<V> extends PersistContext<Journaled<V>> {
  next: V;
}

export interface JournaledSpec<V, C, Ev, R> {
  name: string;
  /** The value of a key that has no events yet. */
  initial(key: string): V;
  /** Validate against the value; return the events to record (none for a query) and the reply, or NEXT_VALUE for the value after the events. */
  decide(value: V, command: C, ctx: ActorContext & { seq: number }): { events: Ev[]; reply: R | typeof NEXT_VALUE };
  /** Folds one event into the value; pure, used both live and on replay. */
  evolve(value: V, event: Ev): V;
  /** Extra rows written in the same transaction as the events (state tables, outbox). */
  persistAlso?(tx: StoreDb, key: string, events: Ev[], ctx: JournaledPersistContext<V>): Promise<void> | void;
  /** Write a snapshot every this many events so rehydration replays at most that many. */
  snapshotEvery?: number;
}

/** A decision's effects: the events to record, and the value they fold into (computed once, at decide). */
interface Folded<V, Ev> {
  events: Ev[];
  next: V;
}

/**
 * An event-sourced actor kind over the actor_journal table: effects are events, persisted as
 * journal rows with contiguous seqs, applied by folding, rehydrated from the last snapshot
 * plus the events after it. A command's events are folded once, when it is decided: the same
 * value object is written by persistAlso, kept in the snapshot, becomes the actor's state after
 * the COMMIT and, for a kind that replies NEXT_VALUE, is the reply, so whatever is derived from it
 * in the write (the stored OrderViewRS) can be found again by the object.
 */
export function defineJournaledKind<V, C, Ev, R>(spec: JournaledSpec<V, C, Ev, R>): ActorKind<Journaled<V>, C, Folded<V, Ev>, R> {
  /** The events after `from` folded into it: a load from a snapshot, or a resident actor catching up. */
  const fold = async (from: Journaled<V>, key: string, store: Store, db: StoreDb = store.db): Promise<Journaled<V>> => {
    let { seq, value } = from;
    for (const e of await readEvents<Ev>(db, spec.name, key, seq)) {
      if (e.seq !== seq + 1) throw new Error(`journal gap for ${spec.name}: seq ${e.seq} after ${seq}`);
      value = spec.evolve(value, e.payload);
      seq = e.seq;
    }
    return seq === from.seq ? from : { seq, value };
  };
  return defineActorKind<Journaled<V>, C, Folded<V, Ev>, R>({
    name: spec.name,
    async load(key, store) {
      const snap = await loadSnapshot<V>(store.db, spec.name, key);
      return fold(snap ? { seq: snap.seq, value: snap.state } : { seq: 0, value: spec.initial(key) }, key, store);
    },
    // The journal is the truth every process appends to: its seq is the version, and a resident
    // actor behind it reads only the events it has not seen.
    freshness: {
      movedSince: (key, seq, store, db) => journalMovedSince(db ?? store.db, spec.name, key, seq),
      at: (state) => state.seq,
      catchUp: (state, key, store, db) => fold(state, key, store, db),
    },
    decide(state, command, ctx) {
      const { events, reply } = spec.decide(state.value, command, { ...ctx, seq: state.seq });
      const next = events.length ? events.reduce(spec.evolve, state.value) : state.value;
      return { effects: events.length ? { events, next } : null, reply: reply === NEXT_VALUE ? (next as unknown as R) : reply };
    },
    async persist(tx, key, { events, next }, ctx) {
      const last = await appendEvents(tx, { kind: spec.name, key, afterSeq: ctx.state.seq, now: ctx.now }, events);
      if (spec.persistAlso) await spec.persistAlso(tx, key, events, { ...ctx, next });
      const every = spec.snapshotEvery;
      if (every && Math.floor(last / every) > Math.floor(ctx.state.seq / every)) {
        await saveSnapshot(tx, { kind: spec.name, key, seq: last, now: ctx.now }, next);
      }
    },
    apply: (state, { events, next }) => ({ seq: state.seq + events.length, value: next }),
  });
}
