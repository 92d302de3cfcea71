import { and, asc, desc, eq, gte, inArray, lte, sql, type SQL } from "drizzle-orm";
import { GatewayError } from "@ndc/errors";
import { tables } from "@ndc/store";
import type { OrdersContext } from "../context";
import { assertOwner, notFound, type HistoryEntry, type Order, type OrderState, type Seller } from "../state";
import { surnameDigest } from "./surname-digest";

/**
 * OrderRetrieve: the seller's own order. A missing order and another seller's order fail alike
 * (order_not_found), and the index is asked first so an unknown id never wakes an actor.
 */
export async function retrieve(ctx: OrdersContext, orderId: string, seller: Seller): Promise<Order> {
  const rows = await ctx.store.db
    .select({ agencyId: tables.orders.ownerAgencyId })
    .from(tables.orders)
    .where(eq(tables.orders.orderId, orderId))
    .limit(1);
  if (!rows[0] || rows[0].agencyId !== seller.agencyId) throw notFound();
  return assertOwner(await ctx.orders.ask(orderId, { op: "get" }), seller);
}

/** OrderHistory: each version with when, what kind of change and which fields changed. */
export async function history(ctx: OrdersContext, orderId: string, seller: Seller): Promise<HistoryEntry[]> {
  return (await retrieve(ctx, orderId, seller)).history;
}

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
  offset?: number;
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
  /** Orders matching the filters in all pages. */
  total: number;
  /** Offset of the next page, absent on the last. */
  nextOffset?: number;
}

export const MAX_PAGE = 100;

/**
 * OrderList: the seller's orders, newest first, filtered and paged from the orders index. Only
 * the seller's own orders are ever matched, and the rows carry no personal data.
 */
export async function list(ctx: OrdersContext, seller: Seller, filters: OrderListFilters = {}, page: OrderListPage = {}): Promise<OrderListResult> {
  const limit = page.limit ?? 20;
  const offset = page.offset ?? 0;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE) throw new GatewayError("request_invalid", { detail: `A page holds 1 to ${MAX_PAGE} orders.` });
  if (!Number.isInteger(offset) || offset < 0) throw new GatewayError("request_invalid", { detail: "The page offset is a whole number from 0." });
  const o = tables.orders;
  const where: SQL[] = [eq(o.ownerAgencyId, seller.agencyId)];
  if (filters.states?.length) where.push(inArray(o.state, filters.states));
  if (filters.createdFrom !== undefined) where.push(gte(o.createdAt, filters.createdFrom));
  if (filters.createdTo !== undefined) where.push(lte(o.createdAt, filters.createdTo));
  if (filters.modifiedFrom !== undefined) where.push(gte(o.updatedAt, filters.modifiedFrom));
  if (filters.modifiedTo !== undefined) where.push(lte(o.updatedAt, filters.modifiedTo));
  if (filters.travelFrom) where.push(gte(o.travelFrom, filters.travelFrom));
  if (filters.travelTo) where.push(lte(o.travelTo, filters.travelTo));
  if (filters.paxCount !== undefined) where.push(eq(o.paxCount, filters.paxCount));
  if (filters.paxSurname?.trim()) {
    const digest = surnameDigest(ctx.fieldKey, filters.paxSurname);
    where.push(sql`${o.orderId} IN (SELECT order_id FROM order_pax_index WHERE surname_digest = ${digest})`);
  }
  const cond = and(...where);
  const [{ n }] = (await ctx.store.db.select({ n: sql<number>`count(*)` }).from(o).where(cond)) as [{ n: number }];
  const rows = await ctx.store.db.select().from(o).where(cond).orderBy(desc(o.createdAt), asc(o.orderId)).limit(limit).offset(offset);
  const orders: OrderSummary[] = rows.map((r) => ({
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
  const n2 = Number(n);
  return { orders, total: n2, ...(offset + rows.length < n2 ? { nextOffset: offset + rows.length } : {}) };
}
