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
 * ended `days` ago, the deadline computed now from the order's current travel dates (a flight
 * moved later moves it), and the signed originals kept with them. An order with no travel dates
 * is kept. At most `limit` orders a run (per kind).
 * Returns the orders whose documents it erased and how many documents.
 */
export async function sweepRetention(store: Store, now: number, days: number, limit = 500): Promise<{ orders: number; documents: number }> {
  const o = storeTables.orders;
  const d = tables.identityDocuments;
  // Candidates by date text first (a bounded scan of orders that still hold documents), then the exact rule.
  const latestDate = new Date(now - days * DAY_MS).toISOString().slice(0, 10);
  const rows = await store.db
    .selectDistinct({ orderId: o.orderId, travelTo: o.travelTo })
    .from(o)
    .innerJoin(d, eq(d.orderId, o.orderId))
    .where(and(isNotNull(o.travelTo), lte(o.travelTo, latestDate), isNull(d.erasedAt)))
    .orderBy(asc(o.travelTo))
    .limit(limit)
    .all();
  // Signed originals too (docs/signatures.md): an order kept as evidence may hold none of the documents above.
  const s = tables.signedOriginals;
  const signed = await store.db
    .selectDistinct({ orderId: o.orderId, travelTo: o.travelTo })
    .from(o)
    .innerJoin(s, eq(s.orderId, o.orderId))
    .where(and(isNotNull(o.travelTo), lte(o.travelTo, latestDate), isNull(s.erasedAt)))
    .orderBy(asc(o.travelTo))
    .limit(limit)
    .all();
  const seen = new Set(rows.map((r) => r.orderId));
  for (const r of signed) if (!seen.has(r.orderId)) rows.push(r);
  const due = rows.filter((r) => {
    const deadline = retentionDeadline([travelEndOf(r.travelTo!)], days);
    return deadline !== undefined && deadline <= now;
  });
  const documents = await eraseIdentityDocuments(
    store,
    due.map((r) => r.orderId),
    now,
  );
  return { orders: due.length, documents };
}
