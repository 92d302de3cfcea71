import { Mailbox } from "./mailbox";

/** One resident actor: its state, its mailbox and the bookkeeping eviction needs. */
export interface Cell<S, C> {
  key: string;
  state: S | undefined;
  /** False until load() first succeeded. */
  loaded: boolean;
  /** A write failed: keep the state for readers, but reload it before the next command. */
  stale: boolean;
  /** store.othersCommitted() when the state was last known to be the store's (decision 0040). */
  othersSeen?: number;
  mailbox: Mailbox<C>;
  /** Commands accepted and not yet answered, the one being handled included. */
  pending: number;
  draining: boolean;
  lastUsed: number;
}

export function newCell<S, C>(key: string, now: number): Cell<S, C> {
  return { key, state: undefined, loaded: false, stale: false, mailbox: new Mailbox<C>(), pending: 0, draining: false, lastUsed: now };
}
