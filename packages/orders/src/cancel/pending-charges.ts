import type { Order, OrderItem, PendingCharge } from "../state";

/**
 * The post-sale changes (ORDRE2 additions, seat purchases) an items cancellation voids instead of
 * refunding (spec 3: "Voided: if the change is not made"; issue 19 item 12): those whose legs are
 * all still authorised, their capture pending, and whose every item still on the order is being
 * cancelled. Nothing was taken for them, so nothing is refunded from the sale's legs; the
 * authorisation is released, and the change's own saga (finishCharge, or the reconciler) voids
 * rather than captures. A change cancelled only in part keeps its capture (a void releases the
 * whole authorisation, which still pays for the items kept); the part cancelled is refunded.
 */
export function chargesVoidedBy(order: Order, items: readonly OrderItem[]): PendingCharge[] {
  const gone = new Set(items.map((i) => i.orderItemId));
  const onOrder = new Set(order.items.map((i) => i.orderItemId));
  return (order.charges ?? []).flatMap((c) => {
    const legs = order.legs.filter((l) => l.changeRef === c.changeRef);
    if (legs.length === 0 || !legs.every((l) => l.state === "authorised")) return [];
    const cancelled = c.orderItemIds.filter((id) => gone.has(id));
    if (cancelled.length === 0 || c.orderItemIds.some((id) => onOrder.has(id) && !gone.has(id))) return [];
    return [{ changeRef: c.changeRef, amountMinor: items.filter((i) => cancelled.includes(i.orderItemId)).reduce((n, i) => n + i.totalMinor, 0) }];
  });
}

/** Whether an items cancellation voided this change's payment (its saga then voids, never captures). */
export function voidedByCancellation(order: Pick<Order, "itemCancellations">, changeRef: string): boolean {
  return (order.itemCancellations ?? []).some((c) => c.voided?.some((v) => v.changeRef === changeRef));
}
