import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { migrate, openStore, readMigrations, storeErrorCode, type DriverName, type Store } from "@ndc/store";
import * as tables from "../../packages/pii/src/tables";
import {
  eraseIdentityDocuments,
  FieldDecryptError,
  IdentityDocumentUnavailable,
  insertIdentityDocuments,
  readMaskedDocuments,
  revealNumber,
  validateIdentityDoc,
} from "@ndc/pii";
import { tempDirs, testKey, validInput } from "./helpers";

const dirs = tempDirs("ndc-pii-");
const stores: Store[] = [];
afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  dirs.clean();
});

// Only the migrations of this table and its erasure audit: the test is about them, not about later areas.
// 0047 too: erasure also erases the signed originals kept with an order (docs/signatures.md).
const MIGRATIONS = readMigrations().filter((m) => m.version <= "0005_identity_documents" || m.version === "0043_identity_document_erasures" || m.version === "0047_signature_evidence");
const key = testKey(2);
// Distinctive values, so a byte search cannot match anything else in the file.
const NUMBER = "ZQXNUMBER7731946";
const SURNAME = "Zqxsurnameonly";
const BIRTHPLACE = "Zqxbirthplacetown";

async function open(driver: DriverName): Promise<{ store: Store; path: string }> {
  const path = join(dirs.make(), "g.db");
  const store = await openStore(`file:${path}`, { driver });
  stores.push(store);
  await migrate(store, MIGRATIONS);
  return { store, path };
}

/** Every byte of the database as it is on disk: main file, WAL and rollback journal. */
function fileBytes(path: string): Buffer {
  return Buffer.concat([path, `${path}-wal`, `${path}-journal`].filter(existsSync).map((p) => readFileSync(p)));
}
const onDisk = (path: string, value: string) => fileBytes(path).includes(Buffer.from(value, "utf8"));

const doc = (over = {}) => validateIdentityDoc(validInput({ IdentityDocID: NUMBER, Surname: SURNAME, BirthplaceText: BIRTHPLACE, ...over }));

