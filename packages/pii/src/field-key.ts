import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { ConfigError, ensurePrivateDir, narrowIfPresent, PRIVATE_FILE_MODE, type GatewayConfig } from "@ndc/config";

/** The AES-256-GCM key that encrypts identity-document numbers at rest (DESIGN 5), with its version. */
export interface FieldKey {
  key: Uint8Array;
  version: number;
}

function decode(b64: string, where: string): Uint8Array {
  const key = Uint8Array.from(Buffer.from(b64.trim(), "base64"));
  if (key.length !== 32) throw new ConfigError(`${where} must hold 32 bytes in base64 (AES-256), got ${key.length} bytes`);
  return key;
}

/** Exclusive create: of two processes starting together, one writes the key and both read it. */
function createKeyFile(file: string): void {
  try {
    writeFileSync(file, Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64") + "\n", { mode: PRIVATE_FILE_MODE, flag: "wx" });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return;
    throw e;
  }
  chmodSync(file, PRIVATE_FILE_MODE);
}

/**
 * Loads the key from GATEWAY_FIELD_KEY or its file. Outside production a missing file is created
 * with a random key (0600), so a local gateway works out of the box; production never invents one,
 * because data encrypted under a key nobody kept would be lost.
 */
export function loadFieldKey(config: GatewayConfig): FieldKey {
  const src = config.fieldKey;
  if (src.source === "env") return { key: decode(src.value!, "GATEWAY_FIELD_KEY"), version: src.version };
  if (!existsSync(src.file)) {
    if (config.mode === "production") throw new ConfigError(`GATEWAY_FIELD_KEY_FILE ${src.file} does not exist`);
    if (!existsSync(dirname(src.file))) ensurePrivateDir(dirname(src.file));
    createKeyFile(src.file);
  }
  // Readable by the gateway's user only, even when an earlier version or the umask left it wider.
  narrowIfPresent(src.file);
  return { key: decode(readFileSync(src.file, "utf8"), `GATEWAY_FIELD_KEY_FILE ${src.file}`), version: src.version };
}
