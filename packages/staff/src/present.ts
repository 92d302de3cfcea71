import { and, eq, lt, sql } from "drizzle-orm";
import type { FieldKey } from "@ndc/pii";
import type { Store, StoreDb } from "@ndc/store";
import { openTotpSecret, staffRow, StaffAccountError } from "./accounts";
import { appendAudit, recordAudit, type AuditAction } from "./audit";
import type { AuditChain } from "./audit-chain";
import { LOCK_AFTER_FAILURES, LOCK_MS } from "./login";
import { may, RIGHTS, type StaffRight, type StaffRole } from "./roles";
import { staffAccounts as A } from "./tables/staff";
import { matchingStep } from "./totp";

/** Where the audit says a command-line action came from (the console's rows name the socket's address). */
export const CLI_REMOTE = "cli";

/** A member of staff present at the command line: who, for the audit, and the TOTP step to spend. */
export interface PresentStaff {
  staffId: string;
  username: string;
  role: StaffRole;
  remote: string;
  step: number;
}

/**
 * A command-line action on personal data (issue 19 items 10, 11) names a staff account and its
 * current TOTP code, as the console's login does: an account that exists, is not disabled or
 * locked, holds `right`, and whose code is right and unused. Each refusal of a known account is
 * audited under `action` (refused: the role; failed or locked: the account or the code), and wrong
 * codes count toward the console's lockout. The step is spent by `spendTotpStep` in the action's
 * own write, so one code serves one action. The CLI runs beside the database, so this is not a
 * wall against its operator: it makes the supervisor named be the one present, on the audit.
 */
export async function presentStaff(
  store: Store,
  key: FieldKey,
  chain: AuditChain,
  ask: { username: string; totp: string; right: StaffRight; action: AuditAction; orderId?: string; documentRef?: string },
  now: number,
): Promise<PresentStaff> {
  const row = ask.username.length <= 64 ? await staffRow(store.db, ask.username) : undefined;
  if (!row) throw new StaffAccountError(`no staff account named ${ask.username.slice(0, 64)}`);
  const who = { staffId: row.staffId, username: row.username, role: row.role, remote: CLI_REMOTE, action: ask.action, ...(ask.orderId ? { orderId: ask.orderId } : {}), ...(ask.documentRef ? { documentRef: ask.documentRef } : {}) };
  if (row.disabledAt !== null) {
    await recordAudit(store, chain, { ...who, at: now, outcome: "failed", detail: "account disabled" });
    throw new StaffAccountError(`staff ${row.username} is disabled`);
  }
  if (row.lockedUntil !== null && now < row.lockedUntil) {
    await recordAudit(store, chain, { ...who, at: now, outcome: "locked", detail: `locked until ${new Date(row.lockedUntil).toISOString()}` });
    throw new StaffAccountError(`staff ${row.username} is locked until ${new Date(row.lockedUntil).toISOString()}`);
  }
  const role = row.role as StaffRole;
  if (!may(role, ask.right)) {
    await recordAudit(store, chain, { ...who, at: now, outcome: "refused", detail: `role ${role} lacks ${ask.right}` });
    throw new StaffAccountError(`staff ${row.username} is ${role}: ${ask.action} is for ${RIGHTS[ask.right].join(", ")} only`);
  }
  const step = /^\d{6}$/.test(ask.totp) ? matchingStep(openTotpSecret(key, row), ask.totp, now) : undefined;
  if (step === undefined || step <= row.totpLastStep) {
    const why = step === undefined ? "wrong TOTP code" : "TOTP code already used";
    await store.write(async (tx) => {
      // Counted in SQL like a failed login: the console's lockout covers the command line too.
      const [after] = await tx.update(A).set({ failedLogins: sql`${A.failedLogins} + 1`, updatedAt: now }).where(eq(A.staffId, row.staffId)).returning({ failures: A.failedLogins });
      const locks = (after?.failures ?? 0) >= LOCK_AFTER_FAILURES;
      if (locks) await tx.update(A).set({ failedLogins: 0, lockedUntil: now + LOCK_MS }).where(eq(A.staffId, row.staffId));
      await appendAudit(tx, chain, { ...who, at: now, outcome: locks ? "locked" : "failed", detail: locks ? `${why}; locked after ${LOCK_AFTER_FAILURES} failures` : why });
    });
    throw new StaffAccountError(`${why} for staff ${row.username}`);
  }
  return { staffId: row.staffId, username: row.username, role, remote: CLI_REMOTE, step };
}

/** Spends the code's step inside the action's write: a code used meanwhile (a login, another command) refuses the action. */
export async function spendTotpStep(tx: StoreDb, who: PresentStaff, now: number): Promise<void> {
  const spent = await tx.update(A).set({ totpLastStep: who.step, failedLogins: 0, updatedAt: now }).where(and(eq(A.staffId, who.staffId), lt(A.totpLastStep, who.step))).returning({ staffId: A.staffId });
  if (spent.length === 0) throw new StaffAccountError(`TOTP code already used for staff ${who.username}`);
}

/** The audit's who and from where, for a PresentStaff. */
export const presentWho = (p: PresentStaff) => ({ staffId: p.staffId, username: p.username, role: p.role, remote: p.remote });
