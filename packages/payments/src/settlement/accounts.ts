import { and, asc, eq } from "drizzle-orm";
import { fromDecimalString, isCurrencyCode, toDecimalString, type CurrencyCode } from "@ndc/money";
import { tables, type StoreDb } from "@ndc/store";
import { SETTLEMENT_METHODS, type SettlementMethod } from "../legs/types";
import { SETTLEMENT_METHOD_NAMES } from "../masking";

/**
 * An agency's settlement accounts (spec 4.4 rule 6: CA BSP cash, DP ARC, MS direct bill), opened
 * and closed by the airline for any registered agency (issue 19 item 15). A settlement-plan leg
 * reserves credit on the agency's active account of the method and currency asked
 * (ledger/instruments.ts), so an agency holds at most one active account per method and currency:
 * two would make the choice ambiguous. Closing stops new authorisations only; money already
 * reserved or taken on it is captured, refunded and cleared as before.
 */

const SA = tables.settlementAccounts;
type Row = typeof SA.$inferSelect;

/** What the operator asked does not make an account; `field` names what is wrong for the caller to show. */
export class SettlementAccountInvalid extends Error {
  constructor(
    message: string,
    readonly field: "method" | "currency" | "creditLimit" | "accountId",
    /** The agency holds no account of that id (a staff caller answers it as a missing target). */
    readonly notFound = false,
  ) {
    super(message);
    this.name = "SettlementAccountInvalid";
  }
}

/** The account as staff and the CLI show it: amounts as decimals of its currency, headroom counting pending. */
export interface SettlementAccountView {
  accountId: string;
  agencyId: string;
  method: SettlementMethod;
  methodName: string;
  currency: string;
  creditLimit: string;
  used: string;
  pending: string;
  headroom: string;
  state: "open" | "closed";
}

export function settlementAccountView(r: Row): SettlementAccountView {
  const cur = r.currency as CurrencyCode;
  const dec = (amount: number) => toDecimalString({ amount, currency: cur });
  return {
    accountId: r.accountId, agencyId: r.agencyId, method: r.method as SettlementMethod, methodName: SETTLEMENT_METHOD_NAMES[r.method as SettlementMethod] ?? r.method,
    currency: r.currency, creditLimit: dec(r.creditLimit), used: dec(r.used), pending: dec(r.pending), headroom: dec(r.creditLimit - r.used - r.pending),
    state: r.active ? "open" : "closed",
  };
}

/** Every account of the agency, open and closed, by account id. */
export async function settlementAccountsOf(db: StoreDb, agencyId: string): Promise<SettlementAccountView[]> {
  return (await db.select().from(SA).where(eq(SA.agencyId, agencyId)).orderBy(asc(SA.accountId))).map(settlementAccountView);
}

export interface OpenAccount {
  method: string;
  currency: string;
  /** The credit limit as a decimal of the currency ("50000.00"). */
  creditLimit: string;
}

/**
 * Opens the agency's account of this method and currency inside the caller's write (the caller
 * has checked the agency is registered, in the same transaction). A closed account of the same
 * method and currency is opened again with the new limit, keeping what it owes (its id stays the
 * one clearances and ledger rows name); an open one is refused. Returns the account and whether it
 * was opened again.
 */
export async function openSettlementAccount(tx: StoreDb, agencyId: string, input: OpenAccount): Promise<{ account: SettlementAccountView; reopened: boolean }> {
  const method = input.method.trim().toUpperCase();
  if (!(SETTLEMENT_METHODS as readonly string[]).includes(method)) throw new SettlementAccountInvalid(`method is one of ${SETTLEMENT_METHODS.join(", ")} (CA BSP cash, DP ARC, MS direct bill).`, "method");
  const currency = input.currency.trim().toUpperCase();
  if (!isCurrencyCode(currency)) throw new SettlementAccountInvalid(`currency ${currency.slice(0, 3)} is not one the gateway prices in.`, "currency");
  let limit: number;
  try {
    limit = fromDecimalString(input.creditLimit, currency).amount;
  } catch {
    throw new SettlementAccountInvalid(`creditLimit is a decimal amount of ${currency} (for example 50000.00).`, "creditLimit");
  }
  if (!Number.isSafeInteger(limit) || limit <= 0) throw new SettlementAccountInvalid("creditLimit is more than zero.", "creditLimit");
  const [held] = await tx.select().from(SA).where(and(eq(SA.agencyId, agencyId), eq(SA.method, method), eq(SA.currency, currency)));
  if (held?.active) throw new SettlementAccountInvalid(`Agency ${agencyId} already holds the open ${method} account in ${currency} (${held.accountId}); close it first.`, "method");
  if (held) {
    // What it still owes or has reserved stays within the limit (the table's CHECK says the same).
    if (held.used + held.pending > limit) {
      throw new SettlementAccountInvalid(`creditLimit is below what account ${held.accountId} already uses (${toDecimalString({ amount: held.used + held.pending, currency })} ${currency}).`, "creditLimit");
    }
    await tx.update(SA).set({ active: 1, creditLimit: limit }).where(eq(SA.accountId, held.accountId));
    return { account: settlementAccountView({ ...held, active: 1, creditLimit: limit }), reopened: true };
  }
  const row: Row = { accountId: `SA-${agencyId}-${method}-${currency}`, agencyId, method, currency, creditLimit: limit, used: 0, pending: 0, active: 1 };
  await tx.insert(SA).values(row);
  return { account: settlementAccountView(row), reopened: false };
}

/** Closes one of the agency's open accounts: the next settlement-plan leg on it is `settlement_account_unavailable`. */
export async function closeSettlementAccount(tx: StoreDb, agencyId: string, accountId: string): Promise<SettlementAccountView> {
  const [row] = await tx.select().from(SA).where(and(eq(SA.accountId, accountId), eq(SA.agencyId, agencyId)));
  if (!row) throw new SettlementAccountInvalid(`Agency ${agencyId} holds no settlement account ${accountId}.`, "accountId", true);
  if (!row.active) throw new SettlementAccountInvalid(`Account ${accountId} is already closed.`, "accountId");
  await tx.update(SA).set({ active: 0 }).where(eq(SA.accountId, accountId));
  return settlementAccountView({ ...row, active: 0 });
}
