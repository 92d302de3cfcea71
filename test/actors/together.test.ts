import { afterEach, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { ActorSystem, askTogether, jointAsk } from "@ndc/actors";
import { ManualClock } from "@ndc/clock";
import type { Store } from "@ndc/store";
import { counterKind } from "../fixtures/actor-counter";
import { journalOf, openMigrated, tempDir } from "./helpers";

/**
 * askTogether (packages/actors/src/together.ts, issue 8 §1): several actors' commands in one
 * store write; each actor applies its state only after the COMMIT; a refusal or a failed write
 * changes nothing anywhere; the journal's (kind, key, seq) stays the last word across processes.
 */
let tmp: ReturnType<typeof tempDir>;
const opened: Store[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
  tmp?.cleanup();
});

async function setup(url?: string) {
  if (!url) tmp = tempDir("ndc-together-");
  const store = await openMigrated(url ?? tmp.url, "bun-sqlite");
  opened.push(store);
  const clock = new ManualClock();
  const system = new ActorSystem({ store, clock, limits: { idleMs: 60_000, mailboxLimit: 100 }, sweepEveryMs: false });
  const a = system.register(counterKind("test.a"));
  const c = system.register(counterKind("test.c"));
  return { store, clock, system, a, c };
}

const bump = (id: string, by = 1) => ({ op: "bump" as const, id, by });

describe("askTogether", () => {
  test("three actors' commands and an extra row: one write, every reply, every actor's state after the COMMIT", async () => {
    const { store, clock, a, c } = await setup();
    await store.write((_tx, raw) => raw.exec("CREATE TABLE extra (v TEXT NOT NULL)"));
    const before = store.commits.transactions;
    const replies = await askTogether(store, clock, [jointAsk(a, "x", bump("a1")), jointAsk(c, "y", bump("c1", 2)), jointAsk(a, "w", bump("w1"))], (tx) =>
      tx.run(sql`INSERT INTO extra (v) VALUES ('with them')`),
    );
    expect(store.commits.transactions - before).toBe(1);
    expect(replies).toEqual([{ seq: 1, total: 1 }, { seq: 1, total: 2 }, { seq: 1, total: 1 }]);
    expect(await a.ask("x", { op: "read" })).toEqual({ seq: 1, total: 1 });
    expect(await c.ask("y", { op: "read" })).toEqual({ seq: 1, total: 2 });
    expect(await journalOf(store, "test.c", "y")).toEqual([{ seq: 1, id: "c1" }]);
    expect(await store.db.all(sql`SELECT v FROM extra`)).toEqual([{ v: "with them" }]);
  });

  test("one refusal (a throw from decide) writes nothing for any of them", async () => {
    const { store, clock, a, c } = await setup();
    const before = store.commits.transactions;
    const refused = askTogether(store, clock, [jointAsk(a, "x", bump("a1")), jointAsk(c, "y", bump("bad", -1))]);
    await expect(refused).rejects.toMatchObject({ code: "request_invalid" });
    expect(store.commits.transactions - before).toBe(0);
    expect(await a.ask("x", { op: "read" })).toEqual({ seq: 0, total: 0 });
    expect(await journalOf(store, "test.a", "x")).toEqual([]);
  });

  test("a failed write (the extra rows throw) leaves every actor's memory and journal as before", async () => {
    const { store, clock, a, c } = await setup();
    await a.ask("x", bump("a0"));
    await expect(
      askTogether(store, clock, [jointAsk(a, "x", bump("a1")), jointAsk(c, "y", bump("c1"))], () => {
        throw new Error("the extra rows failed");
      }),
    ).rejects.toThrow("the extra rows failed");
    expect(await a.ask("x", { op: "read" })).toEqual({ seq: 1, total: 1 });
    expect(await c.ask("y", { op: "read" })).toEqual({ seq: 0, total: 0 });
    expect(await journalOf(store, "test.a", "x")).toEqual([{ seq: 1, id: "a0" }]);
    expect(await journalOf(store, "test.c", "y")).toEqual([]);
  });

  test("joint writes naming the same actors in opposite orders, with single commands between, all finish (parked in key order)", async () => {
    const { store, clock, a } = await setup();
    const work: Promise<unknown>[] = [];
    for (let i = 0; i < 40; i++) {
      const keys = i % 2 ? ["p", "q"] : ["q", "p"];
      work.push(askTogether(store, clock, keys.map((key) => (jointAsk(a, key, bump(`j${i}-${key}`))))));
      work.push(a.ask(keys[0]!, bump(`s${i}`)));
    }
    await Promise.all(work);
    expect(await a.ask("p", { op: "read" })).toEqual({ seq: 60, total: 60 });
    expect(await a.ask("q", { op: "read" })).toEqual({ seq: 60, total: 60 });
  });

  test("two processes on one file: a resident actor behind the other process is caught up before the joint write decides", async () => {
    const one = await setup();
    const two = await setup(tmp.url);
    await one.a.ask("x", bump("one-1"));
    await two.a.ask("x", { op: "read" }); // resident in `two` at seq 1
    await one.a.ask("x", bump("one-2")); // `two` does not know
    const joint = [jointAsk(two.a, "x", bump("two-3")), jointAsk(two.c, "y", bump("two-y"))];
    expect(await askTogether(two.store, two.clock, joint)).toEqual([{ seq: 3, total: 3 }, { seq: 1, total: 1 }]);
    expect(await journalOf(one.store, "test.a", "x")).toEqual([{ seq: 1, id: "one-1" }, { seq: 2, id: "one-2" }, { seq: 3, id: "two-3" }]);
    // The lost race itself (the other process writes between the head read and the COMMIT): test/actors/any-process.test.ts.
  });
});
