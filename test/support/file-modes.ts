import { existsSync, statSync } from "node:fs";
import { join } from "node:path";

/** What a started local gateway leaves in its data directory, each with the mode it must have. */
export const PRIVATE_DATA_FILES = ["gateway.db", "gateway.db-wal", "gateway.db-shm", "field-key", "sandbox-credentials.json"];

/** Permission bits as octal text ("600"), or "missing". */
export function modeOf(path: string): string {
  return existsSync(path) ? (statSync(path).mode & 0o777).toString(8) : "missing";
}

/** The data directory and every file of PRIVATE_DATA_FILES, path -> mode, for one toEqual. */
export function dataDirModes(dir: string): Record<string, string> {
  const out: Record<string, string> = { ".": modeOf(dir) };
  for (const f of PRIVATE_DATA_FILES) out[f] = modeOf(join(dir, f));
  return out;
}

export function expectedPrivateModes(): Record<string, string> {
  const out: Record<string, string> = { ".": "700" };
  for (const f of PRIVATE_DATA_FILES) out[f] = "600";
  return out;
}
