import { existsSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { systemClock, type Clock } from "@ndc/clock";
import { ensurePrivateDir } from "@ndc/config";
import { GatewayError } from "@ndc/errors";
import { loadFieldKey, type FieldKey } from "@ndc/pii";
import { evidenceReport, maskedOriginal } from "@ndc/signatures";
import { auditChain, auditClearOriginal, documentsInOriginal, presentStaff, presentWho, spendTotpStep, StaffAccountError, statedReason, type AuditChain } from "@ndc/staff";
import type { Store } from "@ndc/store";
import { loadRuntime } from "../config";
import { UsageError, type CliIo } from "../io";
import { withStaffStore } from "../staff-store";

export const ORDER_USAGE = `usage: ndc-gateway order evidence ORDER_ID [--out DIR]
         [--clear --supervisor USERNAME --totp CODE --reason TEXT --category CATEGORY]
  writes each signed original of the order and ORDER_ID-verification.json (the chained evidence, whether
  the chain holds, each original checked again with its registered key) into DIR, by default
  $GATEWAY_DATA_DIR/evidence/ORDER_ID (mode 0700; files 0600). By default each original is a masked copy,
  ORDER_ID-SEQ-masked.xml: its document numbers replaced by MASKED, so its signature no longer verifies.
  --clear writes the signed originals as received, ORDER_ID-SEQ-signed.xml, for a supervisor present with
  their current TOTP code and a reason: audited as signature.original and a pii.reveal of each document.
  Exit 1 when the order has no evidence or the chain is broken`;

export interface OrderCommandDeps {
  store?: Store;
  clock?: Clock;
  fieldKey?: FieldKey;
  auditChain?: AuditChain;
}

interface EvidenceAsk {
  orderId: string;
  out?: string;
  clear?: { supervisor: string; totp: string; reason: string; category: string };
}

/**
 * `order evidence`: the airline's export for a dispute over a signed request (issue 11 item 3,
 * docs/signatures.md). The originals hold the passengers' documents, so (issue 19 items 11, 26)
 * they are masked unless a supervisor asks for them in clear, and the files go to a private
 * folder of the data directory, not wherever the command happens to run.
 */
export async function orderCommand(args: string[], io: CliIo, deps: OrderCommandDeps = {}): Promise<number> {
  const [sub, orderId, ...rest] = args;
  if (sub === undefined || sub === "help") {
    io.out(ORDER_USAGE);
    return sub === undefined ? 2 : 0;
  }
  if (sub !== "evidence" || !orderId || orderId.startsWith("--")) throw new UsageError(`order: expected "evidence ORDER_ID"\n${ORDER_USAGE}`);
  const ask = parseEvidence(orderId, rest);
  const runtime = () => loadRuntime(io).config;
  const key = deps.fieldKey ?? loadFieldKey(runtime());
  const out = resolve(ask.out ?? join(runtime().dataDir, "evidence", orderId.replace(/[^A-Za-z0-9_.-]/g, "_")));
  return withStaffStore(io, deps.store, async (store) => {
    const report = await evidenceReport(store, key, orderId);
    if (report.entries.length === 0) {
      io.err(`order ${orderId.slice(0, 64)}: no signed request was verified for this order`);
      return 1;
    }
    if (ask.clear) {
      const chain = deps.auditChain ?? auditChain(key, runtime().staffAuditAnchorFile);
      const now = (deps.clock ?? systemClock).now();
      try {
        const who = await presentStaff(store, key, chain, { username: ask.clear.supervisor, totp: ask.clear.totp, right: "signatures.original", action: "signature.original", orderId }, now);
        const refs = await documentsInOriginal(store.db, orderId);
        const base = { ...presentWho(who), at: now, orderId, reason: ask.clear.reason, reasonCategory: ask.clear.category };
        // No audit, no original: the code spent and every row written in one write, before a byte is written out.
        await store.write(async (tx) => {
          await spendTotpStep(tx, who, now);
          for (const e of report.entries) if ("xml" in e.original) await auditClearOriginal(tx, chain, base, e, refs);
        });
      } catch (e) {
        if (!(e instanceof StaffAccountError)) throw e;
        io.err(`order evidence: ${e.message}`);
        return 1;
      }
    }
    // A folder made here is 0700; one the operator named and already has keeps its mode (it may be theirs to share).
    if (ask.out === undefined || !existsSync(out)) ensurePrivateDir(out);
    const entries = report.entries.map((e) => {
      if (!("xml" in e.original)) return e;
      const { sha256Matches } = e.original;
      const masked = ask.clear ? undefined : maskedOriginal(e.original.xml, e.originalSha256);
      const file = `${orderId}-${e.seq}-${masked ? "masked" : "signed"}.xml`;
      writeFileSync(join(out, file), masked ? masked.xml : e.original.xml, { mode: 0o600 });
      const about = masked ? `masked copy: ${masked.masked} document number(s) masked, so its signature does not verify; the signed original's sha256 ${e.originalSha256}` : `signed original, sha256 ${e.originalSha256}`;
      io.out(`wrote ${join(out, file)} (${about}${sha256Matches ? "" : " DOES NOT MATCH the chain"})`);
      return { ...e, original: { file, masked: masked !== undefined, sha256Matches } };
    });
    for (const e of report.entries) if ("erasedAt" in e.original) io.out(`evidence ${e.seq}: the signed original was erased with the order's documents on ${e.original.erasedAt}; its digest stays chained`);
    const reportFile = join(out, `${orderId}-verification.json`);
    writeFileSync(reportFile, JSON.stringify({ ...report, entries }, null, 2) + "\n", { mode: 0o600 });
    io.out(`wrote ${reportFile}; evidence chain ${report.chain.holds ? "holds" : `BROKEN at seq ${report.chain.brokenAtSeq}`}`);
    return report.chain.holds ? 0 : 1;
  });
}

const VALUED = ["--out", "--supervisor", "--totp", "--reason", "--category"] as const;

function parseEvidence(orderId: string, args: string[]): EvidenceAsk {
  const values: Record<string, string> = {};
  let clear = false;
  for (let i = 0; i < args.length; i++) {
    const f = args[i]!;
    if (f === "--clear") clear = true;
    else if ((VALUED as readonly string[]).includes(f) && args[i + 1] !== undefined && !(f in values)) values[f] = args[++i]!;
    else throw new UsageError(`order evidence: unexpected argument ${f}\n${ORDER_USAGE}`);
  }
  const ask: EvidenceAsk = { orderId, ...(values["--out"] ? { out: values["--out"] } : {}) };
  const staffFlags = ["--supervisor", "--totp", "--reason", "--category"].filter((f) => f in values);
  if (!clear) {
    if (staffFlags.length) throw new UsageError(`order evidence: ${staffFlags.join(", ")} go with --clear`);
    return ask;
  }
  if (staffFlags.length < 4) throw new UsageError("order evidence --clear needs --supervisor USERNAME, --totp CODE, --reason TEXT and --category CATEGORY: the signed originals in clear are a reveal of each document");
  try {
    // The one rule for a reason and its category (@ndc/staff reason.ts), as at the console.
    const { reason, category } = statedReason({ reason: values["--reason"], category: values["--category"] }, true);
    return { ...ask, clear: { supervisor: values["--supervisor"]!.trim(), totp: values["--totp"]!.trim(), reason, category: category! } };
  } catch (e) {
    if (e instanceof GatewayError) throw new UsageError(`order evidence: --${e.element}: ${e.detail ?? e.message}`);
    throw e;
  }
}
