import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from "node:fs";

/**
 * Everything the gateway keeps on disk is for its own user only: the database and its -wal and
 * -shm files (orders, the registry, the encrypted token-signing key), the field key, the sandbox
 * credentials. Creation modes pass through the process umask (0022 gives 0644, 0 gives 0666), so
 * the mode is set with chmod after creation, never trusted to the umask.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates the directory 0700, or narrows an existing one the process owns (a data
 * directory left 0755 by an earlier version). A shared directory (sticky bit, like /tmp) or one
 * owned by someone else is left as it is: its files are still 0600.
 */
export function ensurePrivateDir(dir: string): void {
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    chmodSync(dir, PRIVATE_DIR_MODE);
    return;
  }
  const st = statSync(dir);
  if ((st.mode & 0o1000) === 0) narrow(dir, PRIVATE_DIR_MODE);
}

/** Creates the file empty and 0600 if it is missing; narrows it (group and others out) if it exists. */
export function ensurePrivateFile(path: string): void {
  if (existsSync(path)) return narrow(path, PRIVATE_FILE_MODE);
  closeSync(openSync(path, "a", PRIVATE_FILE_MODE));
  chmodSync(path, PRIVATE_FILE_MODE);
}

/** Narrows an existing file (group and others out); a missing one is fine (SQLite's -wal and -shm come and go). */
export function narrowIfPresent(path: string): void {
  if (existsSync(path)) narrow(path, PRIVATE_FILE_MODE);
}

/**
 * Takes away what `mode` does not allow and adds nothing: a key file an operator made 0400 stays
 * 0400. Only the owner may chmod, so a file of another user is left to its owner.
 */
function narrow(path: string, mode: number): void {
  const st = statSync(path);
  const owner = typeof process.getuid === "function" ? process.getuid() : st.uid;
  const now = st.mode & 0o777;
  if ((now & mode) !== now && st.uid === owner) chmodSync(path, now & mode);
}
