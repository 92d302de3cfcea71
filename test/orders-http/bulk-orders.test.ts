/**
 * The bulk seeding path of the benchmarks (bench/bulk-orders.ts) writes the same rows as the
 * real booking path: a copy of a booking made over HTTP is compared, table by table, with a
 * second booking made over HTTP, ids aside; and the copy reads back over HTTP like a booked order.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { verifyChain } from "@ndc/payments";
import { loadFieldKey, openField } from "@ndc/pii";
import { copyBooking, inserted, snapshot, type TableRows, type TemplateIds } from "../../bench/bulk-orders";
import { ON_POSTGRES } from "../support/database";
import type { TestGateway } from "../support/gateway";
import { gateway, orderCreateRQ, orderIdOf, orderRetrieveRQ, shopOffer } from "./helpers";

// Skipped on PostgreSQL, SQLITE_FILE_ONLY: the bulk path writes gateway.db itself with bun:sqlite
// (the benchmarks' seeding), so there is nothing of it to compare there.
let t: TestGateway;
let db: Database;
beforeAll(async () => {
  if (ON_POSTGRES) return;
  ({ t } = await gateway());
  db = new Database(join(t.dataDir, "gateway.db"));
});
afterAll(async () => {
  db?.close();
  await t?.close();
});

const PAX = [
  { id: "PAX1", surname: "LOVELACE", doc: { number: "QZ7731XK0946" }, email: "ada@example.com" },
  { id: "PAX2", surname: "BYRON" },
];

/** Books over HTTP and returns the rows the booking inserted. */
async function bookOverHttp(tag: string): Promise<{ rows: TableRows; ids: TemplateIds }> {
  const shopped = await shopOffer(t, { pax: 2 });
  const before = snapshot(db);
  const ids = { correlationId: `BULK-C-${tag}`, trxId: `BULK-T-${tag}` };
  const r = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, pax: PAX, legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }], ...ids }));
  expect(r.status).toBe(200);
  return { rows: inserted(before, snapshot(db)), ids: { ...ids, orderId: orderIdOf(r.body) } };
}

/** The rows with every id of their booking named by its role, and what derives from ids blanked. */
function normalise(rows: TableRows): Record<string, unknown[]> {
  const names = new Map<string, string>();
  const name = (id: unknown, role: string) => typeof id === "string" && id && !names.has(id) && names.set(id, `<${role}${names.size}>`);
  for (const r of rows.get("orders") ?? []) name(r.order_id, "order");
  for (const r of rows.get("operations") ?? []) (name(r.operation_id, "operation"), name(r.correlation_id, "corr"), name(r.trx_id, "trx"));
  for (const r of rows.get("payment_legs") ?? []) (name(r.leg_id, "leg"), name(r.psp_reference, "psp"));
  for (const r of rows.get("identity_documents") ?? []) name(r.document_id, "doc");
  // The offer each booking accepted (its own AirShopping): named where the order records it.
  for (const r of rows.get("actor_journal") ?? []) for (const m of String(r.payload).matchAll(/"offerId":"([^"]+)"/g)) name(m[1], "offer");
  const ids = [...names.keys()].sort((a, b) => b.length - a.length);
  const text = (s: string) => ids.reduce((acc, id) => acc.split(id).join(names.get(id)!), s).replace(/\b[0-9a-f]{64}\b/g, "<hash>");
  const value = (v: unknown): unknown => {
    if (typeof v !== "string") return v;
    if (/^[A-Za-z0-9+/]{40,}={0,2}$/.test(v)) {
      const xml = Buffer.from(v, "base64").toString("utf8");
      if (xml.startsWith("<?xml")) return text(xml);
    }
    return text(v);
  };
  const out: Record<string, unknown[]> = {};
  for (const [table, trows] of [...rows].sort(([a], [b]) => a.localeCompare(b))) {
    out[table] = trows
      .map((r) => {
        const o: Record<string, unknown> = {};
        for (const [c, v] of Object.entries(r)) o[c] = value(v);
        // Sealed anew for each document (random nonce), and the ledger's place in the one chain.
        if (table === "identity_documents") (o.number_ciphertext = "<sealed>"), (o.number_nonce = "<nonce>");
        if (table === "payment_ledger_entries") o.seq = "<seq>";
        return o;
      })
      .map((o) => JSON.stringify(o))
      .sort();
  }
  return out;
}

test.skipIf(ON_POSTGRES)("a bulk copy of a booking is the rows a second real booking writes, table by table, ids aside", async () => {
  const template = await bookOverHttp("A");
  const real = await bookOverHttp("B");
  const before = snapshot(db);
  const key = loadFieldKey(t.gw.config);
  const [copyId] = copyBooking(db, template.rows, template.ids, key, 1);
  const copy = inserted(before, snapshot(db));
  expect([...copy.keys()].sort()).toEqual([...real.rows.keys()].sort());
  const a = normalise(real.rows);
  const b = normalise(copy);
  // Every table OrderCreate writes: the order's journal and index, surnames, documents, legs,
  // ledger, PSP records, the operation (saga and request idempotency in one row; no offer:
  // AirShopping wrote it). The phased booking keeps its payment keys on the leg rows; the
  // order's last write stored its encoded view.
  expect(Object.keys(a)).toEqual(["actor_journal", "identity_documents", "operations", "order_pax_index", "order_views", "orders", "payment_ledger_entries", "payment_legs", "psp_sim_payments", "psp_sim_requests"]);
  for (const table of Object.keys(a)) expect({ table, rows: b[table] }).toEqual({ table, rows: a[table]! });

  // It reads back over HTTP as a booked order, like the template with its ids replaced.
  const viewOf = async (id: string) => {
    const r = await t.ndc("OrderRetrieveRQ", orderRetrieveRQ(id));
    expect(r.status).toBe(200);
    return r.body;
  };
  const copied = await viewOf(copyId!);
  expect(copied).toContain(`<cns:OrderID>${copyId}</cns:OrderID>`);
  const blank = (xml: string) => xml.replace(/\b(ORD-|PSP|PL|DOC)[0-9A-F]{12,}\b/g, "$1*");
  expect(blank(copied)).toBe(blank(await viewOf(template.ids.orderId)));
  // The ledger's hash chain still holds, and the copy's document opens under its own binding.
  expect(await verifyChain(t.gw.store.db)).toEqual({ ok: true, entries: 6 });
  const doc = copy.get("identity_documents")![0]!;
  const sealed = { ciphertext: Buffer.from(String(doc.number_ciphertext), "base64"), nonce: Buffer.from(String(doc.number_nonce), "base64"), keyVersion: Number(doc.key_version) };
  expect(openField(sealed, key, { orderId: copyId!, paxId: String(doc.pax_id), documentId: String(doc.document_id) })).toBe("QZ7731XK0946");
});
