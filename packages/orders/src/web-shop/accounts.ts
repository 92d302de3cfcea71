import { randomUUID } from "node:crypto";
import { and, asc, eq, isNull } from "drizzle-orm";
import { eraseIdentityDocuments } from "@ndc/pii";
import { tables, type Store, type StoreDb } from "@ndc/store";
import type { Seller } from "../state";
import { webShopAccounts as A } from "../tables/web-shop-accounts";

/**
 * The web shop's customer accounts and the link to their orders (spec 8, decision 0029). The web
 * shop sells as its own agency; an order's owner client names the account it was booked for
 * (`web-shop:<account id>`) or `web-shop:guest`. The link is part of the order, written by the
 * order's own write: there is no second table to fall out of step with it.
 */
export const WEB_SHOP_AGENCY = "WEB-SHOP";
const GUEST = "guest";

export function webShopSeller(accountId?: string): Seller {
  return { clientId: `web-shop:${accountId ?? GUEST}`, agencyId: WEB_SHOP_AGENCY };
}

export type WebShopAccountErrorCode = "web_shop_account_not_found" | "web_shop_account_deleted" | "web_shop_account_exists" | "web_shop_account_invalid";

/** A refusal of the account commands; its text never quotes an email or a name. */
export class WebShopAccountError extends Error {
  constructor(
    readonly code: WebShopAccountErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface WebShopAccount {
  accountId: string;
  email: string | null;
  name: string | null;
  createdAt: number;
  deletedAt: number | null;
}

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,189}\.[^\s@]{1,63}$/;

export async function addAccount(store: Store, input: { email: string; name: string }, now: number): Promise<WebShopAccount> {
  const email = input.email.trim().toLowerCase();
  const name = input.name.trim();
  if (!EMAIL.test(email) || email.length > 254) throw new WebShopAccountError("web_shop_account_invalid", "The email address is not valid.");
  if (name.length === 0 || name.length > 200) throw new WebShopAccountError("web_shop_account_invalid", "The name must be 1 to 200 characters.");
  const row = { accountId: `WSA-${randomUUID()}`, email, name, createdAt: now, deletedAt: null };
  try {
    await store.write((tx) => tx.insert(A).values(row).run());
  } catch (e) {
    if (/UNIQUE/i.test(String(e))) throw new WebShopAccountError("web_shop_account_exists", "An account with this email address exists.");
    throw e;
  }
  return row;
}

export async function listAccounts(db: StoreDb): Promise<WebShopAccount[]> {
  return db.select().from(A).orderBy(asc(A.createdAt), asc(A.accountId)).all();
}

/** The account a booking is for: it must exist and not be deleted. */
export async function requireOpenAccount(db: StoreDb, accountId: string): Promise<WebShopAccount> {
  const row = await db.select().from(A).where(eq(A.accountId, accountId)).get();
  if (!row) throw new WebShopAccountError("web_shop_account_not_found", `No web-shop account ${accountId.slice(0, 64)}.`);
  if (row.deletedAt !== null) throw new WebShopAccountError("web_shop_account_deleted", `The web-shop account ${accountId} is deleted.`);
  return row;
}

/**
 * Deletes an account (spec 8): first, in one write, the account is marked deleted and its email
 * and name are cleared; then the documents of every order booked for it are erased through the
 * one erasure path (an audit row per order, in the erasure's transaction). Guest orders and other
 * accounts' orders are not touched. Run again, it finishes an interrupted deletion: the mark is
 * kept, and whatever documents are left (a booking that committed meanwhile) are erased.
 * Deleted first, erased second: a booking checks the account after its order commits
 * (`eraseIfAccountDeleted`), so of a deletion and a booking racing, one always sees the other.
 */
export async function deleteAccount(store: Store, accountId: string, now: number): Promise<{ orders: number; documents: number }> {
  const marked = await store.write(async (tx) => {
    const row = await tx.select({ id: A.accountId }).from(A).where(eq(A.accountId, accountId)).get();
    if (!row) return false;
    await tx.update(A).set({ deletedAt: now, email: null, name: null }).where(and(eq(A.accountId, accountId), isNull(A.deletedAt))).run();
    return true;
  });
  if (!marked) throw new WebShopAccountError("web_shop_account_not_found", `No web-shop account ${accountId.slice(0, 64)}.`);
  const orderIds = await ordersOf(store.db, accountId);
  const documents = await eraseIdentityDocuments(store, orderIds, now, erasedByDeletion(accountId));
  return { orders: orderIds.length, documents };
}

/**
 * After a booking for an account commits: if the account was deleted meanwhile, the order's
 * documents are erased now, like the account's other orders. Returns how many were erased.
 */
export async function eraseIfAccountDeleted(store: Store, accountId: string, orderId: string, now: number): Promise<number> {
  const row = await store.db.select({ deletedAt: A.deletedAt }).from(A).where(eq(A.accountId, accountId)).get();
  if (row?.deletedAt === null || row === undefined) return 0;
  return eraseIdentityDocuments(store, [orderId], now, erasedByDeletion(accountId));
}

const erasedByDeletion = (accountId: string) => ({ path: "account_deletion" as const, actor: `web-shop-account:${accountId}` });

/** Every order booked for the account (the orders index's owner client). */
async function ordersOf(db: StoreDb, accountId: string): Promise<string[]> {
  const o = tables.orders;
  const rows = await db.select({ id: o.orderId }).from(o).where(and(eq(o.ownerAgencyId, WEB_SHOP_AGENCY), eq(o.ownerClientId, webShopSeller(accountId).clientId))).all();
  return rows.map((r) => r.id);
}
