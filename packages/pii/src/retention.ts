/** Spec 8: ORDER_TRAVEL_DOC_RETENTION_DAYS when the operator sets none. */
export const DEFAULT_TRAVEL_DOC_RETENTION_DAYS = 30;

const DAY_MS = 86_400_000;

/**
 * When an order's identity documents are to be erased (spec 8): `days` after its travel ends,
 * the end being the latest of the travel end dates the order holds now (epoch ms). The sweep
 * calls this each time from the order as it is, so a flight moved later moves the deadline.
 * Undefined when the order holds no travel dates: such an order is kept, never erased from a
 * booking-date deadline.
 */
export function retentionDeadline(travelEndDates: readonly (number | Date)[], days = DEFAULT_TRAVEL_DOC_RETENTION_DAYS): number | undefined {
  if (!Number.isInteger(days) || days < 0) throw new RangeError("retention days must be a whole number of days, 0 or more");
  const ends = travelEndDates.map((d) => (d instanceof Date ? d.getTime() : d));
  // A bad date is a caller bug; guessing around it could erase early or never.
  if (ends.some((t) => !Number.isFinite(t))) throw new RangeError("a travel end date is not a valid time");
  if (ends.length === 0) return undefined;
  return Math.max(...ends) + days * DAY_MS;
}
