import { systemClock, type Clock } from "@ndc/clock";
import { eraseIdentityDocuments, listErasures, loadFieldKey, type FieldKey } from "@ndc/pii";
import { appendAudit, auditChain, presentStaff, presentWho, reasonText, REASON_MAX, REASON_MIN, spendTotpStep, StaffAccountError, type AuditChain } from "@ndc/staff";
import { tables, type Store } from "@ndc/store";
import { eq } from "drizzle-orm";
import { loadRuntime } from "../config";
import { UsageError, type CliIo } from "../io";
import { withStaffStore } from "../staff-store";

export const DOCUMENTS_USAGE = `usage: ndc-gateway documents <command>
  erase ORDER_ID --supervisor USERNAME --totp CODE --reason TEXT
                       an airline supervisor erases the identity documents of one order: their staff account
                       (ndc-gateway staff add) and its current TOTP code, as at the console's login; audited pii.erase
  erasures [ORDER_ID]  the erasure audit: every order erased, by which path, who, why, when`;

export interface DocumentsCommandDeps {
  store?: Store;
  clock?: Clock;
  fieldKey?: FieldKey;
  auditChain?: AuditChain;
}

/**
 * `documents ...`: the airline supervisor's erase action (spec 8: a guest order's documents go only
 * through the retention sweep or this), the console's erase from the command line. The supervisor
 * is a staff account present with its TOTP code (@ndc/staff presentStaff: refusals audited, the
 * code spent in the erasure's write); the erasure is the one path (@ndc/pii eraseIdentityDocuments:
 * numbers gone from the file and its WAL), with the staff audit row `pii.erase` in its transaction,
 * as the console writes it. Works on the database beside a running gateway.
 */
export async function documentsCommand(args: string[], io: CliIo, deps: DocumentsCommandDeps = {}): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined || sub === "help") {
    io.out(DOCUMENTS_USAGE);
    return sub === undefined ? 2 : 0;
  }
  if (sub === "erasures") {
    if (rest.length > 1) throw new UsageError(`documents erasures takes at most ORDER_ID\n${DOCUMENTS_USAGE}`);
    return withStaffStore(io, deps.store, async (store) => {
      const rows = await listErasures(store.db, rest[0]);
      if (rows.length === 0) io.out("no erasures");
      for (const r of rows) io.out(`${new Date(r.erasedAt).toISOString()}  order ${r.orderId}  ${r.documents} document(s)  ${r.path}  by ${r.actor}${r.reason ? `  reason: ${r.reason}` : ""}`);
      return 0;
    });
  }
  if (sub !== "erase") throw new UsageError(`documents: unknown command "${sub}"\n${DOCUMENTS_USAGE}`);
  const ask = parseErase(rest);
  const key = deps.fieldKey ?? loadFieldKey(loadRuntime(io).config);
  const chain = deps.auditChain ?? auditChain(key, loadRuntime(io).config.staffAuditAnchorFile);
  const now = (deps.clock ?? systemClock).now();
  return withStaffStore(io, deps.store, async (store) => {
    try {
      const who = await presentStaff(store, key, chain, { username: ask.supervisor, totp: ask.totp, right: "pii.erase", action: "pii.erase", orderId: ask.orderId }, now);
      const order = await store.db.select({ id: tables.orders.orderId }).from(tables.orders).where(eq(tables.orders.orderId, ask.orderId)).get();
      if (!order) {
        io.err(`documents: order_not_found: no order ${ask.orderId}`);
        return 1;
      }
      const n = await eraseIdentityDocuments(store, [ask.orderId], now, { path: "supervisor", actor: who.staffId, reason: ask.reason }, async (tx, erased) => {
        await spendTotpStep(tx, who, now);
        await appendAudit(tx, chain, { ...presentWho(who), at: now, action: "pii.erase", outcome: "ok", orderId: ask.orderId, reason: ask.reason, detail: `${erased} documents erased` });
      });
      io.out(n === 0 ? `order ${ask.orderId}: no document left to erase` : `order ${ask.orderId}: ${n} document(s) erased by ${who.username}`);
      return 0;
    } catch (e) {
      if (!(e instanceof StaffAccountError)) throw e;
      io.err(`documents erase: ${e.message}`);
      return 1;
    }
  });
}

const ERASE_FLAGS = ["--supervisor", "--totp", "--reason"] as const;

function parseErase(args: string[]): { orderId: string; supervisor: string; totp: string; reason: string } {
  const [orderId, ...flags] = args;
  const values: Record<string, string> = {};
  for (let i = 0; i < flags.length; i++) {
    const f = flags[i]!;
    if (!(ERASE_FLAGS as readonly string[]).includes(f)) throw new UsageError(`documents erase: unexpected argument ${f}`);
    const v = flags[++i];
    if (v === undefined || v.trim() === "") throw new UsageError(`documents erase: ${f} needs a value`);
    values[f] = v.trim();
  }
  if (!orderId || orderId.startsWith("--")) throw new UsageError(`documents erase takes ORDER_ID\n${DOCUMENTS_USAGE}`);
  if (!values["--supervisor"] || !values["--totp"] || !values["--reason"])
    throw new UsageError("documents erase needs --supervisor USERNAME, --totp CODE and --reason TEXT: a supervisor's staff account, its current TOTP code, and why");
  const reason = reasonText(values["--reason"]);
  if (reason === null) throw new UsageError(`documents erase: --reason is free text of ${REASON_MIN} to ${REASON_MAX} characters, at least ${REASON_MIN} of them visible`);
  return { orderId, supervisor: values["--supervisor"], totp: values["--totp"], reason };
}
