import { desc, sql } from "drizzle-orm";
import { GatewayError } from "@ndc/errors";
import { inPipeList, isNullParam, preparedOnce, tables } from "@ndc/store";
import type { OrdersContext } from "../context";
import type { OrderState, Seller } from "../state";
import { openCursor, sealCursor, type ListPosition } from "./list-cursor";
import { surnameDigest } from "./surname-digest";

export interface OrderListFilters {
  states?: OrderState[];
  createdFrom?: number;
  createdTo?: number;
  /** Last change (updatedAt) on or after / on or before, epoch ms (OrderListRQ LastModifiedDateTimeFilterCriteria). */
  modifiedFrom?: number;
  modifiedTo?: number;
  /** First travel date on or after / last on or before (YYYY-MM-DD). */
  travelFrom?: string;
  travelTo?: string;
  /** Exact surname of any passenger, case-insensitive, matched by keyed digest. */
  paxSurname?: string;
  paxCount?: number;
}

export interface OrderListPage {
  /** The cursor of the previous page (OrderListResult.next); absent: the first page. */
  after?: string;
  /** 1..100, default 20. */
  limit?: number;
}

export interface OrderSummary {
  orderId: string;
  state: OrderState;
  version: number;
  createdAt: number;
  updatedAt: number;
  paymentTimeLimit?: number;
  currency: string;
  totalMinor: number;
  paxCount: number;
  travelFrom?: string;
  travelTo?: string;
}

export interface OrderListResult {
  orders: OrderSummary[];
  /** The cursor of the next page, absent on the last. Bound to this seller and these filters. */
  next?: string;
}

export const MAX_PAGE = 100;

/** Before every order: the position of a first page. */
const START: ListPosition = { createdAt: Number.MAX_SAFE_INTEGER, orderId: "" };

const o = tables.orders;
const p = (name: string) => sql.placeholder(name);
/** An absent filter is bound NULL; the CAST lets PostgreSQL type the parameter too (isNullParam). */
const absent = (name: string, type: "text" | "bigint") => isNullParam(p(name), type);

/**
 * One statement for every filter combination, prepared once per connection: an absent filter is
 * bound NULL and drops out. The keyset condition `(created_at, order_id) < (last row)` and the
 * order both follow the index orders_owner_created (owner_agency_id, created_at, order_id), so
 * any page costs what the first does: a seek and `limit` rows, no OFFSET walk and no COUNT.
 */
const page = preparedOnce((db) =>
  db
    .select()
    .from(o)
    .where(
      sql`${o.ownerAgencyId} = ${p("agency")}
        AND (${o.createdAt}, ${o.orderId}) < (${p("atCreated")}, ${p("atId")})
        AND (${absent("states", "text")} OR ${inPipeList(p("states"), o.state)})
        AND (${absent("createdFrom", "bigint")} OR ${o.createdAt} >= ${p("createdFrom")})
        AND (${absent("createdTo", "bigint")} OR ${o.createdAt} <= ${p("createdTo")})
        AND (${absent("modifiedFrom", "bigint")} OR ${o.updatedAt} >= ${p("modifiedFrom")})
        AND (${absent("modifiedTo", "bigint")} OR ${o.updatedAt} <= ${p("modifiedTo")})
        AND (${absent("travelFrom", "text")} OR ${o.travelFrom} >= ${p("travelFrom")})
        AND (${absent("travelTo", "text")} OR ${o.travelTo} <= ${p("travelTo")})
        AND (${absent("paxCount", "bigint")} OR ${o.paxCount} = ${p("paxCount")})
        AND (${absent("digest", "text")} OR ${o.orderId} IN (SELECT order_id FROM order_pax_index WHERE surname_digest = ${p("digest")}))`,
    )
    .orderBy(desc(o.createdAt), desc(o.orderId))
    .limit(p("limit"))
    .prepare(),
);

/**
 * OrderList: the seller's orders, newest first (ties by order id, descending), filtered and paged
 * from the orders index by keyset. Only the seller's own orders are ever matched, and the rows
 * carry no personal data. An order booked while a seller pages sorts before the first page, so
 * it never shifts the pages after it.
 */
export async function list(ctx: OrdersContext, seller: Seller, filters: OrderListFilters = {}, pg: OrderListPage = {}): Promise<OrderListResult> {
  const limit = pg.limit ?? 20;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE) throw new GatewayError("request_invalid", { detail: `A page holds 1 to ${MAX_PAGE} orders.` });
  const digest = filters.paxSurname?.trim() ? surnameDigest(ctx.fieldKey, filters.paxSurname) : undefined;
  const at = pg.after !== undefined ? openCursor(ctx.fieldKey, seller, filters, digest, pg.after) : START;
  const rows = await page(ctx.store.db).all({
    agency: seller.agencyId,
    atCreated: at.createdAt,
    atId: at.orderId,
    states: filters.states?.length ? `|${filters.states.join("|")}|` : null,
    createdFrom: filters.createdFrom ?? null,
    createdTo: filters.createdTo ?? null,
    modifiedFrom: filters.modifiedFrom ?? null,
    modifiedTo: filters.modifiedTo ?? null,
    travelFrom: filters.travelFrom || null,
    travelTo: filters.travelTo || null,
    paxCount: filters.paxCount ?? null,
    digest: digest ?? null,
    // One row more than the page says whether another page follows, without counting.
    limit: limit + 1,
  });
  const orders: OrderSummary[] = rows.slice(0, limit).map((r) => ({
    orderId: r.orderId,
    state: r.state as OrderState,
    version: r.version,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    ...(r.paymentTimeLimit !== null ? { paymentTimeLimit: r.paymentTimeLimit } : {}),
    currency: r.currency,
    totalMinor: r.totalMinor,
    paxCount: r.paxCount,
    ...(r.travelFrom ? { travelFrom: r.travelFrom } : {}),
    ...(r.travelTo ? { travelTo: r.travelTo } : {}),
  }));
  const last = orders.at(-1);
  return { orders, ...(rows.length > limit && last ? { next: sealCursor(ctx.fieldKey, seller, filters, digest, last) } : {}) };
}
