import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { KeyedLock } from "@ndc/actors";
import { fingerprintOf, orderIds, RequestIdempotency, type Order } from "@ndc/orders";
import { boot, card, code, freeSeats, orderInput, OTHER_SELLER, SELLER, shop, tempDir, type Booted } from "./helpers";

let b: Booted;
const tmp = tempDir();

beforeAll(async () => {
  b = await boot(tmp.url);
});
afterAll(async () => {
  await b.close();
  tmp.cleanup();
});

describe("reading orders", () => {
  test("another seller's order is refused exactly like a missing one", async () => {
    const s = await shop(b, { tag: "mine" });
    const order = await b.orders.create(orderInput("mine", s));
    expect((await b.orders.retrieve(order.orderId, SELLER)).orderId).toBe(order.orderId);
    const errOf = async (p: Promise<unknown>) => p.then(() => undefined, (e) => ({ code: e.code, msg: e.message }));
    const theirs = await errOf(b.orders.retrieve(order.orderId, OTHER_SELLER));
    const missing = await errOf(b.orders.retrieve("ORD-000000000000".slice(0, order.orderId.length), SELLER));
    expect(theirs).toEqual({ code: "order_not_found", msg: theirs!.msg });
    expect(theirs!.msg.replace(order.orderId, "")).toBe(missing!.msg.replace("ORD-000000000000", ""));
    expect(await code(b.orders.history(order.orderId, OTHER_SELLER))).toBe("order_not_found");
    expect(await code(b.orders.retryPayment(order.orderId, OTHER_SELLER, [card(s.total)], "x"))).toBe("order_not_found");
    expect((await b.orders.list(OTHER_SELLER)).orders.map((o) => o.orderId)).not.toContain(order.orderId);
  });

  test("list filters by state, creation time, surname (never stored in clear), passenger count; pages", async () => {
    const made: Order[] = [];
    for (let i = 0; i < 5; i++) {
      b.clock.advance(1_000);
      const s = await shop(b, { tag: `list-${i}`, pax: 1 + (i % 2) });
      made.push(await b.orders.create(orderInput(`list-${i}`, s, { pax: 1 + (i % 2), ...(i < 2 ? { payment: [card(s.total)] } : {}) })));
    }
    const booked = await b.orders.list(SELLER, { states: ["booked"], createdFrom: made[0]!.createdAt });
    expect(booked.orders.map((o) => o.orderId).sort()).toEqual([made[0]!.orderId, made[1]!.orderId].sort());
    const twoPax = await b.orders.list(SELLER, { paxCount: 2, createdFrom: made[0]!.createdAt });
    expect(twoPax.orders.map((o) => o.orderId).sort()).toEqual([made[1]!.orderId, made[3]!.orderId].sort());
    const byron = await b.orders.list(SELLER, { paxSurname: " byron1 ", createdFrom: made[0]!.createdAt });
    expect(byron.orders.length).toBe(2);
    expect((await b.orders.list(OTHER_SELLER, { paxSurname: "BYRON1" })).orders.length).toBe(0);
    const index = (await b.store.db.all(sql`SELECT * FROM order_pax_index`)) as Record<string, string>[];
    expect(JSON.stringify(index)).not.toMatch(/BYRON|LOVELACE/i);

    // Keyset paging (docs/decisions/0009): each page gives the next one's cursor, no total.
    const p1 = await b.orders.list(SELLER, { createdFrom: made[0]!.createdAt }, { limit: 2 });
    expect(p1.orders.map((o) => o.orderId)).toEqual([made[4]!.orderId, made[3]!.orderId]);
    const p2 = await b.orders.list(SELLER, { createdFrom: made[0]!.createdAt }, { limit: 2, after: p1.next! });
    const p3 = await b.orders.list(SELLER, { createdFrom: made[0]!.createdAt }, { limit: 2, after: p2.next! });
    expect(p3.orders.map((o) => o.orderId)).toEqual([made[0]!.orderId]);
    expect(p3.next).toBeUndefined();
    expect(p1.next).toBeString();
    expect(await code(b.orders.list(SELLER, {}, { limit: 101 }))).toBe("request_invalid");
  });

  test("history lists each version with its change", async () => {
    const s = await shop(b, { tag: "hist", seats: [freeSeats(b.supply)[40]!] });
    const order = await b.orders.create(orderInput("hist", s, { payment: [card(s.total, "tok_decline")] }));
    await b.orders.retryPayment(order.orderId, SELLER, [card(s.total)], "pay");
    const h = await b.orders.history(order.orderId, SELLER);
    expect(h.map((e) => [e.version, e.kind, e.state])).toEqual([
      [1, "created", "held_payment_declined"],
      [2, "payment_authorised", "booked"],
      [3, "inventory_confirmed", "booked"],
      [4, "payment_captured", "booked"],
    ]);
    expect(h[1]!.changed).toEqual(["state", "legs", "paymentTimeLimit"]);
  });
});

