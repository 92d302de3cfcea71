import { dirname } from "node:path";
import { ensurePrivateDir, ensurePrivateFile, narrowIfPresent } from "@ndc/config";
import { isMemory } from "./url";

// SQLite's companion files in WAL mode. It creates them with the main file's permissions, so a
// main file made 0600 first gives 0600 companions; older ones are narrowed all the same.
const COMPANIONS = ["-wal", "-shm", "-journal"];

/**
 * Before SQLite opens a database file: its folder 0700, the file created 0600 (an empty file is
 * a new database to SQLite), and files left wider by an earlier version narrowed.
 */
export function preparePrivateDatabase(path: string): void {
  if (isMemory(path)) return;
  ensurePrivateDir(dirname(path));
  ensurePrivateFile(path);
  for (const s of COMPANIONS) narrowIfPresent(path + s);
}

/** After opening in WAL mode: -wal and -shm now exist; make sure of their mode too. */
export function narrowDatabaseCompanions(path: string): void {
  if (isMemory(path)) return;
  for (const s of COMPANIONS) narrowIfPresent(path + s);
}
