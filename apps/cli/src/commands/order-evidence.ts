import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadFieldKey } from "@ndc/pii";
import { evidenceReport } from "@ndc/signatures";
import type { Store } from "@ndc/store";
import { loadRuntime } from "../config";
import { UsageError, type CliIo } from "../io";
import { withStaffStore } from "../staff-store";

export const ORDER_USAGE = `usage: ndc-gateway order evidence ORDER_ID [--out DIR]
  writes each signed original of the order (ORDER_ID-SEQ-signed.xml, the request bytes as received)
  and ORDER_ID-verification.json (the chained evidence, whether the chain holds, each original
  checked again with its registered key); exit 1 when the order has no evidence or the chain is broken`;

/**
 * `order evidence`: the airline's export for a dispute over a signed request (issue 11 item 3,
 * docs/signatures.md). The originals hold identity documents: the files are written 0600.
 */
export async function orderCommand(args: string[], io: CliIo, deps: { store?: Store } = {}): Promise<number> {
  const [sub, orderId, ...rest] = args;
  if (sub === undefined || sub === "help") {
    io.out(ORDER_USAGE);
    return sub === undefined ? 2 : 0;
  }
  if (sub !== "evidence" || !orderId) throw new UsageError(`order: expected "evidence ORDER_ID"\n${ORDER_USAGE}`);
  let out = ".";
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === "--out" && rest[i + 1]) out = rest[++i]!;
    else throw new UsageError(`order evidence: unexpected argument ${rest[i]}\n${ORDER_USAGE}`);
  }
  const { config } = loadRuntime(io);
  const key = loadFieldKey(config);
  return withStaffStore(io, deps.store, async (store) => {
    const report = await evidenceReport(store, key, orderId);
    if (report.entries.length === 0) {
      io.err(`order ${orderId.slice(0, 64)}: no signed request was verified for this order`);
      return 1;
    }
    mkdirSync(out, { recursive: true });
    const entries = report.entries.map((e) => {
      if (!("xml" in e.original)) return e;
      const file = `${orderId}-${e.seq}-signed.xml`;
      writeFileSync(join(out, file), e.original.xml, { mode: 0o600 });
      io.out(`wrote ${join(out, file)} (signed original, sha256 ${e.originalSha256}${e.original.sha256Matches ? "" : " DOES NOT MATCH the chain"})`);
      return { ...e, original: { file, sha256Matches: e.original.sha256Matches } };
    });
    for (const e of report.entries) if ("erasedAt" in e.original) io.out(`evidence ${e.seq}: the signed original was erased with the order's documents on ${e.original.erasedAt}; its digest stays chained`);
    const reportFile = join(out, `${orderId}-verification.json`);
    writeFileSync(reportFile, JSON.stringify({ ...report, entries }, null, 2) + "\n", { mode: 0o600 });
    io.out(`wrote ${reportFile}; evidence chain ${report.chain.holds ? "holds" : `BROKEN at seq ${report.chain.brokenAtSeq}`}`);
    return report.chain.holds ? 0 : 1;
  });
}
