import { createHmac } from "node:crypto";
import { chmodSync, closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import type { AuditChain } from "./audit-chain";

/**
 * The staff audit's anchor (issue 19 item 7): the last row the trail is known to hold, its seq and
 * MAC, in a small file outside the database, itself MACed with the chain's key. Rows deleted from
 * the end of the trail, or a trail rebuilt without the key, no longer reach it, and
 * `staff audit verify` says so. Written only after the row it names is durable (store.afterCommit),
 * so the anchor never runs ahead of the database: after a crash it is at most a few rows behind,
 * and those rows, keyed like every other, are still checked but could go unnoticed if cut off.
 */
export interface Anchor {
  seq: number;
  hash: string;
}

const macOf = (chain: AuditChain, a: Anchor) => createHmac("sha256", chain.key).update(`ndc-gateway staff audit anchor\u0000${a.seq}\u0000${a.hash}`).digest("hex");

/** The anchor, null when there is none yet, "invalid" when its text or its MAC does not hold. */
export function readAnchor(chain: AuditChain): Anchor | null | "invalid" {
  if (!existsSync(chain.anchorFile)) return null;
  try {
    const a = JSON.parse(readFileSync(chain.anchorFile, "utf8")) as { seq?: unknown; hash?: unknown; mac?: unknown };
    if (typeof a.seq !== "number" || !Number.isSafeInteger(a.seq) || a.seq < 0 || typeof a.hash !== "string" || typeof a.mac !== "string") return "invalid";
    const anchor = { seq: a.seq, hash: a.hash };
    return macOf(chain, anchor) === a.mac ? anchor : "invalid";
  } catch {
    return "invalid";
  }
}

/**
 * Moves the anchor forward to `to` (never back: several processes append, and their commits can
 * report out of order). An anchor that does not hold its MAC is left as it is, for `verify` to
 * report: tampering is not healed by the next action. Atomic: a temporary file, fsynced, renamed
 * over the old one, so a crash leaves the old anchor or the new one, never half of one.
 */
export function advanceAnchor(chain: AuditChain, to: Anchor): void {
  const now = readAnchor(chain);
  if (now === "invalid" || (now !== null && now.seq >= to.seq)) return;
  if (!existsSync(dirname(chain.anchorFile))) mkdirSync(dirname(chain.anchorFile), { recursive: true, mode: 0o700 });
  const tmp = `${chain.anchorFile}.${process.pid}.tmp`;
  const fd = openSync(tmp, "w", 0o600);
  try {
    writeSync(fd, JSON.stringify({ seq: to.seq, hash: to.hash, mac: macOf(chain, to) }) + "\n");
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  chmodSync(tmp, 0o600);
  renameSync(tmp, chain.anchorFile);
}
