import { systemClock, type Clock } from "@ndc/clock";
import { eraseIdentityDocuments, listErasures } from "@ndc/pii";
import { tables, type Store } from "@ndc/store";
import { eq } from "drizzle-orm";
import { UsageError, type CliIo } from "../io";
import { withStaffStore } from "../staff-store";

export const DOCUMENTS_USAGE = `usage: ndc-gateway documents <command>
  erase ORDER_ID --supervisor STAFF_ID --reason TEXT   an airline supervisor erases the identity documents of one order
  erasures [ORDER_ID]                                  the erasure audit: every order erased, by which path, who, why, when`;

/**
 * `documents ...`: the airline supervisor's erase action (spec 8: a guest order's documents go only
 * through the retention sweep or this), until the staff console has its screen. It runs the one
 * erasure path (@ndc/pii eraseIdentityDocuments: numbers gone from the file and its WAL, the audit
 * row in the erasure's transaction). Works on the database beside a running gateway.
 */
export async function documentsCommand(args: string[], io: CliIo, deps: { store?: Store; clock?: Clock } = {}): Promise<number> {
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
  return withStaffStore(io, deps.store, async (store) => {
    const order = await store.db.select({ id: tables.orders.orderId }).from(tables.orders).where(eq(tables.orders.orderId, ask.orderId)).get();
    if (!order) {
      io.err(`documents: order_not_found: no order ${ask.orderId}`);
      return 1;
    }
    const n = await eraseIdentityDocuments(store, [ask.orderId], (deps.clock ?? systemClock).now(), { path: "supervisor", actor: ask.supervisor, reason: ask.reason });
    io.out(n === 0 ? `order ${ask.orderId}: no document left to erase` : `order ${ask.orderId}: ${n} document(s) erased by ${ask.supervisor}`);
    return 0;
  });
}

function parseErase(args: string[]): { orderId: string; supervisor: string; reason: string } {
  const [orderId, ...flags] = args;
  const values: Record<string, string> = {};
  for (let i = 0; i < flags.length; i++) {
    const f = flags[i]!;
    if (f !== "--supervisor" && f !== "--reason") throw new UsageError(`documents erase: unexpected argument ${f}`);
    const v = flags[++i];
    if (v === undefined || v.trim() === "") throw new UsageError(`documents erase: ${f} needs a value`);
    values[f] = v.trim();
  }
  if (!orderId || orderId.startsWith("--")) throw new UsageError(`documents erase takes ORDER_ID\n${DOCUMENTS_USAGE}`);
  if (!values["--supervisor"] || !values["--reason"]) throw new UsageError("documents erase needs --supervisor STAFF_ID and --reason TEXT: a supervisor names themself and states why");
  if (values["--reason"].length > 500 || values["--supervisor"].length > 64) throw new UsageError("documents erase: --supervisor is at most 64 characters, --reason at most 500");
  return { orderId, supervisor: values["--supervisor"], reason: values["--reason"] };
}
