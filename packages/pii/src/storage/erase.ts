import { and, getTableName, inArray, isNull, sql } from "drizzle-orm";
import type { Store, StoreDb } from "@ndc/store";
import * as tables from "../tables";

/** Which of the erasure paths of spec 8 erases, and who: written on the audit row of each order it erases. */
export interface ErasedBy {
  path: "retention" | "account_deletion" | "supervisor";
  /** `scheduler` for the retention sweep, `web-shop-account:<id>` for a deletion, the supervisor's staff id. */
  actor: string;
  /** A supervisor's stated reason. */
  reason?: string;
}

/**
 * Erases the documents of the given orders (retention sweep, account deletion, a supervisor's
 * erase action: spec 8; the one way documents are erased): every personal column is set to NULL
 * and erased_at is stamped; ids stay so an erased document is told apart from one never held. In
 * the same transaction, one audit row per order erased (identity_document_erasures, `by`).
 * Returns how many documents were erased.
 *
 * NULLing a column is not enough on disk: SQLite leaves the old cell bytes in the page's free
 * space and the old page in the WAL. So the update runs with secure_delete on (freed bytes are
 * zeroed), and afterwards the WAL is checkpointed and truncated so no old frame survives.
 * secure_delete is put back as it was in the same transaction because it is a per-connection
 * setting and the writer connection is shared with every other write. PostgreSQL has neither
 * pragma: see afterErasure.
 *
 * `alsoInTransaction` writes the record of the erasure (a supervisor's audit row) in the same
 * transaction, after the documents, with how many were erased: both commit or neither does.
 */
export async function eraseIdentityDocuments(
  store: Store,
  orderIds: readonly string[],
  erasedAt: number,
  by: ErasedBy,
  alsoInTransaction?: (tx: StoreDb, erased: number) => Promise<void>,
): Promise<number> {
  if (orderIds.length === 0) return 0;
  const d = tables.identityDocuments;
  const sqlite = store.dialect === "sqlite";
  const erased = await store.write(async (tx, raw) => {
    const before = sqlite ? await tx.get<{ secure_delete: number }>(sql`PRAGMA secure_delete`) : undefined;
    if (sqlite) await raw.exec("PRAGMA secure_delete = ON");
    try {
      const rows = await tx
        .update(d)
        .set({
          typeCode: null,
          citizenship: null,
          issuingCountry: null,
          residenceCountry: null,
          issueDate: null,
          expiryDate: null,
          holderSurname: null,
          givenNames: null,
          middleNames: null,
          suffixName: null,
          titleName: null,
          birthDate: null,
          birthplace: null,
          gender: null,
          numberCiphertext: null,
          numberNonce: null,
          keyVersion: null,
          erasedAt,
        })
        .where(and(inArray(d.orderId, [...orderIds]), isNull(d.erasedAt)))
        .returning({ orderId: d.orderId });
      // The signed originals of the same orders hold the same documents (issue 11 item 3): erased
      // in the same transaction, so no erasure path can forget them. Their digest stays chained.
      const o = tables.signedOriginals;
      const originals = await tx
        .update(o)
        .set({ ciphertext: null, nonce: null, keyVersion: null, erasedAt })
        .where(and(inArray(o.orderId, [...orderIds]), isNull(o.erasedAt)))
        .returning({ seq: o.evidenceSeq });
      // The audit: one row per order whose documents this erasure took, in its transaction.
      const perOrder = new Map<string, number>();
      for (const r of rows) perOrder.set(r.orderId, (perOrder.get(r.orderId) ?? 0) + 1);
      for (const [orderId, documents] of perOrder) {
        await tx.insert(tables.identityDocumentErasures).values({ orderId, path: by.path, actor: by.actor, reason: by.reason ?? null, documents, erasedAt }).run();
      }
      if (alsoInTransaction) await alsoInTransaction(tx, rows.length);
      return { documents: rows.length, originals: originals.length };
    } finally {
      if (sqlite) await raw.exec(`PRAGMA secure_delete = ${before?.secure_delete === 1 ? "ON" : "OFF"}`);
    }
  });
  // Best effort: a long-running reader can keep old frames alive until the next checkpoint (or
  // an old snapshot keeps dead tuples until the next VACUUM); the erasure is committed either way.
  if (erased.documents + erased.originals > 0) await store.exec(afterErasure(store)).catch(() => undefined);
  return erased.documents;
}

/**
 * What clears an erasure's old bytes from the live database once it committed. SQLite: the WAL
 * checkpointed and truncated (secure_delete already zeroed the freed cells). PostgreSQL has no
 * secure_delete: the old row versions stay in dead tuples until VACUUM, which this runs on the two
 * erased tables (outside any transaction, as VACUUM must). Their bytes also stay in PostgreSQL's
 * WAL, its replicas' and its backups for their retention, which nothing here can reach: that is
 * why the personal fields are sealed with the field key (docs/operations.md, "Erasure on
 * PostgreSQL").
 */
function afterErasure(store: Store): string {
  if (store.dialect === "postgres") return `VACUUM ${getTableName(tables.identityDocuments)}, ${getTableName(tables.signedOriginals)}`;
  return "PRAGMA wal_checkpoint(TRUNCATE)";
}
