import { createHmac, timingSafeEqual } from "node:crypto";
import { GatewayError } from "@ndc/errors";
import type { FieldKey } from "@ndc/pii";
import type { Seller } from "../state";
import type { OrderListFilters } from "./list";

/** The sort key of the last order of a page: OrderList pages on (createdAt, orderId), newest first. */
export interface ListPosition {
  createdAt: number;
  orderId: string;
}

/** Where OrderListRQ carries the cursor (docs/messages/OrderListRQ.md): named in a refusal. */
export const CURSOR_ELEMENT = "AugmentationPoint/Page/@after";

/**
 * The filters in one canonical text, so the same filters written in another order bind the same
 * cursor. The surname is bound by its keyed digest, never in clear.
 */
function canonicalFilters(f: OrderListFilters, surnameDigest: string | undefined): string {
  return JSON.stringify([
    f.states ? [...new Set(f.states)].sort() : null,
    f.createdFrom ?? null,
    f.createdTo ?? null,
    f.modifiedFrom ?? null,
    f.modifiedTo ?? null,
    f.travelFrom ?? null,
    f.travelTo ?? null,
    f.paxCount ?? null,
    surnameDigest ?? null,
  ]);
}

function mac(key: FieldKey, seller: Seller, filters: string, position: string): Buffer {
  return createHmac("sha256", key.key)
    .update(`ndc-gateway/order-list-cursor/v1\0${seller.agencyId}\0${filters}\0${position}`)
    .digest()
    .subarray(0, 16);
}

/**
 * A keyset cursor: the last row's sort key plus a MAC over it, the seller and the filters, under
 * the field key. Opaque to the seller by contract; the MAC makes a cursor altered, or replayed by
 * another seller or with other filters, a clear refusal instead of a silently different page.
 * (The seller's own orders are the only ones any position can reach: the owner condition is in
 * every query, so the MAC is about clear answers, not about access.)
 */
export function sealCursor(key: FieldKey, seller: Seller, f: OrderListFilters, digest: string | undefined, at: ListPosition): string {
  const position = `${at.createdAt}.${at.orderId}`;
  return `${Buffer.from(position).toString("base64url")}.${mac(key, seller, canonicalFilters(f, digest), position).toString("base64url")}`;
}

export function openCursor(key: FieldKey, seller: Seller, f: OrderListFilters, digest: string | undefined, token: string): ListPosition {
  const refuse = () =>
    new GatewayError("request_invalid", {
      detail: "The page cursor was not issued to this seller for these filters: send the same filters as the page it came from, or start again from the first page.",
      element: CURSOR_ELEMENT,
    });
  const [pos64, tag64, extra] = token.split(".");
  if (!pos64 || !tag64 || extra !== undefined || token.length > 200) throw refuse();
  const position = Buffer.from(pos64, "base64url").toString();
  const tag = Buffer.from(tag64, "base64url");
  const want = mac(key, seller, canonicalFilters(f, digest), position);
  if (tag.length !== want.length || !timingSafeEqual(tag, want)) throw refuse();
  const dot = position.indexOf(".");
  const createdAt = Number(position.slice(0, dot));
  if (dot < 1 || !Number.isSafeInteger(createdAt)) throw refuse();
  return { createdAt, orderId: position.slice(dot + 1) };
}