describe("request idempotency", () => {
  const key = (trxId: string) => ({ clientId: SELLER.clientId, correlationId: "corr-idem", trxId });

  test("100 concurrent identical requests create exactly one order and all get the same bytes", async () => {
    const s = await shop(b, { tag: "idem", seats: [freeSeats(b.supply)[50]!] });
    const input = orderInput("idem", s, { payment: [card(s.total)] });
    const fp = fingerprintOf(input);
    let runs = 0;
    const answers = await Promise.all(
      Array.from({ length: 100 }, () =>
        b.orders.idempotency.run(key("t1"), fp, async () => {
          runs++;
          const order = await b.orders.create(input);
          return { status: 200, body: new TextEncoder().encode(`<OrderViewRS id="${order.orderId}" v="${order.version}"/>`) };
        }),
      ),
    );
    expect(runs).toBe(1);
    expect(answers.filter((a) => !a.replayed)).toHaveLength(1);
    const bodies = new Set(answers.map((a) => Buffer.from(a.body).toString("hex")));
    expect(bodies.size).toBe(1);
    const rows = (await b.store.db.all(sql`SELECT count(*) AS n FROM orders WHERE order_id IN (SELECT order_id FROM operations WHERE plan LIKE ${`%${fp}%`})`)) as { n: number }[];
    expect(Number(rows[0]!.n)).toBe(1);

    // the same key with another body
    expect(await b.orders.idempotency.begin(key("t1"), fingerprintOf({ ...input, trxId: "other" }))).toEqual({ kind: "conflict" });
    expect(await code(b.orders.idempotency.run(key("t1"), "f00", async () => ({ status: 200, body: new Uint8Array() })))).toBe("idempotency_conflict");
    // a replay is the exact bytes and status
    const replay = await b.orders.idempotency.begin(key("t1"), fp);
    expect(replay.kind).toBe("replay");
    if (replay.kind === "replay") {
      expect(replay.status).toBe(200);
      expect(Buffer.from(replay.body).equals(Buffer.from(answers[0]!.body))).toBe(true);
    }
  });

  test("a refusal is stored and replayed; an unexpected failure frees the key", async () => {
    const bytes = new Uint8Array([0, 255, 1, 254, 60]);
    const first = await b.orders.idempotency.run(key("t2"), "fp2", async () => ({ status: 402, body: bytes }));
    const again = await b.orders.idempotency.run(key("t2"), "fp2", async () => ({ status: 200, body: new Uint8Array() }));
    expect([first.replayed, again.replayed]).toEqual([false, true]);
    expect(again.status).toBe(402);
    expect(Array.from(again.body)).toEqual(Array.from(bytes));
    await expect(b.orders.idempotency.run(key("t3"), "fp3", async () => { throw new Error("boom"); })).rejects.toThrow("boom");
    expect((await b.orders.idempotency.begin(key("t3"), "fp3")).kind).toBe("new");
    await b.orders.idempotency.abandon(key("t3"));
  });

  // Another gateway process on the same store (or this one's previous boot): its own instance id.
  const instance = (owner: string) =>
    new RequestIdempotency(b.store, b.clock, { owner, lock: new KeyedLock(), operationIdOf: (k) => orderIds.createSaga(k.clientId, k.correlationId, k.trxId) });

  test("a request that died before its work opened left nothing to wait for; a late answer never overwrites the first", async () => {
    const dead = instance("instance-that-died");
    // Taking the key writes nothing (issue 8: the request's record is its operation's row).
    expect(await dead.begin(key("t4"), "fp4")).toEqual({ kind: "new" });
    expect(await b.orders.idempotency.begin(key("t4"), "fp4")).toEqual({ kind: "new" });
    expect(await b.orders.idempotency.complete(key("t4"), 201, "done", "fp4")).toBe(true);
    // The other holder (were it alive after all) cannot overwrite the stored answer.
    expect(await dead.complete(key("t4"), 500, "late", "fp4")).toBe(false);
    const r = await instance("a-later-boot").begin(key("t4"), "fp4");
    expect(r.kind === "replay" && r.status === 201 && new TextDecoder().decode(r.body)).toBe("done");
  });

  test("an operation another instance opened and left running: request_in_progress until the reconciler settles it", async () => {
    const id = orderIds.createSaga(key("t5").clientId, key("t5").correlationId, key("t5").trxId);
    // What a process killed after its open phase leaves: the row running under its lock.
    await b.store.write((tx) =>
      tx.run(sql`INSERT INTO operations (operation_id, kind, client_id, correlation_id, trx_id, fingerprint, order_id, owner_client_id, owner_agency_id, phase, status, plan, lock_owner, locked_at, created_at, updated_at)
                 VALUES (${id}, 'order_create', ${SELLER.clientId}, 'corr-idem', 't5', 'fp5', 'ORD-T5', ${SELLER.clientId}, ${SELLER.agencyId}, 'open', 'running', '{}', 'instance-that-died', 1, 1, 1)`),
    );
    const live = instance("this-boot");
    expect(await live.begin(key("t5"), "fp5")).toEqual({ kind: "wait" });
    const refused = await live.run(key("t5"), "fp5", async () => ({ status: 200, body: new Uint8Array() })).then(
      () => null,
      (e) => [e.code, e.retryAfterSeconds],
    );
    expect(refused).toEqual(["request_in_progress", 1]);
    // Waiting is no cure: a minute later the work is still the reconciler's.
    b.clock.advance(120_000);
    expect(await live.begin(key("t5"), "fp5")).toEqual({ kind: "wait" });
    // The same body is still judged by the row: another one is a conflict, not a wait.
    expect(await live.begin(key("t5"), "other")).toEqual({ kind: "conflict" });
    await b.store.write((tx) => tx.run(sql`UPDATE operations SET status = 'compensated' WHERE operation_id = ${id}`));
    expect(await live.begin(key("t5"), "fp5")).toEqual({ kind: "new" });
  });
  test("an operation with no request fingerprint (migrated without its request's row): another body is refused but not stored; the key's own body then gets its order", async () => {
    const s1 = await shop(b, { tag: "legacy", seats: [freeSeats(b.supply)[70]!] });
    const input = orderInput("legacy", s1, { payment: [card(s1.total)] });
    // Created without the request layer: its operation row carries no request fingerprint.
    const order = await b.orders.create(input);
    const k = { clientId: input.seller.clientId, correlationId: input.correlationId, trxId: input.trxId };
    const answer = (i: typeof input) => async () => {
      try {
        return { status: 200, body: new TextEncoder().encode((await b.orders.create(i)).orderId) };
      } catch (e) {
        return { status: 409, body: new TextEncoder().encode((e as { code: string }).code) };
      }
    };
    const other = { ...input, contact: { email: "someone-else@example.com" } };
    const refused = await b.orders.idempotency.run(k, fingerprintOf(other), answer(other));
    expect([refused.status, new TextDecoder().decode(refused.body)]).toEqual([409, "idempotency_conflict"]);
    const own = await b.orders.idempotency.run(k, fingerprintOf(input), answer(input));
    expect([own.status, new TextDecoder().decode(own.body), own.replayed]).toEqual([200, order.orderId, false]);
    const again = await b.orders.idempotency.run(k, fingerprintOf(input), answer(input));
    expect([again.status, again.replayed]).toEqual([200, true]);
    // Answered, the row carries the request's fingerprint: another body is a conflict at once.
    expect(await b.orders.idempotency.begin(k, fingerprintOf(other))).toEqual({ kind: "conflict" });
  });
});
