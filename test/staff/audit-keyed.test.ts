import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import { legacyAuditHash, type AuditEntry } from "@ndc/staff";
import { REASON, addEveryRole, documentRefOf, logInEveryRole, staffWorld, type StaffWorld } from "./support";
import { dropTriggerSql } from "../support/triggers";

/**
 * The staff audit chain is keyed and anchored (issue 19 item 7): whoever can write the database
 * but not read the field key can neither rebuild the chain with plain SHA-256 nor cut rows from
 * its end; `ndc-gateway staff audit verify` (the real CLI command, on the gateway's store) says so.
 * Trails written before the chain was keyed still verify, and are sealed by the first keyed row.
 */
const worlds: StaffWorld[] = [];
afterAll(async () => {
  for (const w of worlds) await w.t.close();
});

/** A gateway whose trail holds logins, order views, a refused reveal and a reveal. */
async function auditedWorld(): Promise<StaffWorld> {
  const w = await staffWorld();
  worlds.push(w);
  await addEveryRole(w);
  const { agent, senior } = await logInEveryRole(w);
  const orderId = await w.book("Lamarr", "HL5521873");
  const ref = await documentRefOf(senior, orderId);
  expect((await agent.call(`/staff/api/orders/${orderId}/documents/${ref}/reveal`, { method: "POST", body: REASON })).status).toBe(403);
  expect((await senior.call(`/staff/api/orders/${orderId}/documents/${ref}/reveal`, { method: "POST", body: REASON })).status).toBe(200);
  return w;
}

type Row = AuditEntry & { seq: number; prevHash: string; hash: string };
const rowsOf = async (w: StaffWorld) =>
  ((await w.t.gw.store.db.all(sql`SELECT seq, at, staff_id AS staffId, username, role, remote, action, outcome, order_id AS orderId, document_ref AS documentRef, reason_category AS reasonCategory, reason, detail, prev_hash AS prevHash, hash FROM staff_audit ORDER BY seq`)) as Row[]).map(
    (r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== null)) as Row,
  );

/** What anyone with write access to the database can do: drop the triggers and run SQL. */
const tamper = (w: StaffWorld, ...statements: string[]) =>
  w.t.gw.store.write(async (_tx, raw) => {
    await raw.exec(dropTriggerSql(w.t.gw.store, "staff_audit_no_update", "staff_audit"));
    await raw.exec(dropTriggerSql(w.t.gw.store, "staff_audit_no_delete", "staff_audit"));
    for (const s of statements) await raw.exec(s);
  });

const q = (s: string) => `'${s.replaceAll("'", "''")}'`;

/** Rewrites rows from `from` on, as the plain SHA-256 chain of before would have them: the chain links again. */
async function rebuildPlain(w: StaffWorld, from: number, edit: (r: Row) => Row): Promise<void> {
  const rows = await rowsOf(w);
  let prev = rows.find((r) => r.seq === from - 1)?.hash ?? "0".repeat(64);
  const statements: string[] = [];
  for (const r0 of rows.filter((r) => r.seq >= from)) {
    const r = r0.seq === from ? edit(r0) : r0;
    const hash = legacyAuditHash(r, prev);
    // Through a placeholder first: hash is UNIQUE.
    statements.push(`UPDATE staff_audit SET reason = ${r.reason === undefined ? "NULL" : q(r.reason)}, prev_hash = ${q(prev)}, hash = ${q(hash)} WHERE seq = ${r.seq}`);
    prev = hash;
  }
  await tamper(w, ...statements);
}

const verify = (w: StaffWorld) => w.cli(["audit", "verify"]);

