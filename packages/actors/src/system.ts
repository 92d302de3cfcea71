import { atSellerOffset, sellerOffset, type Clock } from "@ndc/clock";
import { GatewayError } from "@ndc/errors";
import type { Store } from "@ndc/store";
import { newCell, type Cell } from "./cell";
import { backoff, bringUpToDate, caughtUpUnderLock, DECIDE_ATTEMPTS, hotKey, lostRace } from "./fresh";
import type { ActorKind } from "./kind";
import { PARK, Park, type Parked } from "./park";

export interface ActorLimits {
  /** An actor with nothing queued is dropped from memory after this long without a command. */
  idleMs: number;
  /** Commands one key may hold (queued plus in progress); the next is refused with actor_busy. */
  mailboxLimit: number;
}

export interface ActorSystemOptions {
  store: Store;
  clock: Clock;
  /** GatewayConfig.actors. */
  limits: ActorLimits;
  /** How often the idle sweep runs (real time); false for none (tests call evictIdle()). */
  sweepEveryMs?: number | false;
  /** A kind's apply() threw after its effects committed: a bug to report, not a refusal. */
  onApplyError?(kind: string, key: string, error: unknown): void;
}

/** The handle for one registered kind. */
export interface ActorRef<S, C, R> {
  readonly kind: string;
  /** Queues the command for its key; settles once it is durable and applied, or refused. */
  ask(key: string, command: C): Promise<R>;
  /** The in-memory state of a resident, loaded actor (tests, diagnostics); never loads. */
  peek(key: string): S | undefined;
  isResident(key: string): boolean;
  /** For askTogether: waits for the key's turn and holds its mailbox until released. */
  [PARK](key: string): Promise<Parked>;
}

interface Registered {
  kind: ActorKind<any, any, any, any>;
  cells: Map<string, Cell<any, any>>;
}

/**
 * Keyed actors with bounded mailboxes and write-ahead persistence (DESIGN 4). Per key one
 * command runs at a time; its effects are committed with store.write before they are applied
 * in memory and answered, so an answered command is durable and a failed write changes nothing.
 */
export class ActorSystem {
  private readonly kinds = new Map<string, Registered>();
  private readonly timer: ReturnType<typeof setInterval> | undefined;
  private closing = false;

  constructor(private readonly opts: ActorSystemOptions) {
    const every = opts.sweepEveryMs ?? Math.min(opts.limits.idleMs, 60_000);
    if (every !== false) {
      this.timer = setInterval(() => this.evictIdle(), Math.max(every, 10));
      // The sweep alone must not keep a process alive.
      (this.timer as { unref?: () => void }).unref?.();
    }
  }

  register<S, C, E, R>(kind: ActorKind<S, C, E, R>): ActorRef<S, C, R> {
    if (this.kinds.has(kind.name)) throw new Error(`actor kind already registered: ${kind.name}`);
    const reg: Registered = { kind, cells: new Map() };
    this.kinds.set(kind.name, reg);
    return {
      kind: kind.name,
      ask: (key, command) => this.ask(reg, key, command) as Promise<R>,
      peek: (key) => {
        const cell = reg.cells.get(key);
        return cell?.loaded ? (cell.state as S) : undefined;
      },
      isResident: (key) => reg.cells.has(key),
      [PARK]: (key) => this.ask(reg, key, new Park()) as Promise<Parked>,
    };
  }

  /** Actors held in memory, all kinds together. */
  get size(): number {
    let n = 0;
    for (const reg of this.kinds.values()) n += reg.cells.size;
    return n;
  }

  /** Drops every actor idle for idleMs or more with an empty mailbox; returns how many. */
  evictIdle(): number {
    const cutoff = this.idleNow() - this.opts.limits.idleMs;
    let evicted = 0;
    for (const reg of this.kinds.values()) {
      for (const [key, cell] of reg.cells) {
        if (cell.pending === 0 && cell.lastUsed <= cutoff) {
          reg.cells.delete(key);
          evicted++;
        }
      }
    }
    return evicted;
  }

  /** Refuses new commands, waits for every mailbox to drain, stops the sweep. */
  async close(): Promise<void> {
    this.closing = true;
    if (this.timer) clearInterval(this.timer);
    while (this.busy()) await new Promise((r) => setTimeout(r, 5));
  }

  /** Idle time is real time (the clock without the sender's sandbox offset): a seller's moved clock must not keep its actors resident. */
  private idleNow(): number {
    return this.opts.clock.now() - sellerOffset();
  }

  private busy(): boolean {
    for (const reg of this.kinds.values()) for (const cell of reg.cells.values()) if (cell.pending > 0) return true;
    return false;
  }

  private ask(reg: Registered, key: string, command: unknown): Promise<unknown> {
    if (this.closing) return Promise.reject(new Error("actor system is closing"));
    let cell = reg.cells.get(key);
    if (!cell) {
      cell = newCell(key, this.idleNow());
      reg.cells.set(key, cell);
    }
    if (cell.pending >= this.opts.limits.mailboxLimit) {
      // Refused at once, never queued: an unbounded queue would only hide the overload.
      return Promise.reject(
        new GatewayError("actor_busy", { detail: `(${reg.kind.name} mailbox full)`, retryAfterSeconds: 1 }),
      );
    }
    cell.pending++;
    const target = cell;
    const offsetMs = sellerOffset();
    const reply = new Promise((resolve, reject) => target.mailbox.push({ command, offsetMs, resolve, reject }));
    if (!target.draining) {
      target.draining = true;
      // Started on a microtask so a burst of asks queues up before the first runs.
      queueMicrotask(() => void this.drain(reg, target));
    }
    return reply;
  }

