import { defineJournaledKind, NEXT_VALUE } from "@ndc/actors";
import { atEndOfWrite, type StoreDb } from "@ndc/store";
import { GatewayError } from "@ndc/errors";
import type { FieldKey } from "@ndc/pii";
import { assertFlexibilityUnspent } from "../conditions/flexibility";
import { isHeld, refundOfChange, refuseUnlessMove, transition, type Order } from "../state";
import { refuseIfStale, refuseUnlessPayable } from "./refusals";
import type { OrderCommand, OrderReply } from "./commands";
import { evolve, type OrderEvent } from "./events";
import { attachDocuments, persistOrderRows, type OrderPersistHook } from "./persist";
import { salesTransactionOf, type SalesTransaction } from "../view/sales-transaction";

/** Told, at the end of the write that records it, of a money event (view/sales-transaction.ts): accounting's report commits with it. */
export type OnSalesTransaction = (tx: StoreDb, order: Order, transaction: SalesTransaction) => Promise<void>;
import { decideFlown, decidePartnerDelivered, decideScheduleChange } from "../operations/decide";

export const ORDER_KIND = "orders.order";

/**
 * The order actor (key: order id). Decides against the order in memory; its events, the orders
 * index row and (at creation) the encrypted identity documents commit in one transaction before
 * the order changes in memory and the caller is answered (DESIGN 4). `onWritten` runs at the end of
 * every write that changed an order, inside it (the stored OrderViewRS, read/stored-view.ts).
 */
export function orderKind(fieldKey: FieldKey, persistHook?: OrderPersistHook, onWritten?: (tx: StoreDb, order: Order) => Promise<void>, onSale?: OnSalesTransaction) {
  return defineJournaledKind<Order | null, OrderCommand, OrderEvent, OrderReply>({
    name: ORDER_KIND,
    snapshotEvery: 20,
    initial: () => null,
    evolve,
    // The reply is the order the events make: the same object the write persists and the actor keeps.
    decide: (order, command, ctx) => ({ events: decideEvents(order, command, ctx.now), reply: NEXT_VALUE }),
    async persistAlso(tx, _key, events, ctx) {
      const after = ctx.next;
      if (!after) return;
      await persistOrderRows(tx, fieldKey, events, after, ctx.now);
      // Rows other domains derive from this change (the notification outbox) commit with it, or not at all.
      if (persistHook && events.length) await persistHook(tx, { events, before: ctx.state.value, after, now: ctx.now });
      // Rows derived from the order and what the same write records beside it (its legs): built
      // once, after everything else the write does.
      if (onWritten) atEndOfWrite(tx, `order:${after.orderId}`, (end) => onWritten(end, after));
      // A money event's report reads the legs the same write records, so it too waits for the end of the write.
      const sale = onSale && salesTransactionOf(events, after);
      if (sale) atEndOfWrite(tx, `sales:${after.orderId}:${after.version}`, (end) => onSale!(end, after, sale));
    },
  });
}