describe("the keyed, anchored audit chain", () => {
  test("an untouched trail verifies, anchored at its last row; the anchor is outside the database, 0600", async () => {
    const w = await auditedWorld();
    const rows = await rowsOf(w);
    expect(rows.length).toBeGreaterThan(5);
    // Keyed: no row's hash is the plain SHA-256 of its fields.
    expect(rows.filter((r, i) => r.hash === legacyAuditHash(r, i ? rows[i - 1]!.hash : "0".repeat(64)))).toEqual([]);
    const ok = await verify(w);
    expect([ok.code, ok.out, ok.err]).toEqual([0, [`staff audit trail holds: ${rows.length} rows`, `anchored at seq ${rows.at(-1)!.seq}`], []]);
    const file = w.t.gw.config.staffAuditAnchorFile;
    expect(file.startsWith(w.t.dataDir)).toBe(true);
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ seq: rows.at(-1)!.seq, hash: rows.at(-1)!.hash });
    expect((await Bun.file(file).stat()).mode & 0o777).toBe(0o600);
  }, 60_000);

  test("a reveal's reason rewritten and the chain rebuilt with plain SHA-256 hashes: verify names the row", async () => {
    const w = await auditedWorld();
    const reveal = (await rowsOf(w)).find((r) => r.action === "pii.reveal" && r.outcome === "ok")!;
    await rebuildPlain(w, reveal.seq, (r) => ({ ...r, reason: "routine check, nothing to see" }));
    const broken = await verify(w);
    expect([broken.code, broken.out, broken.err]).toEqual([1, [], [`staff audit trail broken at seq ${reveal.seq}`]]);
  }, 60_000);

  test("the whole trail rebuilt with plain hashes from its first row: the anchor no longer matches", async () => {
    const w = await auditedWorld();
    const last = (await rowsOf(w)).at(-1)!;
    await rebuildPlain(w, 1, (r) => r);
    const broken = await verify(w);
    expect([broken.code, broken.err]).toEqual([1, [`staff audit trail broken: the row at seq ${last.seq} is not the one anchored: the trail was rewritten`]]);
  }, 60_000);

  test("rows deleted from the end of the trail: verify says the trail no longer reaches its anchor", async () => {
    const w = await auditedWorld();
    const rows = await rowsOf(w);
    const keep = rows.at(-4)!.seq;
    await tamper(w, `DELETE FROM staff_audit WHERE seq > ${keep}`);
    const broken = await verify(w);
    expect([broken.code, broken.err]).toEqual([1, [`staff audit trail broken: the anchor names seq ${rows.at(-1)!.seq}, which the trail (ending at seq ${keep}) no longer holds: rows were removed`]]);
    // The next audited action does not move the anchor past the cut: the gap stays reported.
    await w.login("sue");
    // The next row's number: SQLite's AUTOINCREMENT never gives a removed number again; PostgreSQL's
    // rowid trigger gives max + 1 (decision 0041's baseline, sound while the trail is append-only),
    // so after a cut made with the triggers dropped it numbers the next row just past the cut.
    // Either way the anchor is not reached and the gap is reported.
    const next = w.t.gw.store.dialect === "postgres" ? keep + 1 : rows.at(-1)!.seq + 1;
    expect((await verify(w)).err).toEqual([`staff audit trail broken: the anchor names seq ${rows.at(-1)!.seq}, which the trail (ending at seq ${next}) no longer holds: rows were removed`]);
    // Every row gone is the same story, not an empty trail that holds.
    await tamper(w, "DELETE FROM staff_audit");
    expect((await verify(w)).err).toEqual([`staff audit trail broken: the anchor names seq ${rows.at(-1)!.seq}, which the trail (ending at seq 0) no longer holds: rows were removed`]);
  }, 60_000);

  test("an anchor edited to an earlier row, or removed, is refused", async () => {
    const w = await auditedWorld();
    const rows = await rowsOf(w);
    const file = w.t.gw.config.staffAuditAnchorFile;
    const anchor = JSON.parse(readFileSync(file, "utf8"));
    writeFileSync(file, JSON.stringify({ ...anchor, seq: rows.at(-3)!.seq, hash: rows.at(-3)!.hash }));
    expect((await verify(w)).err).toEqual(["staff audit trail broken: the anchor file does not hold its MAC (edited, or written under another key)"]);
    // An action after the edit leaves the edited anchor as it is.
    await w.login("sue");
    expect((await verify(w)).err).toEqual(["staff audit trail broken: the anchor file does not hold its MAC (edited, or written under another key)"]);
    rmSync(file);
    expect((await verify(w)).err).toEqual(["staff audit trail broken: the anchor file is missing"]);
  }, 60_000);

  test("a trail written before the chain was keyed still verifies; the first keyed row seals it", async () => {
    const w = await staffWorld();
    worlds.push(w);
    const file = w.t.gw.config.staffAuditAnchorFile;
    expect(existsSync(file)).toBe(false);
    // Three rows as the plain SHA-256 chain of before wrote them, and no anchor: an upgraded database.
    let prev = "0".repeat(64);
    const statements: string[] = [];
    for (let i = 1; i <= 3; i++) {
      const e: AuditEntry = { at: 1_700_000_000_000 + i, staffId: "st_old", username: "olga", role: "supervisor", remote: "10.0.0.9", action: "order.view", outcome: "ok", orderId: `ORD-OLD-${i}` };
      const hash = legacyAuditHash(e, prev);
      statements.push(`INSERT INTO staff_audit (at, staff_id, username, role, remote, action, outcome, order_id, prev_hash, hash) VALUES (${e.at}, 'st_old', 'olga', 'supervisor', '10.0.0.9', 'order.view', 'ok', '${e.orderId}', '${prev}', '${hash}')`);
      prev = hash;
    }
    await w.t.gw.store.write(async (_tx, raw) => {
      for (const s of statements) await raw.exec(s);
    });
    const old = await verify(w);
    expect([old.code, old.out]).toEqual([0, ["staff audit trail holds: 3 rows", "3 of them from before the chain was keyed (plain SHA-256), sealed by the first keyed row", "no anchor yet: the first audited action writes it"]]);
    await w.addStaff("sue", "supervisor");
    await w.login("sue");
    const sealed = await verify(w);
    expect([sealed.code, sealed.out]).toEqual([0, ["staff audit trail holds: 4 rows", "3 of them from before the chain was keyed (plain SHA-256), sealed by the first keyed row", "anchored at seq 4"]]);
    // The old rows are now covered by the keyed row after them and the anchor: rebuilding the chain from one of them breaks it.
    await rebuildPlain(w, 2, (r) => ({ ...r, reason: "inserted later" }));
    expect((await verify(w)).err).toEqual(["staff audit trail broken: the row at seq 4 is not the one anchored: the trail was rewritten"]);
  }, 60_000);
});
