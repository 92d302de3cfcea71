import { createHash } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/**
 * ClearanceID (2022.1 ClearanceID_Type, [0-9]{7}[A-Za-z0-9]{8}): the year of the request, the
 * airline's 3-digit accounting code, then 8 characters derived from the leg and the attempt (a
 * payment cleared again after a cancellation gets a new id), so a retried step finds its own row.
 */
export function clearanceIdOf(accountingCode: string, legId: string, attempt: number, at: number): string {
  const digest = createHash("sha256").update(`${legId}#${attempt}`).digest();
  let tail = "";
  for (let i = 0; i < 8; i++) tail += ALPHABET[digest[i]! % ALPHABET.length];
  return `${new Date(at).getUTCFullYear()}${accountingCode}${tail}`;
}
