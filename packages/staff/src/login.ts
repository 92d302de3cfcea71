import { eq, sql } from "drizzle-orm";
import { DECOY_HASH, verifySecret } from "@ndc/auth";
import { GatewayError } from "@ndc/errors";
import type { FieldKey } from "@ndc/pii";
import type { Store } from "@ndc/store";
import { openTotpSecret, staffRow } from "./accounts";
import { appendAudit, recordAudit } from "./audit";
import type { AuditChain } from "./audit-chain";
import type { StaffRole } from "./roles";
import { openSession } from "./sessions";
import { staffAccounts as A } from "./tables/staff";
import { matchingStep } from "./totp";

/** Consecutive failed logins that lock an account, and for how long (issue 12 item 1). */
export const LOCK_AFTER_FAILURES = 5;
export const LOCK_MS = 15 * 60_000;

export interface LoginInput {
  username: string;
  password: string;
  totp: string;
  remote: string;
}

export interface LoggedIn {
  token: string;
  csrfToken: string;
  expiresAt: number;
  staffId: string;
  username: string;
  role: StaffRole;
}

/**
 * Password (argon2id) and TOTP code, then a session. Every failure answers the same
 * staff_login_failed, whatever failed (unknown name, disabled, locked, password, code), so the
 * answer tells nobody which names exist or which factor was right. An unknown name costs one
 * argon2id verify like a known one (no timing oracle). A known account's failures are counted;
 * the fifth in a row locks it for 15 minutes, during which even the right credentials fail. Each
 * attempt on a known account is audited (`staff.login`: ok, failed or locked), in the write that
 * counts it or opens the session.
 */
export async function login(store: Store, key: FieldKey, chain: AuditChain, input: LoginInput, now: number): Promise<LoggedIn> {
  const row = input.username.length <= 64 ? await staffRow(store.db, input.username) : undefined;
  const passwordOk = await verifySecret(input.password.slice(0, 1024), row?.passwordHash ?? DECOY_HASH);
  if (!row) throw failed();
  const who = { staffId: row.staffId, username: row.username, role: row.role, remote: input.remote, action: "staff.login" as const };
  if (row.disabledAt !== null) {
    await recordAudit(store, chain, { ...who, at: now, outcome: "failed", detail: "account disabled" });
    throw failed();
  }
  if (row.lockedUntil !== null && now < row.lockedUntil) {
    await recordAudit(store, chain, { ...who, at: now, outcome: "locked", detail: `locked until ${new Date(row.lockedUntil).toISOString()}` });
    throw failed();
  }
  const step = passwordOk ? matchingStep(openTotpSecret(key, row), input.totp, now) : undefined;
  const fresh = step !== undefined && step > row.totpLastStep;
  if (!passwordOk || !fresh) {
    const why = !passwordOk ? "wrong password" : step === undefined ? "wrong TOTP code" : "TOTP code already used";
    await store.write(async (tx) => {
      // Counted in SQL, not from the row read above: concurrent failures each count.
      const [after] = await tx.update(A).set({ failedLogins: sql`${A.failedLogins} + 1`, updatedAt: now }).where(eq(A.staffId, row.staffId)).returning({ failures: A.failedLogins });
      const locks = (after?.failures ?? 0) >= LOCK_AFTER_FAILURES;
      if (locks) await tx.update(A).set({ failedLogins: 0, lockedUntil: now + LOCK_MS }).where(eq(A.staffId, row.staffId));
      await appendAudit(tx, chain, { ...who, at: now, outcome: locks ? "locked" : "failed", detail: locks ? `${why}; locked after ${LOCK_AFTER_FAILURES} failures` : why });
    });
    throw failed();
  }
  return store.write(async (tx) => {
    await tx.update(A).set({ failedLogins: 0, lockedUntil: null, totpLastStep: step, updatedAt: now }).where(eq(A.staffId, row.staffId));
    await appendAudit(tx, chain, { ...who, at: now, outcome: "ok" });
    const s = await openSession(tx, row.staffId, input.remote, now);
    return { ...s, staffId: row.staffId, username: row.username, role: row.role as StaffRole };
  });
}

const failed = () => new GatewayError("staff_login_failed");
