import type { Store, StoreDb } from "@ndc/store";

/** What decide() sees besides state and command: time comes from the injected clock. */
export interface ActorContext {
  kind: string;
  key: string;
  now: number;
}

/** What persist() sees: the state the effects were decided against, before they apply. */
export interface PersistContext<S> extends ActorContext {
  state: S;
}

/**
 * decide's answer: the effects to make durable and the reply to give once they are.
 * `effects: null` means nothing changes (a query); the reply is given without a write.
 */
export interface Decision<E, R> {
  effects: E | null;
  reply: R;
}

/**
 * One kind of actor (an order, a flight's seat inventory...). The runtime calls, per key and
 * one command at a time:
 *   load    once, when the key is first used (or after a failed write), from the store;
 *   decide  against the in-memory state; throw (a GatewayError) to refuse, nothing is written;
 *   persist inside one store.write transaction (journal rows, state rows, outbox rows);
 *   apply   only after that transaction committed, to get the next in-memory state.
 * decide and apply must not mutate the state they are given: if the write fails, the
 * runtime keeps the old state object as it was.
 */
export interface ActorKind<S, C, E, R> {
  name: string;
  load(key: string, store: Store): Promise<S>;
  decide(state: S, command: C, ctx: ActorContext): Decision<E, R>;
  persist(tx: StoreDb, key: string, effects: E, ctx: PersistContext<S>): Promise<void> | void;
  apply(state: S, effects: E): S;
  /**
   * Any process may run any command for any key (docs/decisions/0040): another process may have
   * written this key since it was loaded here. `freshness` tells a resident state from the store's:
   * before every command (queries included) the runtime asks whether the key moved past
   * `at(state)`, and if so `catchUp` brings the state forward (reading only what is newer). Without
   * it the kind is loaded again before every command, unless it declares `singleProcess`.
   */
  freshness?: Freshness<S>;
  /** Only this process ever writes the kind's keys (test kinds, per-process state): resident state is trusted. */
  singleProcess?: boolean;
}

/** How a kind's resident state is checked against, and brought up to, the store (decision 0040). */
export interface Freshness<S> {
  /** The version a state was loaded or caught up at (journaled kinds: its last event's seq). */
  at(state: S): number;
  /** Whether the store holds the key at a version after `version`: one cheap read (an index seek). */
  /** `db`: where to read (a write transaction's own connection, under the write lock); the store's reader by default. */
  movedSince(key: string, version: number, store: Store, db?: StoreDb): Promise<boolean>;
  /** `state` brought up to the store's version; by default a full load. */
  catchUp?(state: S, key: string, store: Store, db?: StoreDb): Promise<S>;
}

/** Identity with inference: lets a kind be written as an object literal with its types checked. */
export function defineActorKind<S, C, E, R>(kind: ActorKind<S, C, E, R>): ActorKind<S, C, E, R> {
  return kind;
}
