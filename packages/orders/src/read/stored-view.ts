import { and, eq, sql } from "drizzle-orm";
import { preparedOnce, tables, type StoreDb } from "@ndc/store";
import type { OrdersContext } from "../context";
import type { Order } from "../state";
import { orderDetails, type OrderDetails } from "../view/details";

/**
 * An order's OrderViewRS as text, as the edge encodes it (the orders domain writes no XML: the
 * encoder is the gateway's, handed in as `StoredViewEncoder`).
 */
export interface StoredView {
  /** The Response element's name and text. */
  response: { name: string; text: string };
  /** The root's elements after Response (PaymentFunctions). */
  trailing: { name: string; text: string }[];
  /** What the answer's log line says of a decline. */
  decline?: { errorCode?: string; declineReason?: string };
}

export type StoredViewEncoder = (details: OrderDetails) => StoredView;

/**
 * The edge's encoder with the key naming what it encodes with (its code and configuration): a
 * row is served only to a process holding the same key, so processes of one build share their
 * stored views and a process of another build (or configuration) never serves them.
 */
export interface StoredViews {
  encode: StoredViewEncoder;
  key: string;
}

const V = tables.orderViews;

const upsert = preparedOnce((db) =>
  db
    .insert(V)
    .values({
      orderId: sql.placeholder("orderId"),
      ownerAgencyId: sql.placeholder("ownerAgencyId"),
      response: sql.placeholder("response"),
      meta: sql.placeholder("meta"),
      validFrom: sql.placeholder("validFrom"),
      validUntil: sql.placeholder("validUntil"),
      viewKey: sql.placeholder("viewKey"),
    })
    .onConflictDoUpdate({
      target: V.orderId,
      set: {
        ownerAgencyId: sql.raw("excluded.owner_agency_id"),
        response: sql.raw("excluded.response"),
        meta: sql.raw("excluded.meta"),
        validFrom: sql.raw("excluded.valid_from"),
        validUntil: sql.raw("excluded.valid_until"),
        viewKey: sql.raw("excluded.view_key"),
      },
    })
    .prepare(),
);

const byId = preparedOnce((db) =>
  db
    .select({ ownerAgencyId: V.ownerAgencyId, response: V.response, meta: V.meta, validFrom: V.validFrom, validUntil: V.validUntil })
    .from(V)
    .where(and(eq(V.orderId, sql.placeholder("orderId")), eq(V.viewKey, sql.placeholder("viewKey"))))
    .prepare(),
);

/**
 * Writes the order's view at the end of the write that changed it (atEndOfWrite), from what
 * that transaction holds: the order as it will be after the COMMIT, its documents and its legs
 * read through the write connection (so the ledger rows the same write records are in it). The
 * schema's triggers have deleted the previous row with the change; a view that cannot be built
 * is left absent (the next read builds it from the actor) rather than failing the order's write,
 * and so is the view of an order with a leg still to capture.
 */
export async function writeStoredView(ctx: OrdersContext, views: StoredViews, tx: StoreDb, order: Order): Promise<void> {
  // A leg authorised and not captured is about to move (the close phase captures it, or the
  // reconciler does after a crash), and that write stores the view: not built twice per booking.
  if (order.legs.some((l) => l.state === "authorised")) return;
  let view: StoredView;
  let details: OrderDetails;
  try {
    details = await orderDetails(ctx, order, tx);
    view = views.encode(details);
  } catch {
    return;
  }
  const { response, ...meta } = view;
  await upsert(tx).run({
    orderId: order.orderId,
    ownerAgencyId: order.owner.agencyId,
    response: response.text,
    meta: JSON.stringify({ responseName: response.name, ...meta }),
    validFrom: details.validFrom,
    validUntil: details.validUntil ?? null,
    viewKey: views.key,
  });
}

/**
 * The stored view of an order with its owner, or undefined: one prepared read. A row read outside
 * its validity (`now` at or past the next fee-band edge or departure after it was built, or
 * before it was built) is as good as absent: what the view shows of time has moved on. So is a
 * row written under another key (another build or configuration: StoredViews).
 */
export async function readStoredView(db: StoreDb, orderId: string, now: number, viewKey: string): Promise<{ ownerAgencyId: string; view: StoredView } | undefined> {
  const rows = await byId(db).all({ orderId, viewKey });
  const row = rows[0];
  if (!row || now < row.validFrom || (row.validUntil !== null && now >= row.validUntil)) return undefined;
  const { responseName, ...meta } = JSON.parse(row.meta) as { responseName: string } & Omit<StoredView, "response">;
  return { ownerAgencyId: row.ownerAgencyId, view: { response: { name: responseName, text: row.response }, ...meta } };
}