  private async drain(reg: Registered, cell: Cell<unknown, unknown>): Promise<void> {
    try {
      for (let letter = cell.mailbox.shift(); letter; letter = cell.mailbox.shift()) {
        try {
          // The mailbox drains in whichever sender's context started it: each command runs on its own sender's time.
          const { command, resolve } = letter;
          if (command instanceof Park) await atSellerOffset(letter.offsetMs, () => this.parkHere(reg, cell, command, resolve));
          else resolve(await atSellerOffset(letter.offsetMs, () => this.handle(reg, cell, command)));
        } catch (e) {
          letter.reject(e);
        } finally {
          cell.pending--;
          cell.lastUsed = this.idleNow();
        }
      }
    } finally {
      cell.draining = false;
    }
  }

  private loaded(reg: Registered, cell: Cell<unknown, unknown>): Promise<void> {
    return bringUpToDate(reg.kind, cell, this.opts.store);
  }

  /**
   * A joint write's turn at this key (askTogether): the actor is loaded and handed over; its
   * mailbox waits until the joint write released it, so nothing else is decided against the
   * state in between. Its state changes only through commit(), after the joint COMMIT.
   */
  private async parkHere(reg: Registered, cell: Cell<unknown, unknown>, park: Park, resolve: (p: Parked) => void): Promise<void> {
    await this.loaded(reg, cell);
    const { kind } = reg;
    const ctxOf = (now: number) => ({ kind: kind.name, key: cell.key, now });
    resolve({
      kind: kind.name,
      key: cell.key,
      decide: (command, now) => kind.decide(cell.state, command, ctxOf(now)),
      persist: (tx, effects, now) => kind.persist(tx, cell.key, effects, { ...ctxOf(now), state: cell.state }),
      commit: (effects) => {
        try {
          cell.state = kind.apply(cell.state, effects);
        } catch (e) {
          cell.stale = true;
          (this.opts.onApplyError ?? defaultApplyError)(kind.name, cell.key, e);
        }
      },
      catchUpUnderLock: async (tx) => {
        const current = await caughtUpUnderLock(kind, cell, cell.state, this.opts.store, tx);
        if (current === undefined) return false;
        // Parked: nothing else decides on this state until release, and it is now the store's.
        cell.state = current;
        return true;
      },
      lostRace: async (error) => {
        const lost = await lostRace(kind, cell.key, cell.state, error, this.opts.store);
        if (lost) cell.othersSeen = undefined;
        return lost;
      },
      fail: () => void (cell.stale = true),
      release: () => park.release(),
    });
    await park.released;
  }

  /**
   * One command: brought up to the store, decided, written, then applied and answered. A write
   * that lost the key to another process (the journal's seq taken first) is decided again on the
   * caught-up state, DECIDE_ATTEMPTS times at most, then refused with actor_busy (decision 0040).
   */
  private async handle(reg: Registered, cell: Cell<unknown, unknown>, command: unknown): Promise<unknown> {
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.once(reg, cell, command);
      if (!("lost" in outcome)) return outcome.reply;
      if (attempt >= DECIDE_ATTEMPTS) throw hotKey(reg.kind.name, attempt);
      await backoff(attempt);
    }
  }

  private async once(reg: Registered, cell: Cell<unknown, unknown>, command: unknown): Promise<{ reply: unknown } | { lost: true }> {
    const { kind } = reg;
    const { store, clock } = this.opts;
    await this.loaded(reg, cell);
    const ctx = { kind: kind.name, key: cell.key, now: clock.now() };
    let before = cell.state;
    let decision = kind.decide(before, command, ctx);
    if (decision.effects === null || decision.effects === undefined) return { reply: decision.reply };
    try {
      await store.write(async (tx) => {
        // Another process may have written the key while this write waited for the lock: decided
        // again here, on the store's state, the write cannot lose its seq (decision 0040).
        const current = await caughtUpUnderLock(kind, cell, before, store, tx);
        if (current !== undefined) {
          before = current;
          decision = kind.decide(before, command, ctx);
        }
        const effects = decision.effects;
        if (effects !== null && effects !== undefined) await kind.persist(tx, cell.key, effects, { ...ctx, state: before });
      });
    } catch (e) {
      if (await lostRace(kind, cell.key, before, e, store).catch(() => false)) {
        // Caught up before the next attempt, whatever the counter of others' commits says.
        cell.othersSeen = undefined;
        return { lost: true };
      }
      // Memory keeps the state it had. The next command reloads it first anyway: if a server
      // commit failed ambiguously (the network dropped after COMMIT), the store is the truth.
      cell.stale = true;
      throw e;
    }
    if (decision.effects === null || decision.effects === undefined) {
      // Decided again under the lock, the command changed nothing: the caught-up state is the store's.
      cell.state = before;
      return { reply: decision.reply };
    }
    try {
      cell.state = kind.apply(before, decision.effects);
    } catch (e) {
      // The effects are durable and the reply is true; only memory is behind. Reload it.
      cell.stale = true;
      (this.opts.onApplyError ?? defaultApplyError)(kind.name, cell.key, e);
    }
    return { reply: decision.reply };
  }
}

function defaultApplyError(kind: string, key: string, error: unknown): void {
  console.error(`actor ${kind}: apply() failed after commit; state will be reloaded`, { key, error });
}
