import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { ConfigError, type GatewayConfig } from "@ndc/config";

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
    mkdirSync(dirname(src.file), { recursive: true });
    writeFileSync(src.file, Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64") + "\n", { mode: 0o600 });
  }
  return { key: decode(readFileSync(src.file, "utf8"), `GATEWAY_FIELD_KEY_FILE ${src.file}`), version: src.version };
}
