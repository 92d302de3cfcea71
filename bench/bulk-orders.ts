// The bulk path for seeding many stored orders (bench/order-read.ts, bench/memory.ts): one order
// is booked through the real path (OrderCreateRQ over HTTP), every row that booking inserted is
// captured, and copies are written with fresh ids. A copy is the same rows as a real booking,
// ids aside (test/orders-http/bulk-orders.test.ts compares one with a second real booking,
// table by table). What is recomputed rather than copied, because it depends on an id:
// - the identity-document number is opened under the template's binding and sealed again
//   under the copy's (AES-256-GCM, new nonce, AAD = order, passenger, document);
// - payment ledger entries are appended to the one hash chain (seq, prev_hash, hash);
// - the stored OrderCreate answer (base64 XML) has its ids replaced like every other text, and so
//   has the stored OrderViewRS (order_views, written after the copy's legs and documents).
// What is copied as is: timestamps (every copy was "booked" at the template's instant, so pages
// of a list are ordered by order id among them) and request fingerprints (hashes of the
// template's request, kept because no copy is ever retried).
// Refused: a template booking that updated or deleted an existing row (a voucher balance, a
// seat, a settlement account): copies of it could not all be true, so book templates with a
// card and without seats.
import type { Database } from "bun:sqlite";
import { entryHash, GENESIS_HASH, type EntryType } from "@ndc/payments";
import { openField, sealField, type FieldKey } from "@ndc/pii";

type Row = Record<string, unknown>;
export type TableRows = Map<string, Row[]>;

/** Every row of every table (small databases only: the template's gateway before/after one booking). */
export function snapshot(db: Database): TableRows {
  const out: TableRows = new Map();
  for (const { name } of db.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string }[]) {
    out.set(name, db.query(`SELECT * FROM "${name}"`).all() as Row[]);
  }
  return out;
}

/** The rows `after` has and `before` had not, per table; throws if any row of `before` changed or went. */
export function inserted(before: TableRows, after: TableRows): TableRows {
  const out: TableRows = new Map();
  for (const [table, rows] of after) {
    const old = new Set((before.get(table) ?? []).map((r) => JSON.stringify(r)));
    const now = new Set(rows.map((r) => JSON.stringify(r)));
    const gone = [...old].filter((r) => !now.has(r));
    if (gone.length) throw new Error(`the template booking changed ${gone.length} existing row(s) of ${table}: book the template with a card and no seat`);
    const added = rows.filter((r) => !old.has(JSON.stringify(r)));
    if (added.length) out.set(table, added);
  }
  return out;
}

/** The ids a booking made, each replaced in a copy by one of the same shape. */
export interface TemplateIds {
  orderId: string;
  correlationId: string;
  trxId: string;
}

function idsOf(rows: TableRows, t: TemplateIds): string[] {
  const ids = new Set<string>([t.orderId, t.correlationId, t.trxId]);
  for (const r of rows.get("operations") ?? []) ids.add(String(r.operation_id));
  for (const r of rows.get("payment_legs") ?? []) {
    ids.add(String(r.leg_id));
    if (r.psp_reference) ids.add(String(r.psp_reference));
  }
  for (const r of rows.get("identity_documents") ?? []) ids.add(String(r.document_id));
  // Longest first, so an id that contains another is replaced whole.
  return [...ids].sort((a, b) => b.length - a.length);
}

/**
 * The copy's id for a template id: the same prefix and length, the hex body replaced by a hash
 * of (body, copy number), so ids that share a body (a leg PL... and its PSP reference PSP...) still
 * share one in the copy. A non-hex id (a correlation id) gets the copy number appended.
 */
function copyId(id: string, n: number): string {
  const prefix = /^[A-Z]+-?/.exec(id)?.[0] ?? "";
  const body = id.slice(prefix.length);
  if (!/^[0-9A-F]+$/.test(body)) return `${id}-${n}`;
  return prefix + new Bun.CryptoHasher("sha256").update(`${body}:${n}`).digest("hex").toUpperCase().slice(0, body.length);
}

const BASE64 = /^[A-Za-z0-9+/]{40,}={0,2}$/;

/**
 * A template value compiled once: a text split at every occurrence of the template's ids, so a
 * copy is one join with the copy's ids (a base64 value holding ids is split in its decoded form
 * and encoded again). Compiling once keeps 100,000 copies affordable.
 */
type Compiled = { kind: "as-is"; value: unknown } | { kind: "text" | "base64"; parts: string[]; slots: number[] };

function compile(v: unknown, ids: string[]): Compiled {
  if (typeof v !== "string") return { kind: "as-is", value: v };
  let kind: "text" | "base64" = "text";
  let text = v;
  if (BASE64.test(v)) {
    const decoded = Buffer.from(v, "base64").toString("utf8");
    if (ids.some((id) => decoded.includes(id))) [kind, text] = ["base64", decoded];
  }
  if (kind === "text" && !ids.some((id) => v.includes(id))) return { kind: "as-is", value: v };
  // Split at the earliest (then longest) id each time, left to right.
  const parts: string[] = [];
  const slots: number[] = [];
  let at = 0;
  for (;;) {
    let best = -1;
    let slot = -1;
    ids.forEach((id, k) => {
      const i = text.indexOf(id, at);
      if (i >= 0 && (best < 0 || i < best)) [best, slot] = [i, k];
    });
    if (best < 0) break;
    parts.push(text.slice(at, best));
    slots.push(slot);
    at = best + ids[slot]!.length;
  }
  parts.push(text.slice(at));
  return { kind, parts, slots };
}

