import { randomUUID } from "node:crypto";
import { defineJournaledKind, type JournaledSpec } from "@ndc/actors";
import { decideHoldable } from "./decide";
import { evolveHoldable } from "./evolve";
import type { HoldableShape } from "./shape";
import type { HoldableCommand, HoldableEvent, HoldableReply, HoldableValue } from "./types";

export interface HoldableKindOptions<V, C> {
  name: string;
  /** New hold ids are `<prefix>-<uuid>` (SH seat holds, PH partner holds). */
  holdIdPrefix: string;
  initial(key: string): V;
  /** Mirrors the events into the stock's own table, in the actor's write transaction. */
  persistAlso: JournaledSpec<V, unknown, HoldableEvent<C>, unknown>["persistAlso"];
  /** Replaying a busy key's whole history at every rehydration would grow without bound. */
  snapshotEvery?: number;
}

/**
 * One actor per key of a holdable stock: every channel's hold or sale on that key is a command
 * to it, decided one after the other against the same state, its events written to the journal
 * and its rows to the stock's table in one transaction (write-ahead), before the caller is answered.
 */
export function holdableKind<V extends HoldableValue<C>, C, R, H, Q extends string, QR>(shape: HoldableShape<V, C, R, H, Q, QR>, opts: HoldableKindOptions<V, C>) {
  return defineJournaledKind<V, HoldableCommand<R, Q>, HoldableEvent<C>, HoldableReply<H, QR>>({
    name: opts.name,
    snapshotEvery: opts.snapshotEvery ?? 200,
    initial: opts.initial,
    decide: (value, command, ctx) => decideHoldable(shape, value, command, ctx.now, () => `${opts.holdIdPrefix}-${randomUUID()}`),
    evolve: (value, event) => evolveHoldable(shape, value, event),
    persistAlso: opts.persistAlso,
  });
}
