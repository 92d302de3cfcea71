// The bulk path for seeding many stored orders (bench/order-read.ts, bench/memory.ts): one order
// is booked through the real path (OrderCreateRQ over HTTP), every row that booking inserted is
// captured, and copies are written with fresh ids. A copy is the same rows as a real booking,
// ids aside (test/orders-http/bulk-orders.test.ts compares one with a second real booking,
// table by table). What is recomputed rather than copied, because it depends on an id:
// - the identity-document number is opened under the template's binding and sealed again
//   under the copy's (AES-256-GCM, new nonce, AAD = order, passenger, document);
// - payment ledger entries are appended to the one hash chain (seq, prev_hash, hash);
// - the stored OrderCreate answer (base64 XML) has its ids replaced like every other text.
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
  for (const r of rows.get("sagas") ?? []) ids.add(String(r.saga_id));
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

function replacer(ids: string[], n: number): (v: unknown) => unknown {
  const pairs = ids.map((id) => [id, copyId(id, n)] as const);
  const text = (s: string) => {
    for (const [from, to] of pairs) if (s.includes(from)) s = s.split(from).join(to);
    return s;
  };
  return (v) => {
    if (typeof v !== "string") return v;
    if (BASE64.test(v)) {
      const decoded = Buffer.from(v, "base64").toString("utf8");
      if (pairs.some(([from]) => decoded.includes(from))) return Buffer.from(text(decoded), "utf8").toString("base64");
    }
    return text(v);
  };
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
  const template = [...rows].filter(([table]) => table !== "payment_ledger_entries");
  const entries = [...(rows.get("payment_ledger_entries") ?? [])].sort((a, b) => Number(a.seq) - Number(b.seq));
  const docs = new Map((rows.get("identity_documents") ?? []).map((r) => [String(r.document_id), openField(sealedOf(r), key, bindingOf(r))]));
  for (let start = 0; start < count; start += batch) {
    db.transaction(() => {
      const tail = db.query("SELECT seq, hash FROM payment_ledger_entries ORDER BY seq DESC LIMIT 1").get() as { seq: number; hash: string } | null;
      let seq = tail?.seq ?? 0;
      let prev = tail?.hash ?? GENESIS_HASH;
      for (let n = first + start; n < first + Math.min(count, start + batch); n++) {
        const swap = replacer(ids, n);
        for (const [table, trows] of template) {
          for (const r of trows) {
            const copy: Row = {};
            for (const [c, v] of Object.entries(r)) copy[c] = swap(v);
            if (table === "identity_documents") {
              const sealed = sealField(docs.get(String(r.document_id))!, key, bindingOf(copy));
              copy.number_ciphertext = Buffer.from(sealed.ciphertext).toString("base64");
              copy.number_nonce = Buffer.from(sealed.nonce).toString("base64");
              copy.key_version = sealed.keyVersion;
            }
            insert(table, copy);
          }
        }
        for (const r of entries) {
          const e = {
            orderId: swap(r.order_id) as string,
            legId: swap(r.leg_id) as string,
            type: r.type as EntryType,
            amount: Number(r.amount),
            currency: String(r.currency),
            points: Number(r.points),
            idempotencyKey: swap(r.idempotency_key) as string,
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
