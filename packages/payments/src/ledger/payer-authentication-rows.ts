import type { StoreDb } from "@ndc/store";
import type { LegRequest } from "../legs/types";
import { paymentCardAuthentications } from "../tables/card-authentications";

/**
 * Keeps a card leg's 3-D Secure results with the leg, in the transaction that writes the leg row
 * (a sale's open write, a ledger authorisation). A replanned run finds its row and keeps it.
 */
export async function keepPayerAuthentication(tx: StoreDb, legId: string, req: LegRequest, now: number): Promise<void> {
  if (req.kind !== "card" || !req.authentication) return;
  const a = req.authentication;
  await tx
    .insert(paymentCardAuthentications)
    .values({ legId, eci: a.eci, authenticationValue: a.authenticationValue ?? null, protocolVersion: a.protocolVersion ?? null, dsTrxId: a.dsTrxId ?? null, trxStatus: a.trxStatus ?? null, createdAt: now })
    .onConflictDoNothing();
}
