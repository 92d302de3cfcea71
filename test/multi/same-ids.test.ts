import { afterAll, expect, test } from "bun:test";
import { openStore, tables } from "@ndc/store";
import { databaseUrlFor } from "../support/database";
import { footprint } from "../crash/support";
import { orderCreateRQ, orderIdOf, shopOffer, TRAVEL_DATE } from "../orders-http/helpers";
import { errorCode } from "../support/gateway";
import { multiDataDir, type Worker } from "./support";

/**
 * Idempotency across processes (issue 22 item 4): 100 OrderCreateRQs with one CorrelationID and
 * TrxID sent at once, alternately to two workers on one data directory, make one order and one
 * charge. Every answer is that order (the first, or its replay) or request_in_progress with
 * Retry-After, which the sender retries as a seller would until it gets the order.
 */
const SENDS = 100;
const data = multiDataDir();
afterAll(() => data.close());

test(
  `${SENDS} concurrent OrderCreateRQs with the same ids over two workers: one order, one charge`,
  async () => {
    const a = await data.startWorker();
    const b = await data.startWorker();
    const shopped = await shopOffer(a, { date: TRAVEL_DATE });
    const body = orderCreateRQ({ shopped, legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }], correlationId: "MULTI-SAME", trxId: "MULTI-SAME-TRX" });
    const refusals = new Map<string, number>();
    const send = async (w: Worker): Promise<string> => {
      for (let tries = 0; tries < 200; tries++) {
        const r = await w.ndcUnchecked("OrderCreateRQ", body);
        if (r.status === 200) return orderIdOf(r.body);
        const code = errorCode(r.body) ?? `HTTP ${r.status}`;
        refusals.set(code, (refusals.get(code) ?? 0) + 1);
        // Only "still in progress, retry": anything else is a failure of the rule.
        expect({ status: r.status, code }).toEqual({ status: 409, code: "request_in_progress" });
        expect(r.headers.get("retry-after")).toBe("1");
        await Bun.sleep(50);
      }
      throw new Error("never answered with the order");
    };
    const ids = await Promise.all(Array.from({ length: SENDS }, (_, i) => send(i % 2 ? b : a)));
    console.log(`answers: ${SENDS} orders after ${JSON.stringify(Object.fromEntries(refusals))} refusals`);
    expect(new Set(ids).size).toBe(1);
    const orderId = ids[0]!;
    // An answer checked against the schema, from each worker.
    for (const w of [a, b]) expect(orderIdOf((await w.ndc("OrderCreateRQ", body)).body)).toBe(orderId);

    const f = await footprint(data.dir);
    expect([...f.orders.entries()]).toEqual([[orderId, "booked"]]);
    expect(f.legs.map((l) => [l.orderId, l.state])).toEqual([[orderId, "captured"]]);
    expect(f.openSagas).toEqual([]);
    expect(f.pspAuthorised).toEqual([]);
    // One charge at the (simulated) PSP: one payment, captured.
    const store = await openStore(databaseUrlFor(data.dir));
    try {
      expect((await store.db.select({ state: tables.pspSimPayments.state }).from(tables.pspSimPayments)).map((p) => p.state)).toEqual(["captured"]);
    } finally {
      await store.close();
    }
    expect(f.idempotency.filter((r) => r.correlationId === "MULTI-SAME").map((r) => r.state)).toEqual(["done"]);
  },
  180_000,
);
