import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { and, eq, isNotNull, isNull, lt, or } from "drizzle-orm";
import type { Store, StoreDb } from "@ndc/store";
import type { StaffRole } from "./roles";
import { staffAccounts as A, staffSessions as S } from "./tables/staff";

/** A console session ends 30 minutes after its last use, and 12 hours after login whatever happens (issue 12 item 1). */
export const SESSION_IDLE_MS = 30 * 60_000;
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60_000;

const digest = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");
const newToken = () => randomBytes(32).toString("base64url");

/**
 * A session's CSRF token, derived from the cookie's token (HMAC keyed by it): only the holder of
 * the cookie can compute it, and a server-rendered page can put it in its forms without storing
 * it anywhere. A script on another site has neither the cookie nor the page.
 */
export const csrfTokenOf = (sessionToken: string) => createHmac("sha256", sessionToken).update("ndc-gateway/staff-csrf/v1").digest("base64url");

export interface StaffSession {
  staffId: string;
  username: string;
  role: StaffRole;
  /** Epoch ms: when the session ends unless used again before (idle), never after the absolute end. */
  expiresAt: number;
  /** The session's CSRF token digest: compared with what a state-changing call sends (csrfMatches). */
  csrfHash: string;
  /** The cookie's token digest: the session's id in the store. */
  sessionHash: string;
}

const expiresAt = (createdAt: number, lastSeenAt: number) => Math.min(lastSeenAt + SESSION_IDLE_MS, createdAt + SESSION_ABSOLUTE_MS);

/**
 * Opens a session inside the caller's write (the login's, with its audit row). The cookie's token
 * and the CSRF token are returned once; only their SHA-256 digests are stored. The account's
 * sessions that are over (ended, idle, or past 12 hours) are deleted first, so the table holds
 * at most the live ones plus those not yet noticed; the audit trail, not this table, is the record.
 */
export async function openSession(tx: StoreDb, staffId: string, remote: string, now: number): Promise<{ token: string; csrfToken: string; expiresAt: number }> {
  await tx.delete(S).where(and(eq(S.staffId, staffId), or(isNotNull(S.endedAt), lt(S.lastSeenAt, now - SESSION_IDLE_MS), lt(S.createdAt, now - SESSION_ABSOLUTE_MS))));
  const token = newToken();
  const csrfToken = csrfTokenOf(token);
  await tx.insert(S).values({ sessionHash: digest(token), staffId, csrfHash: digest(csrfToken), createdAt: now, lastSeenAt: now, remote });
  return { token, csrfToken, expiresAt: expiresAt(now, now) };
}

/**
 * The live session of a cookie's token, its last use moved to `now` (the idle clock restarts), or
 * undefined: unknown, ended (logout, disable, password reset), idle 30 minutes, 12 hours old, or
 * its account disabled. A session found expired is ended in the store, so it never comes back.
 */
export async function liveSession(store: Store, token: string, now: number): Promise<StaffSession | undefined> {
  if (!token || token.length > 128) return undefined;
  const sessionHash = digest(token);
  const [row] = await store.db
    .select({ staffId: S.staffId, csrfHash: S.csrfHash, createdAt: S.createdAt, lastSeenAt: S.lastSeenAt, endedAt: S.endedAt, username: A.username, role: A.role, disabledAt: A.disabledAt })
    .from(S)
    .innerJoin(A, eq(A.staffId, S.staffId))
    .where(eq(S.sessionHash, sessionHash));
  if (!row || row.endedAt !== null) return undefined;
  if (row.disabledAt !== null || now >= expiresAt(row.createdAt, row.lastSeenAt) || now < row.createdAt) {
    await endSession(store, sessionHash, now);
    return undefined;
  }
  await store.write((tx) => tx.update(S).set({ lastSeenAt: now }).where(and(eq(S.sessionHash, sessionHash), isNull(S.endedAt))));
  return { staffId: row.staffId, username: row.username, role: row.role as StaffRole, expiresAt: expiresAt(row.createdAt, now), csrfHash: row.csrfHash, sessionHash };
}

/** Logout: the session ends for good (a replayed cookie finds it ended). */
export async function endSession(store: Store, sessionHash: string, now: number): Promise<void> {
  await store.write((tx) => tx.update(S).set({ endedAt: now }).where(and(eq(S.sessionHash, sessionHash), isNull(S.endedAt))));
}

/** Whether a state-changing call's X-CSRF-Token (or form field) is the session's, in constant time. */
export function csrfMatches(session: Pick<StaffSession, "csrfHash">, given: string | null | undefined): boolean {
  if (!given || given.length > 128) return false;
  return timingSafeEqual(Buffer.from(digest(given), "hex"), Buffer.from(session.csrfHash, "hex"));
}