function render(c: Compiled, copyIds: string[]): unknown {
  if (c.kind === "as-is") return c.value;
  let out = c.parts[0]!;
  for (let i = 0; i < c.slots.length; i++) out += copyIds[c.slots[i]!]! + c.parts[i + 1]!;
  return c.kind === "base64" ? Buffer.from(out, "utf8").toString("base64") : out;
}

/** Prepared INSERTs, one per table and column list. */
function inserter(db: Database) {
  const stmts = new Map<string, ReturnType<Database["prepare"]>>();
  return (table: string, row: Row) => {
    const cols = Object.keys(row);
    const key = `${table}(${cols.join(",")})`;
    let s = stmts.get(key);
    if (!s) stmts.set(key, (s = db.prepare(`INSERT INTO "${table}" (${cols.map((c) => `"${c}"`).join(",")}) VALUES (${cols.map(() => "?").join(",")})`)));
    s.run(...(cols.map((c) => row[c]) as never[]));
  };
}

/**
 * Writes `count` copies of the template booking, numbered from `firstCopy`, in transactions of
 * `batch` copies. Returns the copies' order ids. The gateway may be running: its actors never
 * saw these orders, so they load from these rows on first use.
 */
export function copyBooking(db: Database, rows: TableRows, t: TemplateIds, key: FieldKey, count: number, o: { firstCopy?: number; batch?: number } = {}): string[] {
  const ids = idsOf(rows, t);
  const insert = inserter(db);
  const first = o.firstCopy ?? 1;
  const batch = o.batch ?? 2_000;
  const out: string[] = [];
  // The stored view last: the schema's triggers delete an order's view whenever its legs or
  // documents are written, as they do in a booking's own transaction.
  const template = [...rows]
    .filter(([table]) => table !== "payment_ledger_entries")
    .sort(([a], [b]) => Number(a === "order_views") - Number(b === "order_views"))
    .map(([table, trows]) => ({ table, rows: trows.map((r) => ({ source: r, columns: Object.entries(r).map(([c, v]) => [c, compile(v, ids)] as const) })) }));
  const entries = [...(rows.get("payment_ledger_entries") ?? [])]
    .sort((a, b) => Number(a.seq) - Number(b.seq))
    .map((r) => ({ source: r, orderId: compile(r.order_id, ids), legId: compile(r.leg_id, ids), key: compile(r.idempotency_key, ids) }));
  const docs = new Map((rows.get("identity_documents") ?? []).map((r) => [String(r.document_id), openField(sealedOf(r), key, bindingOf(r))]));
  for (let start = 0; start < count; start += batch) {
    db.transaction(() => {
      const tail = db.query("SELECT seq, hash FROM payment_ledger_entries ORDER BY seq DESC LIMIT 1").get() as { seq: number; hash: string } | null;
      let seq = tail?.seq ?? 0;
      let prev = tail?.hash ?? GENESIS_HASH;
      for (let n = first + start; n < first + Math.min(count, start + batch); n++) {
        const copyIds = ids.map((id) => copyId(id, n));
        for (const { table, rows: trows } of template) {
          for (const { source, columns } of trows) {
            const copy: Row = {};
            for (const [c, compiled] of columns) copy[c] = render(compiled, copyIds);
            if (table === "identity_documents") {
              const sealed = sealField(docs.get(String(source.document_id))!, key, bindingOf(copy));
              copy.number_ciphertext = Buffer.from(sealed.ciphertext).toString("base64");
              copy.number_nonce = Buffer.from(sealed.nonce).toString("base64");
              copy.key_version = sealed.keyVersion;
            }
            insert(table, copy);
          }
        }
        for (const { source: r, orderId, legId, key: idemKey } of entries) {
          const e = {
            orderId: render(orderId, copyIds) as string,
            legId: render(legId, copyIds) as string,
            type: r.type as EntryType,
            amount: Number(r.amount),
            currency: String(r.currency),
            points: Number(r.points),
            idempotencyKey: render(idemKey, copyIds) as string,
            at: Number(r.at),
          };
          seq++;
          const hash = entryHash(prev, seq, e);
          insert("payment_ledger_entries", { ...r, order_id: e.orderId, leg_id: e.legId, idempotency_key: e.idempotencyKey, seq, prev_hash: prev, hash });
          prev = hash;
        }
        out.push(copyId(t.orderId, n));
      }
    })();
  }
  return out;
}

const sealedOf = (r: Row) => ({
  ciphertext: new Uint8Array(Buffer.from(String(r.number_ciphertext), "base64")),
  nonce: new Uint8Array(Buffer.from(String(r.number_nonce), "base64")),
  keyVersion: Number(r.key_version),
});
const bindingOf = (r: Row) => ({ orderId: String(r.order_id), paxId: String(r.pax_id), documentId: String(r.document_id) });
