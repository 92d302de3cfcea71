import { afterAll, beforeAll, expect, test } from "bun:test";
import { brokenAt, listOverrides, type ServicingActor } from "@ndc/orders";
import { errorCode, type TestGateway } from "../support/gateway";
import { countWrites as count } from "../support/count-writes";
import { gateway } from "../orders-http/helpers";
import { all, blocks, orderHistoryRQ } from "../orders-http/order-list-helpers";
import { acceptCancelRQ, bookCancellable, cancelItemsRQ, cancelQuoteRQ, sellerOf } from "./cancel-helpers";

/**
 * The airline's staff channel for cancellation (issue 9 item 10, spec 4.7 SHPOR1 rule 4): a
 * staff cancellation, of the whole order or of items, is never refused by the fare; the rule
 * overridden is on the quote, on the change (history, operation) and in the append-only audit
 * trail, in the commit's own write. Every staff change names the staff member, override or not;
 * OrderHistoryRS shows it as `Carrier` with `SalesAgentID`. The staff channel is an in-process
 * call (its HTTP API is the staff console's); the sellers' refusals are over HTTP, XSD-checked.
 */
let t: TestGateway;
beforeAll(async () => {
  ({ t } = await gateway());
});
afterAll(() => t.close());

const STAFF: ServicingActor = { channel: "airline_staff", staffId: "desk-42" };
const countWrites = <T>(fn: () => Promise<T>) => count(t.gw.store, t.gw.orders.ctx.payments.psp, fn);
const lastGroup = async (orderId: string, kind: string) => blocks((await t.ndc("OrderHistoryRQ", orderHistoryRQ(orderId))).body, "ChangeGroup").filter((g) => g.includes(kind)).at(-1)!;

test("a SAVER order: a seller is refused over HTTP, whole or in part; the staff cancel a seat of it, the override recorded on the quote, the change and the audit trail, in the commit write", async () => {
  const { orderId, order } = await bookCancellable(t, "ST1", { brand: "SAVER" });
  const seat = order.items.find((i) => i.kind === "seat")!;
  expect(errorCode((await t.ndc("OrderReshopRQ", cancelQuoteRQ(orderId))).body)).toBe("fare_not_cancellable");
  expect(errorCode((await t.ndc("OrderReshopRQ", cancelItemsRQ(orderId, [seat.orderItemId]))).body)).toBe("fare_not_cancellable");

  const auditBefore = (await listOverrides(t.gw.store)).length;
  const { quote } = await t.gw.orders.quoteCancelItems(orderId, STAFF, [seat.orderItemId]);
  expect(quote.overridden?.ruleCode).toBe("fare_not_cancellable");
  expect(quote.refundMinor).toBe(seat.totalMinor);

  // A seller handed the staff's quote id is judged as a seller at the commit: refused, nothing moves.
  expect(errorCode((await t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, quote.quoteId))).body)).toBe("fare_not_cancellable");
  expect((await t.gw.orders.retrieve(orderId, sellerOf(t))).version).toBe(order.version);

  const w = await countWrites(() => t.gw.orders.cancel(orderId, STAFF, quote.quoteId));
  expect(w.result.state).toBe("booked");
  expect(w.result.items.some((i) => i.orderItemId === seat.orderItemId)).toBe(false);
  // The audit row is in the commit write: still 2 writes.
  expect(w.gateway).toBe(2);
  const rows = await listOverrides(t.gw.store);
  expect(rows).toHaveLength(auditBefore + 1);
  const row = rows.at(-1)!;
  expect(row).toMatchObject({ staffId: "desk-42", channel: "airline_staff", orderId, ruleCode: "fare_not_cancellable" });
  expect(row.operationId).toStartWith("SGI");
  expect(brokenAt(rows)).toBeUndefined();
  const entry = w.result.history.find((h) => h.kind === "items_cancelled")!;
  expect(entry.staffId).toBe("desk-42");
  expect(entry.changed).toContain("override:fare_not_cancellable");
  const op = await t.gw.orders.ctx.operations.load<{ staffId?: string; overridden?: string }>(row.operationId);
  expect(op?.plan).toMatchObject({ staffId: "desk-42", overridden: "fare_not_cancellable" });

  // OrderHistoryRS (the seller's own view of its order): the change by the carrier, naming the agent.
  const g = await lastGroup(orderId, "ITEMS_CANCELLED");
  expect(all(g, "OrgRole")).toEqual(["Carrier"]);
  expect(all(g, "SalesAgentID")).toEqual(["desk-42"]);
  // A retry of the staff commit is the same operation: no second audit row.
  await t.gw.orders.cancel(orderId, STAFF, quote.quoteId);
  expect(await listOverrides(t.gw.store)).toHaveLength(auditBefore + 1);
}, 60_000);

test("the staff cancel a SAVER order whole: allowed, the extras refunded (the fare is not refundable), override audited, the staff id on the change", async () => {
  const { orderId, order } = await bookCancellable(t, "ST2", { brand: "SAVER" });
  const before = (await listOverrides(t.gw.store)).length;
  const { quote } = await t.gw.orders.quoteCancel(orderId, STAFF);
  expect(quote.overridden?.ruleCode).toBe("fare_not_cancellable");
  const extras = order.items.filter((i) => i.kind !== "flight" && i.kind !== "bundle").reduce((s, i) => s + i.totalMinor, 0);
  expect(quote.refundMinor).toBe(extras);
  const done = await t.gw.orders.cancel(orderId, STAFF, quote.quoteId);
  expect(done.state).toBe("cancelled");
  expect(done.cancellation).toMatchObject({ staffId: "desk-42", override: { staffId: "desk-42", ruleCode: "fare_not_cancellable" } });
  const rows = await listOverrides(t.gw.store);
  expect(rows).toHaveLength(before + 1);
  expect(rows.at(-1)!.operationId).toStartWith("SGX");
  const g = await lastGroup(orderId, "ORDER_CANCELLED");
  expect(all(g, "SalesAgentID")).toEqual(["desk-42"]);
}, 60_000);

test("a staff cancellation the fare allows overrides nothing (no audit row) but still names the staff member", async () => {
  const { orderId, order } = await bookCancellable(t, "ST3", { brand: "LIGHT" });
  const seat = order.items.find((i) => i.kind === "seat")!;
  const before = (await listOverrides(t.gw.store)).length;
  const { quote } = await t.gw.orders.quoteCancelItems(orderId, STAFF, [seat.orderItemId]);
  expect(quote.overridden).toBeUndefined();
  const after = await t.gw.orders.cancel(orderId, STAFF, quote.quoteId);
  expect(after.history.find((h) => h.kind === "items_cancelled")!.staffId).toBe("desk-42");
  expect(await listOverrides(t.gw.store)).toHaveLength(before);
  expect(all(await lastGroup(orderId, "ITEMS_CANCELLED"), "SalesAgentID")).toEqual(["desk-42"]);
  // The whole order next, by staff: the staff id on the cancellation too.
  const { quote: whole } = await t.gw.orders.quoteCancel(orderId, STAFF);
  expect(whole.overridden).toBeUndefined();
  expect((await t.gw.orders.cancel(orderId, STAFF, whole.quoteId)).cancellation?.staffId).toBe("desk-42");
  expect(await listOverrides(t.gw.store)).toHaveLength(before);
}, 60_000);
