import { eq } from "drizzle-orm";
import type { Store, StoreDb } from "@ndc/store";
import * as tables from "../tables";
import { isCurrencyCode, money } from "@ndc/money";
import type { CommissionAgreement } from "./commission";

type Row = typeof tables.commissionAgreements.$inferInsert;

/**
 * A row that does not hold a valid agreement; `field` names what is wrong (kind, basisPoints,
 * tiers, amountMinor, currency or parameters), so the staff console can name it to the caller.
 */
export class CommissionAgreementInvalid extends Error {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
    this.name = "CommissionAgreementInvalid";
  }
}

/**
 * The agency's commission agreement (commission_agreements), or undefined when it has none:
 * no agreement means no commission, not an error. A row that does not hold a valid agreement
 * throws instead of being skipped: selling without the commission an agency is owed would be
 * silent, and the fault is the operator's data, not the seller's request.
 */
export async function commissionAgreementFor(store: Pick<Store, "db">, agencyId: string): Promise<CommissionAgreement | undefined> {
  const A = tables.commissionAgreements;
  const [row] = await store.db.select().from(A).where(eq(A.agencyId, agencyId));
  return row ? agreementOf(row) : undefined;
}

/** Writes (or replaces) an agency's agreement inside a write transaction. */
export async function putCommissionAgreement(tx: StoreDb, agencyId: string, agreement: CommissionAgreement, createdAt: number): Promise<void> {
  const row = agreementRow(agencyId, agreement, createdAt);
  agreementOf(row); // refuse to store what could not be read back
  const { agencyId: _key, ...rest } = row;
  await tx.insert(tables.commissionAgreements).values(row).onConflictDoUpdate({ target: tables.commissionAgreements.agencyId, set: rest });
}

/** The table's row for an agreement: parameters as JSON, currency only where the kind has one. */
export function agreementRow(agencyId: string, a: CommissionAgreement, createdAt: number): Row {
  switch (a.kind) {
    case "percentage":
      return { agencyId, kind: a.kind, parameters: JSON.stringify({ basisPoints: a.basisPoints }), currency: null, createdAt };
    case "tiered":
      return { agencyId, kind: a.kind, parameters: JSON.stringify({ tiers: a.tiers.map((t) => ({ from: t.from, basisPoints: t.basisPoints })) }), currency: a.currency, createdAt };
    case "flat":
      return { agencyId, kind: a.kind, parameters: JSON.stringify({ amountMinor: a.amount.amount }), currency: a.amount.currency, createdAt };
  }
}

const isMinor = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;
// 10,000 basis points is 100%: a share above the whole sale is not a commission.
const isRate = (n: unknown): n is number => isMinor(n) && (n as number) <= 10_000;

function agreementOf(row: Pick<Row, "agencyId" | "kind" | "parameters" | "currency">): CommissionAgreement {
  const bad = (why: string, field: string): never => {
    throw new CommissionAgreementInvalid(`commission_agreements row of agency ${row.agencyId}: ${why}`, field);
  };
  let p: Record<string, unknown>;
  try {
    p = JSON.parse(row.parameters) as Record<string, unknown>;
  } catch {
    return bad("parameters are not JSON", "parameters");
  }
  const currency = row.currency ?? undefined;
  if (row.kind === "percentage") {
    if (!isRate(p.basisPoints)) bad("basisPoints must be an integer from 0 to 10000", "basisPoints");
    return { kind: "percentage", basisPoints: p.basisPoints as number };
  }
  if (!currency || !isCurrencyCode(currency)) return bad(`currency ${String(currency)} is not one the gateway prices in`, "currency");
  if (row.kind === "tiered") {
    const tiers = p.tiers;
    if (!Array.isArray(tiers) || tiers.length === 0) return bad("tiered needs at least one tier", "tiers");
    for (const t of tiers as { from?: unknown; basisPoints?: unknown }[]) if (!isMinor(t.from) || !isRate(t.basisPoints)) bad("each tier needs an integer from and basisPoints", "tiers");
    return { kind: "tiered", currency, tiers: (tiers as { from: number; basisPoints: number }[]).map((t) => ({ from: t.from, basisPoints: t.basisPoints })) };
  }
  if (row.kind === "flat") {
    if (!isMinor(p.amountMinor)) bad("flat needs an integer amountMinor", "amountMinor");
    return { kind: "flat", amount: money(p.amountMinor as number, currency) };
  }
  return bad(`unknown kind ${row.kind}`, "kind");
}