describe.each(["bun-sqlite", "libsql"] as const)("%s", (driver) => {
  test("the clear number is nowhere in the database files; masked read has no number", async () => {
    const { store, path } = await open(driver);
    await store.write((tx) => insertIdentityDocuments(tx, key, "ORD-1", [{ documentId: "DOC-1", paxId: "PAX-1", doc: doc() }], 1_000));
    expect(onDisk(path, NUMBER)).toBe(false);
    expect(onDisk(path, SURNAME)).toBe(true); // the search works: the surname is stored in clear
    const views = await readMaskedDocuments(store.db, "ORD-1");
    expect(views).toEqual([
      { documentId: "DOC-1", paxId: "PAX-1", view: { type: "PT", typeName: "Passport", citizenship: "FR", issuingCountry: "FR", expiry: "2030-01-14", holderSurname: SURNAME } },
    ]);
    expect(JSON.stringify(views).includes(NUMBER)).toBe(false);
    const [row] = await store.db.select().from(tables.identityDocuments).where(eq(tables.identityDocuments.documentId, "DOC-1"));
    expect(row!.keyVersion).toBe(2);
    expect(Buffer.from(row!.numberNonce!, "base64").length).toBe(12);
    expect(JSON.stringify(row).includes(NUMBER)).toBe(false);
  });

  test("reveal returns the clear number; a row moved to another order fails", async () => {
    const { store } = await open(driver);
    await store.write((tx) => insertIdentityDocuments(tx, key, "ORD-1", [{ documentId: "DOC-1", paxId: "PAX-1", doc: doc() }], 1_000));
    expect((await revealNumber(store, key, "DOC-1")) === NUMBER).toBe(true);
    await store.write((tx) => tx.update(tables.identityDocuments).set({ orderId: "ORD-2" }).where(eq(tables.identityDocuments.documentId, "DOC-1")));
    await expect(revealNumber(store, key, "DOC-1")).rejects.toThrow(FieldDecryptError);
    await expect(revealNumber(store, key, "NOPE")).rejects.toBeInstanceOf(IdentityDocumentUnavailable);
  });

  test("several passengers in one order; an unnamed type is omitted; orders do not mix", async () => {
    const { store } = await open(driver);
    await store.write(async (tx) => {
      await insertIdentityDocuments(tx, key, "ORD-1", [
        { documentId: "D1", paxId: "PAX-1", doc: doc() },
        { documentId: "D2", paxId: "PAX-2", doc: doc({ IdentityDocTypeCode: "AF", IdentityDocID: "OTHER1" }) },
      ], 1_000);
      await insertIdentityDocuments(tx, key, "ORD-2", [{ documentId: "D3", paxId: "PAX-1", doc: doc({ IdentityDocTypeCode: "709" }) }], 1_001);
    });
    const views = await readMaskedDocuments(store.db, "ORD-1");
    expect(views.map((v) => [v.documentId, v.paxId, "omitted" in v.view])).toEqual([["D1", "PAX-1", false], ["D2", "PAX-2", true]]);
    expect((await readMaskedDocuments(store.db, "ORD-2")).map((v) => v.documentId)).toEqual(["D3"]);
    expect(await readMaskedDocuments(store.db, "ORD-404")).toEqual([]);
  });

  test("an insert rolls back with the caller's transaction", async () => {
    const { store } = await open(driver);
    const failing = store.write(async (tx) => {
      await insertIdentityDocuments(tx, key, "ORD-1", [{ documentId: "D1", paxId: "PAX-1", doc: doc() }], 1_000);
      throw new Error("order commit failed");
    });
    await expect(failing).rejects.toThrow("order commit failed");
    expect(await readMaskedDocuments(store.db, "ORD-1")).toEqual([]);
  });

  test("erase nulls every personal field, keeps a marker, and leaves nothing on disk", async () => {
    const { store, path } = await open(driver);
    await store.write((tx) =>
      insertIdentityDocuments(tx, key, "ORD-1", [
        { documentId: "D1", paxId: "PAX-1", doc: doc() },
        { documentId: "D2", paxId: "PAX-2", doc: doc({ IdentityDocID: "OTHER1" }) },
      ], 1_000),
    );
    await store.write((tx) => insertIdentityDocuments(tx, key, "ORD-KEEP", [{ documentId: "D3", paxId: "PAX-1", doc: doc({ Surname: "Keptsurname", BirthplaceText: "Keptplace" }) }], 1_001));
    expect(await eraseIdentityDocuments(store, ["ORD-1"], 5_000, { path: "supervisor", actor: "sup-1", reason: "test" })).toBe(2);
    expect(await eraseIdentityDocuments(store, ["ORD-1"], 6_000, { path: "supervisor", actor: "sup-1", reason: "test" })).toBe(0); // once only: the marker is not moved

    const rows = await store.db.select().from(tables.identityDocuments).where(eq(tables.identityDocuments.orderId, "ORD-1"));
    for (const r of rows) {
      const { documentId, orderId, paxId, createdAt, erasedAt, ...personal } = r;
      expect([documentId, orderId, paxId, createdAt, erasedAt]).toEqual([r.documentId, "ORD-1", r.paxId, 1_000, 5_000]);
      expect(Object.values(personal).every((v) => v === null)).toBe(true);
    }
    expect(await readMaskedDocuments(store.db, "ORD-1")).toEqual([]);
    await expect(revealNumber(store, key, "D1")).rejects.toMatchObject({ reason: "erased" });
    expect((await readMaskedDocuments(store.db, "ORD-KEEP")).length).toBe(1);
    // secure_delete and the WAL checkpoint: the erased surname is gone from the bytes too.
    expect(onDisk(path, SURNAME)).toBe(false);
    expect(onDisk(path, BIRTHPLACE)).toBe(false);
    expect(onDisk(path, "Keptsurname")).toBe(true);
  });

  test("a live row must be complete and an erased row empty (CHECK constraints)", async () => {
    const { store } = await open(driver);
    const base = { documentId: "D9", orderId: "O", paxId: "P", createdAt: 1 };
    const refused = (row: Partial<typeof tables.identityDocuments.$inferInsert>) =>
      store.write((tx) => tx.insert(tables.identityDocuments).values({ ...base, ...row })).then(() => "stored", (e) => storeErrorCode(e));
    expect(await refused({ typeCode: "PT", holderSurname: "S" })).toBe("SQLITE_CONSTRAINT_CHECK");
    expect(await refused({ holderSurname: "S", erasedAt: 2 })).toBe("SQLITE_CONSTRAINT_CHECK");
    await store.write((tx) => tx.insert(tables.identityDocuments).values({ ...base, erasedAt: 2 }));
  });
});
