import { eq } from "drizzle-orm";
import { GatewayError } from "@ndc/errors";
import { tables, type Store } from "@ndc/store";

/**
 * A member issues a redemption certificate in their own account (the airline's member site or
 * CLI); a seller can redeem points only by quoting it, never on the account number alone. It is
 * bound to the member account, carries the most points it may spend and an expiry, and is used once.
 */
export async function issueCertificate(
  store: Store,
  cert: { certificateId: string; memberAccount: string; points: number; expiresAt: number; issuedAt: number },
): Promise<void> {
  if (!Number.isSafeInteger(cert.points) || cert.points <= 0) throw new GatewayError("loyalty_points_insufficient", { detail: "A certificate carries a positive number of points." });
  await store.write(async (tx) => {
    const account = (await tx.select().from(tables.loyaltyAccounts).where(eq(tables.loyaltyAccounts.memberAccount, cert.memberAccount)))[0];
    if (!account) throw new GatewayError("loyalty_certificate_invalid", { detail: "Unknown member account." });
    await tx.insert(tables.loyaltyCertificates).values({ ...cert, state: "issued", legId: null });
  });
}
