import { afterAll, beforeAll, expect, test } from "bun:test";
import { SANDBOX_AGENCY } from "@ndc/payments";
import { errorCode, type TestGateway } from "../support/gateway";
import { gateway, ndcAs, orderCreateRQ, orderIdOf, orderRetrieveRQ, otherSeller, shopOffer } from "./helpers";

/** DESIGN 5 Idempotency and Access, through HTTP: replays byte for byte, conflicts, races, ownership. */
let t: TestGateway;
beforeAll(async () => {
  ({ t } = await gateway());
});
afterAll(() => t.close());

const seller = { clientId: "", agencyId: SANDBOX_AGENCY };
// OrderList no longer counts (keyset paging, docs/decisions/0009): count by walking the pages.
const orderCount = async () => {
  let n = 0;
  for (let after: string | undefined, more = true; more; ) {
    const page = await t.gw.orders.list(seller, {}, { limit: 100, ...(after ? { after } : {}) });
    n += page.orders.length;
    after = page.next;
    more = after !== undefined;
  }
  return n;
};

test("the same CorrelationID and TrxID replays the first answer byte for byte; another body is idempotency_conflict", async () => {
  const shopped = await shopOffer(t);
  const rq = orderCreateRQ({ shopped, legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }], correlationId: "IDEM-1", trxId: "T1" });
  const first = await t.ndc("OrderCreateRQ", rq);
  expect(first.status).toBe(200);
  const before = await orderCount();
  const replay = await t.ndc("OrderCreateRQ", rq);
  expect(replay.status).toBe(200);
  expect(replay.body).toBe(first.body);
  expect(await orderCount()).toBe(before);

  // Same ids, another passenger name: refused, and the first order is untouched.
  const other = orderCreateRQ({ shopped, pax: [{ id: "PAX1", surname: "SOMEONEELSE" }], legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }], correlationId: "IDEM-1", trxId: "T1" });
  const conflict = await t.ndc("OrderCreateRQ", other);
  expect(conflict.status).toBe(409);
  expect(errorCode(conflict.body)).toBe("idempotency_conflict");
  expect(await orderCount()).toBe(before);

  // A new TrxID is a new creation attempt of the same offer.
  const fresh = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, correlationId: "IDEM-1", trxId: "T2" }));
  expect(fresh.status).toBe(200);
  expect(orderIdOf(fresh.body)).not.toBe(orderIdOf(first.body));
});

test("100 concurrent identical requests create exactly one order and all get the same bytes", async () => {
  const shopped = await shopOffer(t, { n: 1, seat: true });
  const rq = orderCreateRQ({ shopped, legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }], correlationId: "RACE-1", trxId: "T1" });
  const before = await orderCount();
  const replies = await Promise.all(Array.from({ length: 100 }, () => t.ndc("OrderCreateRQ", rq)));
  expect(new Set(replies.map((r) => r.status))).toEqual(new Set([200]));
  expect(new Set(replies.map((r) => r.body)).size).toBe(1);
  expect(await orderCount()).toBe(before + 1);
  // One order, one card leg.
  const legs = await t.gw.orders.ctx.payments.ledger.legs(orderIdOf(replies[0]!.body));
  expect(legs).toHaveLength(1);
}, 120_000);

test("another seller's order is answered exactly like a missing one", async () => {
  const shopped = await shopOffer(t, { n: 2 });
  const created = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, correlationId: "OWN-1", trxId: "T1" }));
  expect(created.status).toBe(200);
  const orderId = orderIdOf(created.body);
  const headers = await otherSeller(t);

  // A made-up id of another length: nothing of the id may show in the answer.
  const missingId = "ORD-MISSING";
  const theirs = await ndcAs(t, headers, "OrderRetrieveRQ", orderRetrieveRQ(orderId, { correlationId: "C-1" }));
  const missing = await ndcAs(t, headers, "OrderRetrieveRQ", orderRetrieveRQ(missingId, { correlationId: "C-2" }));
  expect(theirs.status).toBe(404);
  expect(missing.status).toBe(404);
  expect(errorCode(theirs.body)).toBe("order_not_found");
  // Byte for byte, apart from the correlation ids each request chose.
  expect(theirs.body.replace("C-1", "C-?")).toBe(missing.body.replace("C-2", "C-?"));
  const headerSet = (h: Headers) => [...h.entries()].filter(([k]) => k !== "x-request-id").sort();
  expect(headerSet(theirs.headers)).toEqual(headerSet(missing.headers));

  // The owner still reads it.
  const own = await t.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderId));
  expect(own.status).toBe(200);
});
