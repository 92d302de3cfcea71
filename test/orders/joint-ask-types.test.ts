import { expect, test } from "bun:test";
import { jointAsk, type JointAsk } from "@ndc/actors";
import type { OrdersContext } from "@ndc/orders";
import { orderAsk } from "../../packages/orders/src/actor/joint";

/**
 * Issue 21 item 1: an order command in a joint write is typed. Bun does not check types; tsc does
 * (test/typecheck.test.ts checks this file with the rest of the tree), so each `@ts-expect-error`
 * below fails the typecheck the day the line it marks compiles again: a misspelt command field,
 * an unknown op, or a JointAsk made by hand around the builder (the old `ref: ctx.orders as never`).
 */
export function typeLevel(ctx: Pick<OrdersContext, "orders">, orders: OrdersContext["orders"]): JointAsk[] {
  return [
    orderAsk(ctx, "ORD-1", { op: "cancel", cancellation: { quoteId: "CQ", at: 0, refundMinor: 0, penaltyMinor: 0 }, atVersion: 3 }),
    // @ts-expect-error a misspelt optional field (atVresion) is refused, not silently dropped
    orderAsk(ctx, "ORD-1", { op: "cancel", cancellation: { quoteId: "CQ", at: 0, refundMinor: 0, penaltyMinor: 0 }, atVresion: 3 }),
    // @ts-expect-error a misspelt required field (legId for legIds)
    orderAsk(ctx, "ORD-1", { op: "recordPaymentCaptured", legId: ["L1"] }),
    // @ts-expect-error an op the order actor does not have
    orderAsk(ctx, "ORD-1", { op: "recordPaymentCapture", legIds: ["L1"] }),
    // @ts-expect-error the generic builder checks against the ref's own command type too
    jointAsk(orders, "ORD-1", { op: "lapseRetained", changeRef: "rvl-1", amountMinor: "100", now: 0 }),
    // @ts-expect-error a JointAsk is only made by jointAsk(): the old hand-built, erased form no longer compiles
    { ref: orders as never, key: "ORD-1", command: { op: "cancel", atVresion: 3 } },
  ];
}

test("orderAsk names the order actor, the order and the command it was given", () => {
  const orders = { kind: "orders.order" } as OrdersContext["orders"];
  const ask = orderAsk({ orders }, "ORD-1", { op: "recordPaymentCaptured", legIds: ["L1"] });
  expect(ask.ref).toBe(orders);
  expect(ask.key).toBe("ORD-1");
  expect(ask.command).toEqual({ op: "recordPaymentCaptured", legIds: ["L1"] });
});
