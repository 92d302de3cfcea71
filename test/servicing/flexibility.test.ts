import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Order } from "@ndc/orders";
import { flexibilityOf } from "../../packages/orders/src/conditions/flexibility";
import type { TestGateway } from "../support/gateway";
import { countWrites as count } from "../support/count-writes";
import { validateXml } from "../support/xsd";
import { gateway } from "../orders-http/helpers";
import { addRQ, extrasFor } from "./add-helpers";
import { bookCancellable, sellerOf } from "./cancel-helpers";
import { orderRulesByOrder, BOOKING_TEST_MS } from "./helpers";
import { updatePaxRQ } from "./rename-helpers";

/**
 * Issue 9 item 6 over HTTP: a customer's Flexibility service (FLEX, bought post-sale here) makes
 * a change the fare refuses allowed, only when the request asks (OrderChangeParameters/ReasonCode
 * FLEXIBILITY), and is spent once, also under a race. OrderRulesRS shows it in the live
 * eligibility. Every answer is XSD-checked by t.ndc.
 */
let t: TestGateway;
beforeAll(async () => {
  ({ t } = await gateway());
});
afterAll(() => t.close());

const countWrites = <T>(fn: () => Promise<T>) => count(t.gw.store, t.gw.orders.ctx.payments.psp, fn);

/** A LIGHT order (neither changeable nor renameable) with the FLEX service bought on it. */
async function lightWithFlex(tag: string): Promise<{ orderId: string; before: Order }> {
  const { orderId } = await bookCancellable(t, tag, { brand: "LIGHT", seat: false });
  const listed = await extrasFor(t, orderId);
  const flex = listed.items.find((i) => i.serviceDefinitionId === "SD-FLEX")!;
  const r = await t.ndc("OrderChangeRQ", addRQ(orderId, listed.offerId, [{ offerItemId: flex.offerItemId, paxId: "PAX1" }], [{ card: "tok_approve_visa", minor: flex.unitMinor }], { trxId: `trx-flex-${tag}` }));
  expect(r.status).toBe(200);
  return { orderId, before: await t.gw.orders.retrieve(orderId, sellerOf(t)) };
}

const eligibleNow = (body: string) => /Change eligible now: (yes|no), ([^<]*)/.exec(body);

test("the request asking for Flexibility is 24.4-valid", () => {
  const v = validateXml(updatePaxRQ("ORD-X", { flexibility: true }));
  expect(v.ok ? "" : v.output).toBe("");
});

test("without Flexibility the fare refuses; OrderRulesRS says not eligible", async () => {
  const { orderId } = await bookCancellable(t, "FLEX-NONE", { brand: "LIGHT", seat: false });
  const r = await t.ndc("OrderChangeRQ", updatePaxRQ(orderId, { trxId: "trx-none" }));
  expect(r.status).toBe(409);
  expect(r.body).toContain("fare_not_renameable");
  const asked = await t.ndc("OrderChangeRQ", updatePaxRQ(orderId, { trxId: "trx-none-2", flexibility: true }));
  expect(asked.status).toBe(409);
  expect(asked.body).toContain("flexibility_not_held");
  const rules = await t.ndc("OrderRulesRQ", orderRulesByOrder(orderId));
  expect(eligibleNow(rules.body)?.[1]).toBe("no");
});

test("a held Flexibility is shown by OrderRulesRS, never spent unasked, spent once when asked, in the rename's one write", async () => {
  const { orderId, before } = await lightWithFlex("FLEX-ONE");
  expect(flexibilityOf(before).map((f) => [f.code, f.via, f.usedBy])).toEqual([["FLEX", "a_la_carte", undefined]]);
  const rules = await t.ndc("OrderRulesRQ", orderRulesByOrder(orderId));
  expect(eligibleNow(rules.body)?.[1]).toBe("yes");
  expect(eligibleNow(rules.body)?.[2]).toContain("Flexibility service (FLEX)");

  // Not asked: refused, and the refusal says how to ask; nothing spent.
  const unasked = await t.ndc("OrderChangeRQ", updatePaxRQ(orderId, { trxId: "trx-unasked" }));
  expect(unasked.status).toBe(409);
  expect(unasked.body).toContain("fare_not_renameable");
  expect(unasked.body).toContain("ReasonCode FLEXIBILITY");
  expect((await t.gw.orders.retrieve(orderId, sellerOf(t))).flexibilityUsed).toBeUndefined();

  const used = await countWrites(() => t.ndc("OrderChangeRQ", updatePaxRQ(orderId, { trxId: "trx-used", flexibility: true, surname: "RENAMED" })));
  expect(used.result.status).toBe(200);
  expect(used.gateway).toBe(1);
  expect(used.psp).toBe(0);
  const after = await t.gw.orders.retrieve(orderId, sellerOf(t));
  expect(after.flexibilityUsed?.map((u) => u.orderItemId)).toEqual([flexibilityOf(before)[0]!.orderItemId]);
  expect(after.passengers[0]!.surname).toBe("RENAMED");

  const again = await t.ndc("OrderChangeRQ", updatePaxRQ(orderId, { trxId: "trx-again", flexibility: true, surname: "TWICE" }));
  expect(again.status).toBe(409);
  expect(again.body).toContain("flexibility_already_used");
  expect(eligibleNow((await t.ndc("OrderRulesRQ", orderRulesByOrder(orderId))).body)?.[1]).toBe("no");
}, BOOKING_TEST_MS);

test("20 renames racing for one Flexibility: exactly one spends it", async () => {
  const { orderId, before } = await lightWithFlex("FLEX-RACE");
  const replies = await Promise.all(
    Array.from({ length: 20 }, (_, i) => t.ndc("OrderChangeRQ", updatePaxRQ(orderId, { trxId: `trx-race-${i}`, flexibility: true, surname: `RACER${String.fromCharCode(65 + i)}` }))),
  );
  const ok = replies.filter((r) => r.status === 200);
  expect(ok).toHaveLength(1);
  for (const r of replies.filter((x) => x.status !== 200)) {
    expect(r.status).toBe(409);
    expect(r.body).toContain("flexibility_already_used");
  }
  const after = await t.gw.orders.retrieve(orderId, sellerOf(t));
  expect(after.flexibilityUsed).toHaveLength(1);
  expect(after.version).toBe(before.version + 1);
}, BOOKING_TEST_MS);

test("a bundle carrying FLEX (BNDL-WORK) is a Flexibility too", () => {
  const order = { items: [{ orderItemId: "I1", offerId: "O", offerItemId: "OI", kind: "bundle", ref: "BNDL-WORK", paxIds: ["PAX1"], totalMinor: 6500 }], journeys: [{ paxJourneyId: "J1", flightKeys: ["XB1-2027-01-12"], brandCode: "LIGHT", cabin: "Y" }] } as unknown as Order;
  expect(flexibilityOf(order).map((f) => [f.code, f.via, f.paxJourneyIds])).toEqual([["BNDL-WORK", "bundle", ["J1"]]]);
  const comfort = { ...order, items: [{ ...order.items[0]!, ref: "BNDL-COMFORT" }] } as Order;
  expect(flexibilityOf(comfort)).toEqual([]);
});
