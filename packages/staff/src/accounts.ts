import { randomBytes } from "node:crypto";
import { and, asc, eq, isNull } from "drizzle-orm";
import { nanoid } from "nanoid";
import { hashSecret } from "@ndc/auth";
import { openField, sealField, type FieldKey } from "@ndc/pii";
import type { Store, StoreDb } from "@ndc/store";
import { isStaffRole, type StaffRole } from "./roles";
import { staffAccounts as A, staffSessions as S } from "./tables/staff";
import { newTotpSecret } from "./totp";

/** A staff command's mistake, in English for the CLI (never a password or a secret). */
export class StaffAccountError extends Error {}

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 256;
const USERNAME = /^[a-z0-9][a-z0-9._-]{1,63}$/;

export interface StaffAccount {
  staffId: string;
  username: string;
  role: StaffRole;
  createdAt: number;
  disabledAt?: number;
  lockedUntil?: number;
}

/**
 * The TOTP secret is sealed like a document number (AES-256-GCM under the field key), bound to
 * the account: a binding no identity document can have (no order is called "staff"), so a sealed
 * secret copied onto a document row, or onto another account, fails authentication.
 */
const totpBinding = (staffId: string) => ({ orderId: "staff", paxId: staffId, documentId: "totp" });

export function openTotpSecret(key: FieldKey, row: { staffId: string; totpCiphertext: string; totpNonce: string; totpKeyVersion: number }): string {
  return openField({ ciphertext: Buffer.from(row.totpCiphertext, "base64"), nonce: Buffer.from(row.totpNonce, "base64"), keyVersion: row.totpKeyVersion }, key, totpBinding(row.staffId));
}

function checkPassword(password: string): void {
  const n = [...password].length;
  if (n < PASSWORD_MIN || n > PASSWORD_MAX) throw new StaffAccountError(`a password has ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`);
}

/** A generated password: 120 random bits, 20 characters of base64url. */
export const generatedPassword = () => randomBytes(15).toString("base64url");

/**
 * `staff add`: the account, its argon2id password hash and a fresh TOTP secret, returned once in
 * clear for enrolment (it is stored sealed only). `password` absent: one is generated and returned.
 */
export async function addStaff(store: Store, key: FieldKey, input: { username: string; role: string; password?: string }, now: number): Promise<{ account: StaffAccount; password?: string; totpSecret: string }> {
  if (!USERNAME.test(input.username)) throw new StaffAccountError("a username is 2 to 64 characters: lower-case letters, digits, '.', '_' or '-', starting with a letter or digit");
  if (!isStaffRole(input.role)) throw new StaffAccountError("the role is one of agent, senior_agent, supervisor, admin");
  const generated = input.password === undefined ? generatedPassword() : undefined;
  const password = input.password ?? generated!;
  checkPassword(password);
  const staffId = `stf_${nanoid(16)}`;
  const totpSecret = newTotpSecret();
  const sealed = sealField(totpSecret, key, totpBinding(staffId));
  const passwordHash = await hashSecret(password);
  const inserted = await store.write((tx) =>
    tx
      .insert(A)
      .values({
        staffId, username: input.username, role: input.role as StaffRole, passwordHash,
        totpCiphertext: Buffer.from(sealed.ciphertext).toString("base64"), totpNonce: Buffer.from(sealed.nonce).toString("base64"), totpKeyVersion: sealed.keyVersion,
        createdAt: now, updatedAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: A.staffId }),
  );
  if (inserted.length !== 1) throw new StaffAccountError(`a staff account named ${input.username} exists`);
  return { account: { staffId, username: input.username, role: input.role as StaffRole, createdAt: now }, ...(generated ? { password: generated } : {}), totpSecret };
}

const accountOf = (r: typeof A.$inferSelect): StaffAccount => ({
  staffId: r.staffId, username: r.username, role: r.role as StaffRole, createdAt: r.createdAt,
  ...(r.disabledAt !== null ? { disabledAt: r.disabledAt } : {}),
  ...(r.lockedUntil !== null ? { lockedUntil: r.lockedUntil } : {}),
});

export async function listStaff(store: Store): Promise<StaffAccount[]> {
  return (await store.db.select().from(A).orderBy(asc(A.username))).map(accountOf);
}

export async function staffRow(db: StoreDb, username: string): Promise<typeof A.$inferSelect | undefined> {
  const [row] = await db.select().from(A).where(eq(A.username, username));
  return row;
}

/** `staff disable`: no new login, and every open session ends in the same write. */
export async function disableStaff(store: Store, username: string, now: number): Promise<void> {
  await store.write(async (tx) => {
    const done = await tx.update(A).set({ disabledAt: now, updatedAt: now }).where(eq(A.username, username)).returning({ id: A.staffId });
    if (done.length !== 1) throw new StaffAccountError(`no staff account named ${username}`);
    await tx.update(S).set({ endedAt: now }).where(and(eq(S.staffId, done[0]!.id), isNull(S.endedAt)));
  });
}

/**
 * `staff reset-password`: a new password (given or generated), the lockout cleared, every open
 * session ended; with `newTotp` a fresh TOTP secret too (a lost phone), returned once.
 */
export async function resetStaffPassword(store: Store, key: FieldKey, username: string, opts: { password?: string; newTotp?: boolean }, now: number): Promise<{ password?: string; totpSecret?: string }> {
  const generated = opts.password === undefined ? generatedPassword() : undefined;
  const password = opts.password ?? generated!;
  checkPassword(password);
  const passwordHash = await hashSecret(password);
  const row = await staffRow(store.db, username);
  if (!row) throw new StaffAccountError(`no staff account named ${username}`);
  const totpSecret = opts.newTotp ? newTotpSecret() : undefined;
  const sealed = totpSecret ? sealField(totpSecret, key, totpBinding(row.staffId)) : undefined;
  await store.write(async (tx) => {
    await tx
      .update(A)
      .set({
        passwordHash, failedLogins: 0, lockedUntil: null, updatedAt: now,
        ...(sealed ? { totpCiphertext: Buffer.from(sealed.ciphertext).toString("base64"), totpNonce: Buffer.from(sealed.nonce).toString("base64"), totpKeyVersion: sealed.keyVersion, totpLastStep: 0 } : {}),
      })
      .where(eq(A.staffId, row.staffId));
    await tx.update(S).set({ endedAt: now }).where(and(eq(S.staffId, row.staffId), isNull(S.endedAt)));
  });
  return { ...(generated ? { password: generated } : {}), ...(totpSecret ? { totpSecret } : {}) };
}
