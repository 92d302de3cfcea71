import { afterEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { ActorSystem, appendEvents, defineActorKind, type ActorKind } from "@ndc/actors";
import { ManualClock } from "@ndc/clock";
import { GatewayError } from "@ndc/errors";
import type { Store } from "@ndc/store";
import { counterKind, type CounterCommand } from "../fixtures/actor-counter";
import { DRIVERS, gate, journalOf, openMigrated, tempDir } from "./helpers";

const KIND = "test.counter";

describe.each(DRIVERS)("actor runtime on %s", (driver) => {
  const opened: { store: Store; system: ActorSystem }[] = [];
  let tmp: ReturnType<typeof tempDir>;
  afterEach(async () => {
    for (const { store, system } of opened.splice(0)) {
      await system.close();
      await store.close();
    }
    tmp?.cleanup();
  });
  async function boot(limits = { idleMs: 60_000, mailboxLimit: 10_000 }, clock = new ManualClock(), url?: string) {
    if (!url) tmp = tempDir();
    const store = await openMigrated(url ?? tmp.url, driver);
    const system = new ActorSystem({ store, clock, limits, sweepEveryMs: false });
    opened.push({ store, system });
    return { store, system, clock };
  }
  /** Closes one booted pair early (a "restart"); afterEach skips it. */
  async function shutdown(store: Store, system: ActorSystem) {
    opened.splice(opened.findIndex((o) => o.store === store), 1);
    await system.close();
    await store.close();
  }

  test("(a) 1,000 concurrent commands on one key apply exactly once, in order", async () => {
    const { store, system } = await boot();
    const counter = system.register(counterKind(KIND));
    const replies = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => counter.ask("k", { op: "bump", id: `c${i}` })),
    );
    // FIFO mailbox: the i-th command asked is the i-th applied.
    expect(replies.map((r) => r.seq)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
    expect(replies.at(-1)).toEqual({ seq: 1000, total: 1000 });
    expect(counter.peek("k")).toEqual({ seq: 1000, value: { total: 1000, count: 1000 } });
    const rows = await journalOf(store, KIND, "k");
    expect(rows).toHaveLength(1000);
    expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
    expect(new Set(rows.map((r) => r.id)).size).toBe(1000);
    expect(rows.map((r) => r.id)).toEqual(Array.from({ length: 1000 }, (_, i) => `c${i}`));
  });

  test("keys are independent: a slow key does not hold up another", async () => {
    const { system } = await boot();
    const hold = gate();
    const slow = system.register(
      defineActorKind<number, "go", number, number>({
        name: "test.slow",
        load: async (key) => (key === "slow" ? hold.wait.then(() => 0) : 0),
        decide: (s) => ({ effects: 1, reply: s + 1 }),
        persist: () => undefined,
        apply: (s, e) => s + e,
      }),
    );
    const blocked = slow.ask("slow", "go");
    expect(await slow.ask("fast", "go")).toBe(1);
    hold.open();
    expect(await blocked).toBe(1);
  });

  describe("(b) a failed write leaves memory unchanged and rejects the command", () => {
    test("persist throws after writing a row: rolled back, state object untouched", async () => {
      const { store, system } = await boot();
      const boom = new Error("disk said no");
      const base = counterKind(KIND);
      const flaky: ActorKind<any, CounterCommand, any, any> = {
        ...base,
        async persist(tx, key, effects, ctx) {
          await base.persist(tx, key, effects, ctx);
          if (effects.events[0].id === "poison") throw boom;
        },
      };
      const counter = system.register(flaky);
      await counter.ask("k", { op: "bump", id: "ok-1", by: 5 });
      const before = counter.peek("k");
      await expect(counter.ask("k", { op: "bump", id: "poison", by: 100 })).rejects.toBe(boom);
      expect(counter.peek("k")).toBe(before);
      expect(counter.peek("k")).toEqual({ seq: 1, value: { total: 5, count: 1 } });
      expect((await journalOf(store, KIND, "k")).map((r) => r.id)).toEqual(["ok-1"]);
      // The next command continues from the durable state: seq 2, not 3.
      expect(await counter.ask("k", { op: "bump", id: "ok-2" })).toEqual({ seq: 2, total: 6 });
      expect((await journalOf(store, KIND, "k")).map((r) => [r.seq, r.id])).toEqual([[1, "ok-1"], [2, "ok-2"]]);
    });

    test("another writer took the next seq behind the actor's back: caught up before the next command, which continues after it", async () => {
      const { store, system, clock } = await boot();
      const counter = system.register(counterKind(KIND));
      await counter.ask("k", { op: "bump", id: "mine-1" });
      // A second writer for the key (another process) commits seq 2 behind our back.
      await store.write((tx) => appendEvents(tx, { kind: KIND, key: "k", afterSeq: 1, now: clock.now() }, [{ id: "theirs", by: 10 }]));
      expect(counter.peek("k")).toEqual({ seq: 1, value: { total: 1, count: 1 } });
      // The head moved: the actor reads seq 2 before deciding (docs/decisions/0040), never forks.
      expect(await counter.ask("k", { op: "bump", id: "mine-2" })).toEqual({ seq: 3, total: 12 });
      expect((await journalOf(store, KIND, "k")).map((r) => r.id)).toEqual(["mine-1", "theirs", "mine-2"]);
    });

    test("a refusal from decide writes nothing and keeps the actor usable", async () => {
      const { store, system } = await boot();
      const counter = system.register(counterKind(KIND));
      await counter.ask("k", { op: "bump", id: "a" });
      const error = await counter.ask("k", { op: "bump", id: "b", by: -3 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GatewayError);
      expect((error as GatewayError).code).toBe("request_invalid");
      expect(counter.peek("k")).toEqual({ seq: 1, value: { total: 1, count: 1 } });
      expect(await journalOf(store, KIND, "k")).toHaveLength(1);
      expect(await counter.ask("k", { op: "bump", id: "c" })).toEqual({ seq: 2, total: 2 });
    });

    test("apply failing after commit still answers (the command is durable) and reloads", async () => {
      const { store } = await boot();
      const base = counterKind(KIND);
      let broken = true;
      const reported: string[] = [];
      const sys2 = new ActorSystem({
        store,
        clock: new ManualClock(),
        limits: { idleMs: 1000, mailboxLimit: 10 },
        sweepEveryMs: false,
        onApplyError: (kind, key) => reported.push(`${kind}/${key}`),
      });
      opened.push({ store: { close: async () => undefined } as unknown as Store, system: sys2 });
      const counter = sys2.register({
        ...base,
        apply: (s, e) => {
          if (broken) throw new Error("bug in apply");
          return base.apply(s, e);
        },
      });
      expect(await counter.ask("k", { op: "bump", id: "x" })).toEqual({ seq: 1, total: 1 });
      expect(reported).toEqual([`${KIND}/k`]);
      broken = false;
      expect(await counter.ask("k", { op: "read" })).toEqual({ seq: 1, total: 1 });
      expect(await journalOf(store, KIND, "k")).toHaveLength(1);
    });
  });

  test("(c) rehydration after closing and reopening the store", async () => {
    const first = await boot();
    const url = tmp.url;
    const c1 = first.system.register(counterKind(KIND));
    for (let i = 0; i < 7; i++) await c1.ask("order-1", { op: "bump", id: `a${i}`, by: i + 1 });
    await c1.ask("order-2", { op: "bump", id: "b0", by: 100 });
    await shutdown(first.store, first.system);

    const second = await boot(undefined, new ManualClock(), url);
    const c2 = second.system.register(counterKind(KIND));
    expect(c2.isResident("order-1")).toBe(false);
    expect(c2.peek("order-1")).toBeUndefined();
    expect(await c2.ask("order-1", { op: "read" })).toEqual({ seq: 7, total: 28 });
    expect(c2.peek("order-1")).toEqual({ seq: 7, value: { total: 28, count: 7 } });
    expect(await c2.ask("order-1", { op: "bump", id: "a7" })).toEqual({ seq: 8, total: 29 });
    expect(await c2.ask("order-2", { op: "read" })).toEqual({ seq: 1, total: 100 });
    expect((await journalOf(second.store, KIND, "order-1")).map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  test("(c) rehydration from a snapshot replays only the events after it", async () => {
    const first = await boot();
    const url = tmp.url;
    const c1 = first.system.register(counterKind(KIND, 5));
    for (let i = 0; i < 12; i++) await c1.ask("k", { op: "bump", id: `e${i}` });
    const snap = (await first.store.db.all(sql`SELECT seq, state FROM actor_snapshots WHERE kind = ${KIND} AND key = 'k'`)) as { seq: number; state: string }[];
    expect(snap).toEqual([{ seq: 10, state: JSON.stringify({ total: 10, count: 10 }) }]);
    await shutdown(first.store, first.system);

    const second = await boot(undefined, new ManualClock(), url);
    // Prove the snapshot is used: make the events it covers unreadable as counter events.
    await second.store.write((tx) => tx.run(sql`UPDATE actor_journal SET payload = '{"id":"x","by":1000}' WHERE kind = ${KIND} AND seq <= 10`));
    const c2 = second.system.register(counterKind(KIND, 5));
    expect(await c2.ask("k", { op: "read" })).toEqual({ seq: 12, total: 12 });
  });

  test("(d) idle actors are evicted after idleMs and reload on next use", async () => {
    const { system, clock } = await boot({ idleMs: 1000, mailboxLimit: 100 });
    let loads = 0;
    const base = counterKind(KIND);
    const counter = system.register({ ...base, load: (key, store) => (loads++, base.load(key, store)) });
    for (let k = 0; k < 50; k++) await counter.ask(`k${k}`, { op: "bump", id: `x${k}`, by: k + 1 });
    expect(system.size).toBe(50);
    expect(loads).toBe(50);
    clock.advance(999);
    await counter.ask("k7", { op: "bump", id: "again" }); // k7 is used again, so not idle
    clock.advance(1);
    expect(system.evictIdle()).toBe(49);
    expect(system.size).toBe(1);
    expect(counter.isResident("k7")).toBe(true);
    expect(counter.isResident("k3")).toBe(false);
    expect(await counter.ask("k3", { op: "read" })).toEqual({ seq: 1, total: 4 });
    expect(loads).toBe(51);
    clock.advance(1000);
    expect(system.evictIdle()).toBe(2);
    expect(system.size).toBe(0);
  });

  test("(d) an actor with commands in its mailbox is never evicted", async () => {
    const { system, clock } = await boot({ idleMs: 1000, mailboxLimit: 100 });
    const hold = gate();
    const base = counterKind(KIND);
    const counter = system.register({ ...base, load: async (key, store) => (await hold.wait, base.load(key, store)) });
    const pending = counter.ask("busy", { op: "bump", id: "p" });
    clock.advance(10_000);
    expect(system.evictIdle()).toBe(0);
    hold.open();
    expect(await pending).toEqual({ seq: 1, total: 1 });
    expect(system.evictIdle()).toBe(0); // just used
    clock.advance(1000);
    expect(system.evictIdle()).toBe(1);
  });

  test("(e) a full mailbox refuses the next command at once with actor_busy", async () => {
    const { store, system } = await boot({ idleMs: 60_000, mailboxLimit: 3 });
    const hold = gate();
    const base = counterKind(KIND);
    const counter = system.register({
      ...base,
      persist: async (tx, key, effects, ctx) => {
        await hold.wait;
        await base.persist(tx, key, effects, ctx);
      },
    });
    const accepted = [1, 2, 3].map((i) => counter.ask("k", { op: "bump", id: `in${i}` }));
    const refused = await counter.ask("k", { op: "bump", id: "out" }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(GatewayError);
    expect((refused as GatewayError).code).toBe("actor_busy");
    expect((refused as GatewayError).retryAfterSeconds).toBe(1);
    // Another key has a mailbox of its own.
    const other = counter.ask("other", { op: "bump", id: "o" });
    hold.open();
    expect((await Promise.all(accepted)).map((r) => r.seq)).toEqual([1, 2, 3]);
    await other;
    // Drained: room again.
    expect(await counter.ask("k", { op: "bump", id: "in4" })).toEqual({ seq: 4, total: 4 });
    expect((await journalOf(store, KIND, "k")).map((r) => r.id)).toEqual(["in1", "in2", "in3", "in4"]);
  });

  test("close drains the mailboxes, then refuses", async () => {
    const { system } = await boot();
    const counter = system.register(counterKind(KIND));
    const inFlight = Array.from({ length: 20 }, (_, i) => counter.ask("k", { op: "bump", id: `z${i}` }));
    await system.close();
    expect((await Promise.all(inFlight)).at(-1)).toEqual({ seq: 20, total: 20 });
    await expect(counter.ask("k", { op: "read" })).rejects.toThrow("closing");
  });

  test("a kind name can be registered once", async () => {
    const { system } = await boot();
    system.register(counterKind(KIND));
    expect(() => system.register(counterKind(KIND))).toThrow("already registered");
  });
});
