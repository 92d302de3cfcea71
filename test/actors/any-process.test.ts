import { afterEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { ActorSystem, askTogether, jointAsk, type ActorKind } from "@ndc/actors";
import { ManualClock } from "@ndc/clock";
import { GatewayError } from "@ndc/errors";
import type { Store } from "@ndc/store";
import { counterKind, type CounterCommand } from "../fixtures/actor-counter";
import { journalOf, openMigrated, tempDir } from "./helpers";

/**
 * Any process, any key (docs/decisions/0040): two ActorSystems, each with its own store (its own
 * writer and reader connections) on one database file, as two gateway processes are. A resident
 * actor is checked against the journal's head before every command; a write that lost its seq to
 * the other is decided again on the caught-up state; a key that never stops moving ends in actor_busy.
 */
let tmp: ReturnType<typeof tempDir>;
const opened: { store: Store; system: ActorSystem }[] = [];
afterEach(async () => {
  for (const { store, system } of opened.splice(0)) {
    await system.close();
    await store.close();
  }
  tmp?.cleanup();
});

type Counter = ActorKind<any, CounterCommand, any, any>;

/**
 * One "process": a store of its own on the shared file and an actor system over it. `counter:
 * false` hides the store's count of others' commits (as libSQL has none), so every command asks
 * the journal: the race tests put the other process's write right after that question.
 */
async function proc(kind: Counter = counterKind("test.n"), url?: string, o: { counter?: boolean } = {}) {
  if (!url) tmp = tempDir("ndc-any-process-");
  const own = await openMigrated(url ?? tmp.url, "bun-sqlite");
  const store: Store = o.counter === false ? { ...own, othersCommitted: undefined, close: () => own.close() } : own;
  const system = new ActorSystem({ store, clock: new ManualClock(), limits: { idleMs: 60_000, mailboxLimit: 10_000 }, sweepEveryMs: false });
  opened.push({ store, system });
  return { store, system, n: system.register(kind) };
}

/** The counter kind, counting its loads and catch-ups, and running `afterHead` after every freshness read and catch-up (where another process may write). */
function watched(afterHead?: () => Promise<void>, opts: { blindUnderLock?: boolean } = {}) {
  const base = counterKind("test.n");
  const seen = { loads: 0, catchUps: 0, heads: 0 };
  const kind: Counter = {
    ...base,
    load: (key, store) => (seen.loads++, base.load(key, store)),
    freshness: {
      ...base.freshness!,
      async movedSince(key, seq, store, db) {
        // Under the write lock (`db`, the write's own connection) no other process can write, so the
        // hook does not run there. `blindUnderLock` stands for a store that takes no lock up front (a
        // libSQL server): the check under the lock sees nothing and only the journal's key catches the race.
        if (db !== undefined) return opts.blindUnderLock ? false : base.freshness!.movedSince(key, seq, store, db);
        seen.heads++;
        const moved = await base.freshness!.movedSince(key, seq, store);
        await afterHead?.();
        return moved;
      },
      async catchUp(state, key, store, db) {
        if (db !== undefined) return base.freshness!.catchUp!(state, key, store, db);
        seen.catchUps++;
        const caughtUp = await base.freshness!.catchUp!(state, key, store);
        await afterHead?.();
        return caughtUp;
      },
    },
  };
  return { kind, seen };
}

/** The watched kind whose next freshness read (between it and the write) runs the race set with raceOnce, once. */
function racedOnce() {
  let race: (() => Promise<void>) | undefined;
  const w = watched(async () => {
    // Between the freshness read and the write: the other process takes the next seq.
    const r = race;
    race = undefined;
    await r?.();
  });
  return { w, raceOnce: (r: () => Promise<void>) => void (race = r) };
}

const bump = (id: string) => ({ op: "bump" as const, id });

describe("two processes, one journal", () => {
  test("a resident actor answers a query with what the other process wrote, reading only the newer events", async () => {
    const w = watched();
    const one = await proc();
    const two = await proc(w.kind, tmp.url);
    await one.n.ask("k", bump("a"));
    expect(await two.n.ask("k", { op: "read" })).toEqual({ seq: 1, total: 1 });
    expect(w.seen.loads).toBe(1);
    await one.n.ask("k", bump("b"));
    await one.n.ask("k", bump("c"));
    // Never trusted from memory: the query sees seq 3, by a catch-up, not a reload.
    expect(await two.n.ask("k", { op: "read" })).toEqual({ seq: 3, total: 3 });
    expect(w.seen).toMatchObject({ loads: 1, catchUps: 1, heads: 1 });
    // Nothing committed by another connection since: not even the freshness read (the store's
    // count of others' commits stood still), and the state is still the store's.
    expect(await two.n.ask("k", { op: "read" })).toEqual({ seq: 3, total: 3 });
    expect(await two.n.ask("k", bump("two")).then((r) => r.seq)).toBe(4);
    expect(w.seen).toMatchObject({ loads: 1, catchUps: 1, heads: 1 });
    // Another key written elsewhere moves the count: the next command asks again, finds k unmoved.
    await one.n.ask("other", bump("x"));
    expect(await two.n.ask("k", { op: "read" })).toEqual({ seq: 4, total: 4 });
    expect(w.seen).toMatchObject({ loads: 1, catchUps: 1, heads: 2 });
    expect(two.n.peek("k")).toEqual({ seq: 4, value: { total: 4, count: 4 } });
  });

  test("a command decided on a state the other process moved meanwhile is decided again after it (under the write lock), and is answered", async () => {
    const { w, raceOnce } = racedOnce();
    const one = await proc();
    const two = await proc(w.kind, tmp.url, { counter: false });
    await one.n.ask("k", bump("one-1"));
    await two.n.ask("k", { op: "read" });
    raceOnce(async () => void (await one.n.ask("k", bump("one-2"))));
    expect(await two.n.ask("k", bump("two"))).toEqual({ seq: 3, total: 3 });
    expect((await journalOf(one.store, "test.n", "k")).map((r) => [r.seq, r.id])).toEqual([[1, "one-1"], [2, "one-2"], [3, "two"]]);
    expect(w.seen.loads).toBe(1);
  });

  test("the same race in a joint write: decided again, nothing of the first decision kept", async () => {
    const { w, raceOnce } = racedOnce();
    const one = await proc();
    const two = await proc(w.kind, tmp.url, { counter: false });
    const other = two.system.register(counterKind("test.other"));
    await one.n.ask("k", bump("one-1"));
    await two.n.ask("k", { op: "read" });
    raceOnce(async () => void (await one.n.ask("k", bump("one-2"))));
    const replies = await askTogether(two.store, new ManualClock(), [jointAsk(two.n, "k", bump("two")), jointAsk(other, "y", bump("y"))]);
    expect(replies).toEqual([{ seq: 3, total: 3 }, { seq: 1, total: 1 }]);
    expect((await journalOf(one.store, "test.n", "k")).map((r) => r.id)).toEqual(["one-1", "one-2", "two"]);
    expect(await journalOf(one.store, "test.other", "y")).toEqual([{ seq: 1, id: "y" }]);
  });

  test("a key the other process moves before every write: decided again under the write lock and written, never refused", async () => {
    let i = 0;
    let racing = false;
    let oneN: Awaited<ReturnType<typeof proc>>["n"] | undefined;
    const w = watched(async () => {
      if (racing && oneN) await oneN.ask("k", bump(`one-${i++}`));
    });
    const one = await proc();
    oneN = one.n;
    const two = await proc(w.kind, tmp.url, { counter: false });
    await two.n.ask("k", { op: "read" }); // resident in `two`
    racing = true;
    // `one` writes between two's read of the key and its write: two's decision is taken again
    // under the lock on the caught-up state, so it lands after one's events, first time.
    const written = await two.n.ask("k", bump("two"));
    racing = false;
    expect(i).toBeGreaterThan(0);
    expect(written.seq).toBe(i + 1);
    const journal = (await journalOf(one.store, "test.n", "k")).map((r) => r.id);
    expect(journal).toEqual([...Array.from({ length: i }, (_, j) => `one-${j}`), "two"]);
    const joint = await askTogether(two.store, new ManualClock(), [jointAsk(two.n, "k", bump("joint"))]);
    expect(joint).toEqual([{ seq: i + 2, total: i + 2 }]);
  });

  test("where the store takes no lock up front, a key moved before every write: actor_busy with Retry-After after the bounded attempts, nothing written", async () => {
    let i = 0;
    let racing = false;
    let oneN: Awaited<ReturnType<typeof proc>>["n"] | undefined;
    const w = watched(async () => {
      if (racing && oneN) await oneN.ask("k", bump(`one-${i++}`));
    }, { blindUnderLock: true });
    const one = await proc();
    oneN = one.n;
    const two = await proc(w.kind, tmp.url, { counter: false });
    await two.n.ask("k", { op: "read" }); // resident in `two`
    racing = true;
    const refused = await two.n.ask("k", bump("two")).then(() => null, (e: unknown) => e);
    expect(refused).toBeInstanceOf(GatewayError);
    expect(refused).toMatchObject({ code: "actor_busy", retryAfterSeconds: 1 });
    expect((await journalOf(one.store, "test.n", "k")).map((r) => r.id)).not.toContain("two");
    racing = false;
    // The key usable again once it calms down.
    expect((await two.n.ask("k", bump("two-again"))).seq).toBe(i + 1);
    const joint = await askTogether(two.store, new ManualClock(), [jointAsk(two.n, "k", bump("joint"))]).catch((e: unknown) => e);
    expect(joint).toEqual([{ seq: i + 2, total: i + 2 }]);
    racing = true;
    const jointRefused = await askTogether(two.store, new ManualClock(), [jointAsk(two.n, "k", bump("joint-2"))]).then(() => null, (e: unknown) => e);
    expect(jointRefused).toMatchObject({ code: "actor_busy", retryAfterSeconds: 1 });
  });

  test("a constraint failure that is not the journal's (another table's row) is thrown at once, not retried", async () => {
    const base = counterKind("test.n");
    let persists = 0;
    const kind: Counter = {
      ...base,
      async persist(tx, key, effects, ctx) {
        persists++;
        await base.persist(tx, key, effects, ctx);
        await tx.run(sql`INSERT INTO once_only (id) VALUES ('same')`);
      },
    };
    const one = await proc(kind);
    await one.store.write((_tx, raw) => raw.exec("CREATE TABLE once_only (id TEXT PRIMARY KEY)"));
    await one.n.ask("k", bump("a"));
    const error = await one.n.ask("k", bump("b")).then(() => null, (e: unknown) => e);
    expect(String((error as Error)?.message ?? error)).toMatch(/UNIQUE|constraint|once_only/i);
    expect(persists).toBe(2);
    expect((await journalOf(one.store, "test.n", "k")).map((r) => r.id)).toEqual(["a"]);
  });

  test("a hot key bumped 300 times from each process at once: no lost update, no fork, both agree", async () => {
    const one = await proc();
    const two = await proc(counterKind("test.n"), tmp.url);
    const N = 300;
    const asks: Promise<unknown>[] = [];
    const busy = { one: 0, two: 0 };
    // A refused ask is retried, as a seller does after Retry-After: every bump ends up applied once.
    const ask = async (p: typeof one, name: "one" | "two", id: string): Promise<void> => {
      for (;;) {
        try {
          await p.n.ask("k", bump(id));
          return;
        } catch (e) {
          if (!(e instanceof GatewayError) || e.code !== "actor_busy") throw e;
          busy[name]++;
        }
      }
    };
    for (let i = 0; i < N; i++) asks.push(ask(one, "one", `one-${i}`), ask(two, "two", `two-${i}`));
    await Promise.all(asks);
    const rows = await journalOf(one.store, "test.n", "k");
    expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 2 * N }, (_, i) => i + 1));
    expect(new Set(rows.map((r) => r.id)).size).toBe(2 * N);
    expect(await one.n.ask("k", { op: "read" })).toEqual({ seq: 2 * N, total: 2 * N });
    expect(await two.n.ask("k", { op: "read" })).toEqual({ seq: 2 * N, total: 2 * N });
    console.log(`hot key over two processes: ${2 * N} bumps, actor_busy retried: ${JSON.stringify(busy)}`);
  }, 60_000);
});
