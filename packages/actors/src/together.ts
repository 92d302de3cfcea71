import type { Clock } from "@ndc/clock";
import type { Store, StoreDb } from "@ndc/store";
import { backoff, DECIDE_ATTEMPTS, hotKey } from "./fresh";
import { PARK, type Parked } from "./park";
import type { ActorRef } from "./system";

const TYPED = Symbol("jointAsk");

/**
 * One actor's command in a joint write; `check` may refuse its reply (a refusal reply) before
 * anything is written. Asks of several kinds travel in one list, so the command's type is erased
 * here: only jointAsk() makes one (the brand), after checking the command against its actor's.
 */
export interface JointAsk<R = unknown> {
  readonly ref: ActorRef<unknown, never, R>;
  readonly key: string;
  readonly command: unknown;
  check?(reply: R): void;
  readonly [TYPED]: true;
}

/** The one way to make a JointAsk: `command` must be the command type `ref`'s kind declares (a misspelt field does not compile). */
export function jointAsk<S, C, R>(ref: ActorRef<S, C, R>, key: string, command: NoInfer<C>, check?: (reply: R) => void): JointAsk<R> {
  return { ref, key, command, ...(check ? { check } : {}), [TYPED]: true };
}

/**
 * Several actors' commands in ONE store write (issue 8 §1, atomic phases): each actor is parked
 * (its mailbox held) in (kind, key) order, so two joint writes over the same actors never wait
 * for each other in a circle; each decides against its own state; all their events, and the
 * rows `also` writes (an operation's phase, ledger rows), go into one transaction; each actor's
 * state moves on only after that COMMIT. A refusal (a throw from decide or check) writes nothing;
 * a failed write leaves every actor's memory as it was (reloaded before its next command). The
 * journal's unique (kind, key, seq) stays the last word: a write that lost one of its keys to
 * another process (a constraint failure while that key moved past the state decided on:
 * the same rule as ActorSystem's, decision 0040) is decided again on the caught-up actors,
 * DECIDE_ATTEMPTS times at most, then refused with actor_busy. Any other failure (a constraint of
 * `also`'s rows, another gateway's operation row) is thrown at once.
 * Returns the replies in the order of `asks`.
 */
export async function askTogether(
  store: Store,
  clock: Clock,
  asks: readonly JointAsk<any>[],
  also?: (tx: StoreDb) => Promise<void> | void,
): Promise<unknown[]> {
  for (let attempt = 1; ; attempt++) {
    const outcome = await once(store, clock, asks, also);
    if (!("lost" in outcome)) return outcome.replies;
    if (attempt >= DECIDE_ATTEMPTS) throw hotKey(outcome.lost, attempt);
    await backoff(attempt);
  }
}

async function once(
  store: Store,
  clock: Clock,
  asks: readonly JointAsk<any>[],
  also: ((tx: StoreDb) => Promise<void> | void) | undefined,
): Promise<{ replies: unknown[] } | { lost: string }> {
  const order = asks.map((a, i) => ({ a, i })).sort((x, y) => cmp(x.a.ref.kind, y.a.ref.kind) || cmp(x.a.key, y.a.key));
  for (let j = 1; j < order.length; j++) {
    if (order[j]!.a.ref.kind === order[j - 1]!.a.ref.kind && order[j]!.a.key === order[j - 1]!.a.key) throw new Error(`askTogether: ${order[j]!.a.key} named twice`);
  }
  const parked: Parked[] = [];
  try {
    for (const { a } of order) parked.push(await (a.ref as unknown as { [PARK](key: string): Promise<Parked> })[PARK](a.key));
    const now = clock.now();
    const decideAll = () =>
      order.map(({ a }, j) => {
        const d = parked[j]!.decide(a.command, now);
        a.check?.(d.reply);
        return d;
      });
    let decided = decideAll();
    try {
      await store.write(async (tx) => {
        // Another process may have written one of these keys while the write waited for the lock:
        // every state brought up to the store's here, under the lock, and all decided again, so
        // the joint write cannot lose a seq (decision 0040). A refusal now rolls back this write only.
        let moved = false;
        for (const p of parked) if (await p.catchUpUnderLock(tx)) moved = true;
        if (moved) decided = decideAll();
        for (const [j, d] of decided.entries()) if (d.effects !== null && d.effects !== undefined) await parked[j]!.persist(tx, d.effects, now);
        await also?.(tx);
      });
    } catch (e) {
      // Parked states are untouched (commit() never ran): after a lost race they are caught up at
      // the next park; after any other failure they are reloaded, the store being the truth.
      for (const p of parked) if (await p.lostRace(e).catch(() => false)) return { lost: p.kind };
      for (const p of parked) p.fail();
      throw e;
    }
    for (const [j, d] of decided.entries()) if (d.effects !== null && d.effects !== undefined) parked[j]!.commit(d.effects);
    const replies: unknown[] = new Array(asks.length);
    for (const [j, { i }] of order.entries()) replies[i] = decided[j]!.reply;
    return { replies };
  } finally {
    for (const p of parked) p.release();
  }
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