function decideEvents(order: Order | null, command: OrderCommand, now: number): OrderEvent[] {
  if (command.op === "get") return [];
  if (command.op === "create") {
    if (order) {
      // A retried commit step finds its own order; any other creator is a bug upstream.
      if (order.sagaId === command.order.sagaId) return [];
      throw new GatewayError("request_invalid", { detail: "The order id is taken." });
    }
    const state = transition(null, "created", command.order.state);
    const created: Order = {
      ...command.order,
      state,
      version: 1,
      updatedAt: now,
      inventoryConfirmed: false,
      history: [{ version: 1, at: now, kind: "created", changed: command.order.intendedPayment ? ["order", "intendedPayment"] : ["order"], state }],
    };
    const events: OrderEvent[] = [attachDocuments({ type: "created", order: created }, command.documents)];
    if (command.confirmInventory && state === "booked") events.push({ type: "inventory_confirmed", at: now });
    return events;
  }
  if (!order) throw new GatewayError("order_not_found");
  switch (command.op) {
    case "recordPaymentAuthorised": {
      if (order.state === "booked" && command.legs.every((l) => order.legs.some((o) => o.legId === l.legId))) return [];
      refuseUnlessPayable(order, now);
      const paid: OrderEvent[] = [{ type: "payment_authorised", at: now, legs: command.legs }];
      if (command.confirmInventory && !order.inventoryConfirmed) paid.push({ type: "inventory_confirmed", at: now });
      return paid;
    }
    case "markPaymentDeclined":
      refuseUnlessMove(order.state, "payment_declined");
      return [{ type: "payment_declined", at: now, legs: command.legs, code: command.code }];
    case "recordPaymentCaptured": {
      const open = command.legIds.filter((id) => order.legs.find((l) => l.legId === id)?.state !== "captured");
      if (open.length === 0) return [];
      refuseUnlessMove(order.state, "payment_captured");
      return [{ type: "payment_captured", at: now, legIds: open }];
    }
    case "confirmInventory":
      if (order.inventoryConfirmed) return [];
      refuseUnlessMove(order.state, "inventory_confirmed");
      return [{ type: "inventory_confirmed", at: now }];
    case "addItems": {
      if (order.charges?.some((c) => c.changeRef === command.change.charge.changeRef)) return [];
      refuseUnlessMove(order.state, "items_added");
      assertRetainedCovers(order, command.change.charge.retainedSpentMinor);
      return [{ type: "items_added", at: now, ...command.change }];
    }
    case "changeFlights": {
      if (order.charges?.some((c) => c.changeRef === command.change.charge.changeRef)) return [];
      refuseUnlessMove(order.state, "flights_changed");
      // Decided here, one at a time per order: of two changes racing for one Flexibility, one spends it.
      if (command.change.flexibilityItemId) assertFlexibilityUnspent(order, command.change.flexibilityItemId);
      for (const d of command.change.further ?? []) if (d.flexibilityItemId) assertFlexibilityUnspent(order, d.flexibilityItemId);
      assertRetainedCovers(order, command.change.charge.retainedSpentMinor);
      return [{ type: "flights_changed", at: now, ...command.change }];
    }
    case "expireUnpaid":
      if (!isHeld(order.state) || order.paymentTimeLimit === undefined || command.now < order.paymentTimeLimit) return [];
      return [{ type: "payment_expired", at: now }];
    case "close":
      if (order.state === "closed") return [];
      refuseUnlessMove(order.state, "closed");
      return [{ type: "closed", at: now }];
    case "cancel":
      // A retried commit finds its own cancellation; any other cancelled order is refused.
      if (order.state === "cancelled" && order.cancellation?.quoteId === command.cancellation.quoteId) return [];
      refuseUnlessMove(order.state, "cancelled");
      refuseIfStale(order, command.atVersion);
      return [{ type: "cancelled", at: now, cancellation: { ...command.cancellation, at: now } }];
    case "updatePax":
      if (order.history.some((h) => h.kind === "pax_updated" && h.changed.includes(`change:${command.changeRef}`))) return [];
      refuseUnlessMove(order.state, "pax_updated");
      if (!order.passengers.some((p) => p.paxId === command.paxId)) throw new GatewayError("request_invalid", { detail: "UpdatePax/Current names no passenger of the order." });
      // Decided here, one at a time per order: of two changes racing for one Flexibility, one spends it.
      if (command.flexibilityItemId) assertFlexibilityUnspent(order, command.flexibilityItemId);
      return [{ type: "pax_updated", at: now, changeRef: command.changeRef, paxId: command.paxId, name: command.name, ...(command.flexibilityItemId ? { flexibilityItemId: command.flexibilityItemId } : {}), ...(command.override ? { override: command.override } : {}), ...(command.staffId ? { staffId: command.staffId } : {}) }];
    case "changeSchedule":
      return decideScheduleChange(order, command.changes, now);
    case "recordFlown":
      return decideFlown(order, command.flightKeys, now);
    case "recordPartnerDelivered":
      return decidePartnerDelivered(order, command.orderItemIds, now);
    case "cancelItems": {
      const c = command.change.cancellation;
      // A retried commit finds its own change.
      if (order.itemCancellations?.some((x) => x.changeRef === c.changeRef)) return [];
      refuseUnlessMove(order.state, "items_cancelled");
      refuseIfStale(order, command.atVersion);
      const missing = c.items.find((i) => !order.items.some((o) => o.orderItemId === i.orderItemId));
      if (missing) throw new GatewayError("cancel_quote_stale", { detail: `Item ${missing.orderItemId} is no longer on the order.` });
      return [{ type: "items_cancelled", at: now, ...command.change, cancellation: { ...c, at: now } }];
    }
    case "recordRefunds": {
      // One refund per cancellation, recorded in its close write: a retried close finds it.
      const ref = command.changeRef;
      if (order.history.some((h) => h.kind === "refunded" && (ref ? refundOfChange(h) === ref : !refundOfChange(h)))) return [];
      // An items refund may close on an order cancelled since (the cancellation refunded only what was left).
      const closes = ref ? order.state === "booked" || order.state === "cancelled" : order.state === "cancelled";
      if (!closes) throw new GatewayError("order_state_invalid", { detail: `The order is ${order.state}.` });
      return [{ type: "refunded", at: now, legs: command.legs, ...(ref ? { changeRef: ref } : {}) }];
    }
    case "lapseRetained":
      if (order.history.some((h) => h.kind === "retained_lapsed" && h.changed.includes(`change:${command.changeRef}`))) return [];
      if (order.state !== "booked" || !order.retained?.amountMinor || command.now < order.retained.lapsesAt) return [];
      // The refund was planned for this amount: a change that spent some since is judged again by the next run.
      if (order.retained.amountMinor !== command.amountMinor) throw new GatewayError("order_state_invalid", { detail: "The retained value changed since its lapse was planned." });
      return [{ type: "retained_lapsed", at: now, changeRef: command.changeRef, amountMinor: order.retained.amountMinor }];
    case "recordChangeRefund":
      // Recorded in the change's close write: a retried close finds it (the order may have been cancelled since).
      if (order.history.some((h) => h.kind === "refunded" && refundOfChange(h) === command.changeRef)) return [];
      return [{ type: "refunded", at: now, legs: command.legs, changeRef: command.changeRef }];
  }
}

/**
 * A change paying from the retained value is decided here, one at a time per order: of two
 * changes racing for one retained value (or a change and its lapse), the second finds it gone.
 */
function assertRetainedCovers(order: Order, spentMinor: number | undefined): void {
  if (!spentMinor) return;
  if (spentMinor > (order.retained?.amountMinor ?? 0)) {
    throw new GatewayError("order_state_invalid", { detail: "The value retained on the order changed since the change was priced (spent or lapsed); ask again." });
  }
}
