import type { StoreDb } from "@ndc/store";
import { appendEvents, loadSnapshot, readEvents, saveSnapshot } from "./journal";
import { defineActorKind, type ActorContext, type ActorKind, type PersistContext } from "./kind";

/** The in-memory state of a journaled actor: its value and the seq of the last event in it. */
export interface Journaled<V> {
  seq: number;
  value: V;
}

export interface JournaledSpec<V, C, Ev, R> {
  name: string;
  /** The value of a key that has no events yet. */
  initial(key: string): V;
  /** Validate against the value; return the events to record (none for a query) and the reply. */
  decide(value: V, command: C, ctx: ActorContext & { seq: number }): { events: Ev[]; reply: R };
  /** Folds one event into the value; pure, used both live and on replay. */
  evolve(value: V, event: Ev): V;
  /** Extra rows written in the same transaction as the events (state tables, outbox). */
  persistAlso?(tx: StoreDb, key: string, events: Ev[], ctx: PersistContext<Journaled<V>>): Promise<void> | void;
  /** Write a snapshot every this many events so rehydration replays at most that many. */
  snapshotEvery?: number;
}

/**
 * An event-sourced actor kind over the actor_journal table: effects are events, persisted as
 * journal rows with contiguous seqs, applied by folding, rehydrated from the last snapshot
 * plus the events after it.
 */
export function defineJournaledKind<V, C, Ev, R>(spec: JournaledSpec<V, C, Ev, R>): ActorKind<Journaled<V>, C, Ev[], R> {
  const fold = (value: V, events: Ev[]) => events.reduce(spec.evolve, value);
  return defineActorKind<Journaled<V>, C, Ev[], R>({
    name: spec.name,
    async load(key, store) {
      const snap = await loadSnapshot<V>(store.db, spec.name, key);
      let seq = snap?.seq ?? 0;
      let value = snap ? snap.state : spec.initial(key);
      for (const e of await readEvents<Ev>(store.db, spec.name, key, seq)) {
        if (e.seq !== seq + 1) throw new Error(`journal gap for ${spec.name}: seq ${e.seq} after ${seq}`);
        value = spec.evolve(value, e.payload);
        seq = e.seq;
      }
      return { seq, value };
    },
    decide(state, command, ctx) {
      const { events, reply } = spec.decide(state.value, command, { ...ctx, seq: state.seq });
      return { effects: events.length ? events : null, reply };
    },
    async persist(tx, key, events, ctx) {
      const last = await appendEvents(tx, { kind: spec.name, key, afterSeq: ctx.state.seq, now: ctx.now }, events);
      if (spec.persistAlso) await spec.persistAlso(tx, key, events, ctx);
      const every = spec.snapshotEvery;
      if (every && Math.floor(last / every) > Math.floor(ctx.state.seq / every)) {
        await saveSnapshot(tx, { kind: spec.name, key, seq: last, now: ctx.now }, fold(ctx.state.value, events));
      }
    },
    apply: (state, events) => ({ seq: state.seq + events.length, value: fold(state.value, events) }),
  });
}
