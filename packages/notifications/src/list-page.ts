import { and, eq, gt, or, type SQL } from "drizzle-orm";
import { GatewayError } from "@ndc/errors";
import { notificationSubscriptions as S } from "./tables";

/** A page of subscriptions holds this many unless the caller asks for fewer or more (up to PAGE_MAX). */
export const PAGE_DEFAULT = 20;
export const PAGE_MAX = 100;

/** The sort key of the last subscription of a page: the list pages on (createdAt, subscriptionId), oldest first. */
export interface PagePosition {
  createdAt: number;
  subscriptionId: string;
}

/**
 * A keyset cursor, as OrderList's (packages/orders/src/read/list-cursor.ts) but without its MAC:
 * the agency condition is in every query, so a cursor altered by hand reaches only the caller's
 * own rows, and its shape alone decides whether it is refused. Opaque to the seller by contract.
 */
export function pageCursor(at: PagePosition): string {
  return Buffer.from(`${at.createdAt}.${at.subscriptionId}`).toString("base64url");
}

const refuse = (element: string, detail: string) => new GatewayError("request_invalid", { detail, element });

export function openPageCursor(token: string): PagePosition {
  const position = token.length <= 200 && /^[A-Za-z0-9_-]+$/.test(token) ? Buffer.from(token, "base64url").toString() : "";
  const m = position.match(/^(\d{1,15})\.(sub_[A-Za-z0-9_-]{1,64})$/);
  if (!m) throw refuse("after", "The page cursor is not one this list issued: send the `next` of the previous page, or start again from the first page.");
  return { createdAt: Number(m[1]), subscriptionId: m[2]! };
}

/** The page size asked for: a whole number from 1 to PAGE_MAX, PAGE_DEFAULT when absent. */
export function pageLimit(raw: string | null): number {
  if (raw === null) return PAGE_DEFAULT;
  const n = /^\d{1,3}$/.test(raw) ? Number(raw) : 0;
  if (n < 1 || n > PAGE_MAX) throw refuse("limit", `The page size is a whole number from 1 to ${PAGE_MAX}.`);
  return n;
}

/** The rows after a position, in the list's order. */
export function afterPosition(at: PagePosition): SQL {
  return or(gt(S.createdAt, at.createdAt), and(eq(S.createdAt, at.createdAt), gt(S.subscriptionId, at.subscriptionId)))!;
}
