import { and, asc, eq, isNotNull, isNull, lte } from "drizzle-orm";
import { tables as storeTables, type Store } from "@ndc/store";
import { retentionDeadline } from "../retention";
import * as tables from "../tables";
import { eraseIdentityDocuments } from "./erase";

const DAY_MS = 86_400_000;

/**
 * When an order's travel ends, from the orders index row's travel_to (the departure date of its
 * last flight, YYYY-MM-DD): the end of the next day (UTC), so an overnight arrival is inside it.
 * Late rather than early: the error only ever keeps a document longer.
 */
export function travelEndOf(travelTo: string): number {
  return Date.parse(`${travelTo}T00:00:00Z`) + 2 * DAY_MS;
}

/**
 * The identity-document retention sweep (spec 8): erases the documents of orders whose travel
 * ended `days` ago. The end is the orders index row's travel_end_at, which the order's actor
 * rewrites with every change of the order (the scheduled end, travelEndOf, moved later by the
 * airline's retimes), so the deadline is computed at each run from the order as it is now: a
 * flight moved later moves it; the signed originals kept with them go too. An order with no travel
 * dates is kept. At most `limit` orders a run (per kind).
 * Returns the orders whose documents it erased and how many documents.
 */
export async function sweepRetention(store: Store, now: number, days: number, limit = 500): Promise<{ orders: number; documents: number }> {
  const o = storeTables.orders;
  // Orders past the deadline that still hold documents, and (docs/signatures.md) those that hold a
  // signed original: an order kept as evidence may hold none of the documents.
  const heldIn = (held: typeof tables.identityDocuments | typeof tables.signedOriginals) =>
    store.db
      .selectDistinct({ orderId: o.orderId, travelEndAt: o.travelEndAt })
      .from(o)
      .innerJoin(held, eq(held.orderId, o.orderId))
      .where(and(isNotNull(o.travelEndAt), lte(o.travelEndAt, now - days * DAY_MS), isNull(held.erasedAt)))
      .orderBy(asc(o.travelEndAt))
      .limit(limit)
      .all();
  const rows = await heldIn(tables.identityDocuments);
  const seen = new Set(rows.map((r) => r.orderId));
  for (const r of await heldIn(tables.signedOriginals)) if (!seen.has(r.orderId)) rows.push(r);
  const due = rows.filter((r) => {
    const deadline = retentionDeadline([r.travelEndAt!], days);
    return deadline !== undefined && deadline <= now;
  });
  const documents = await eraseIdentityDocuments(
    store,
    due.map((r) => r.orderId),
    now,
    { path: "retention", actor: "scheduler" },
  );
  return { orders: due.length, documents };
}
