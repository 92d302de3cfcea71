import { tables, type Store } from "@ndc/store";
import { commissionAgreements } from "../tables";
import { OWN_PROGRAMME } from "../loyalty/programme";
import { agreementRow } from "../commission/agreements";
import type { CommissionAgreement } from "../commission/commission";

// Sandbox payment data (docs/payments.md lists it for sellers). Far-future expiries keep it
// usable; one expired voucher and one inactive account show the refusals.
const FAR = Date.UTC(2035, 11, 31);
const PAST = Date.UTC(2020, 0, 1);
const ISSUED = Date.UTC(2026, 0, 1);

export const SANDBOX_AGENCY = "SANDBOX-AGENCY";

export const SANDBOX_VOUCHERS = [
  { code: "VCH-SANDBOX-EUR-0100", currency: "EUR", balance: 10_000, pending: 0, active: 1, expiresAt: FAR },
  { code: "VCH-SANDBOX-EUR-0025", currency: "EUR", balance: 2_500, pending: 0, active: 1, expiresAt: FAR },
  { code: "VCH-SANDBOX-USD-0200", currency: "USD", balance: 20_000, pending: 0, active: 1, expiresAt: FAR },
  { code: "VCH-SANDBOX-EXPIRED1", currency: "EUR", balance: 5_000, pending: 0, active: 1, expiresAt: PAST },
];

export const SANDBOX_SETTLEMENT_ACCOUNTS = [
  { accountId: "SA-SANDBOX-CA-EUR", agencyId: SANDBOX_AGENCY, method: "CA", currency: "EUR", creditLimit: 5_000_000, used: 0, pending: 0, active: 1 },
  { accountId: "SA-SANDBOX-DP-USD", agencyId: SANDBOX_AGENCY, method: "DP", currency: "USD", creditLimit: 5_000_000, used: 0, pending: 0, active: 1 },
  { accountId: "SA-SANDBOX-MS-EUR", agencyId: SANDBOX_AGENCY, method: "MS", currency: "EUR", creditLimit: 1_000_000, used: 0, pending: 0, active: 0 },
];

export const SANDBOX_MEMBERS = [
  { memberAccount: "XB1000000001", programme: OWN_PROGRAMME, points: 100_000, pending: 0 },
  { memberAccount: "XB1000000002", programme: OWN_PROGRAMME, points: 2_000, pending: 0 },
];

export const SANDBOX_CERTIFICATES = [
  { certificateId: "900000000001", memberAccount: "XB1000000001", points: 20_000, expiresAt: FAR, state: "issued", legId: null, issuedAt: ISSUED },
  { certificateId: "900000000002", memberAccount: "XB1000000001", points: 5_000, expiresAt: FAR, state: "issued", legId: null, issuedAt: ISSUED },
  { certificateId: "900000000003", memberAccount: "XB1000000002", points: 10_000, expiresAt: FAR, state: "issued", legId: null, issuedAt: ISSUED },
  { certificateId: "900000000099", memberAccount: "XB1000000001", points: 1_000, expiresAt: PAST, state: "issued", legId: null, issuedAt: PAST - 1 },
];

/**
 * The sandbox agency sells under a 5% agreement, so PAYCOM can be tried without registering one.
 * A percentage (not tiered or flat) because it serves a sale in any currency and every post-sale
 * charge (spec 4.7 servicing rule 6).
 */
export const SANDBOX_COMMISSION: CommissionAgreement = { kind: "percentage", basisPoints: 500 };

/** Idempotent: rows that exist (and whatever was spent from them) are left as they are. */
export async function seedPayments(store: Store): Promise<void> {
  await store.write(async (tx) => {
    await tx.insert(tables.vouchers).values(SANDBOX_VOUCHERS).onConflictDoNothing();
    await tx.insert(tables.settlementAccounts).values(SANDBOX_SETTLEMENT_ACCOUNTS).onConflictDoNothing();
    await tx.insert(tables.loyaltyAccounts).values(SANDBOX_MEMBERS).onConflictDoNothing();
    await tx.insert(tables.loyaltyCertificates).values(SANDBOX_CERTIFICATES).onConflictDoNothing();
    // An agreement the operator changed since is theirs: left as it is, like a spent voucher.
    await tx.insert(commissionAgreements).values(agreementRow(SANDBOX_AGENCY, SANDBOX_COMMISSION, ISSUED)).onConflictDoNothing();
  });
}
