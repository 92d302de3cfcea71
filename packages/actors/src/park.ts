import type { StoreDb } from "@ndc/store";
import type { Decision } from "./kind";

/** The hidden door askTogether uses on an ActorRef. */
export const PARK: unique symbol = Symbol("park");

/** A letter that holds its actor's mailbox until the joint write releases it. */
export class Park {
  release!: () => void;
  readonly released = new Promise<void>((r) => (this.release = r));
}

/** One actor held for a joint write: decide against its state, persist in the shared transaction, then commit or fail. */
export interface Parked {
  kind: string;
  key: string;
  decide(command: unknown, now: number): Decision<unknown, unknown>;
  persist(tx: StoreDb, effects: unknown, now: number): Promise<void> | void;
  /**
   * Inside the joint write, the write lock held: brings the parked state up to the store's when
   * another process wrote the key since it was read; true if it moved (decide again then).
   */
  catchUpUnderLock(tx: StoreDb): Promise<boolean>;
  /** After the joint COMMIT: the state moves on. */
  commit(effects: unknown): void;
  /** Whether `error` (the joint write's) means another process wrote this key first (decision 0040). */
  lostRace(error: unknown): Promise<boolean>;
  /** The joint write failed: the state is reloaded before the next command. */
  fail(): void;
  release(): void;
}
