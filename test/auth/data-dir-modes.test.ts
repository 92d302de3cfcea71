import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { ManualClock } from "@ndc/clock";
import * as tables from "../../packages/auth/src/tables";
import { registerAgency, registerClient } from "@ndc/auth";
import { signToken, type TokenClaims } from "../../packages/auth/src/token/format";
import { bearer, bootAuthGateway, fetchToken } from "./harness";
import { dataDirModes, expectedPrivateModes } from "../support/file-modes";

/**
 * The data directory is its owner's only (0700) and every file in it 0600, whatever the umask:
 * here the gateway starts in process under umask 000, where anything left to the umask is 0777/0666.
 * A data directory from an earlier version (0755, 0644 files, the signing key in clear) is
 * narrowed and sealed on the next start, and the tokens it issued stay valid.
 */
const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

function freshRoot(): string {
  const r = mkdtempSync(join(tmpdir(), "ndc-modes-"));
  roots.push(r);
  return r;
}

async function underUmask<T>(mask: number, fn: () => Promise<T>): Promise<T> {
  const old = process.umask(mask);
  try {
    return await fn();
  } finally {
    process.umask(old);
  }
}

describe("data directory file modes (in process)", () => {
  test("a fresh start under umask 000: directory 0700, database, -wal, -shm, field key, sandbox credentials 0600", async () => {
    const dir = join(freshRoot(), "data");
    const g = await underUmask(0, () => bootAuthGateway({ GATEWAY_MODE: "local" }, { dataDir: dir }));
    try {
      // A write, so the WAL is in use while we look.
      await registerAgency(g.gw.store, { agencyId: "AGY-M", iataNumber: "12312312", name: "Modes" });
      expect(dataDirModes(dir)).toEqual(expectedPrivateModes());
    } finally {
      await g.close({ keepDir: true });
    }
  });

  test("an earlier version's data directory: narrowed to 0700/0600, its clear signing key sealed, its tokens still valid", async () => {
    const dir = join(freshRoot(), "data");
    const clock = new ManualClock(Date.parse("2026-11-23T12:00:00Z"));
    const first = await bootAuthGateway({ GATEWAY_MODE: "local" }, { dataDir: dir, clock });
    await registerAgency(first.gw.store, { agencyId: "AGY-OLD", iataNumber: "32132132", name: "Old" });
    const client = await registerClient(first.gw.store, { agency: "AGY-OLD", scopes: "ndc:shop" });
    const issued = await fetchToken(first, client.clientId, client.clientSecret);
    const claims = JSON.parse(Buffer.from(issued.split(".")[1]!, "base64url").toString()) as TokenClaims;
    // What the earlier version kept: 32 random bytes in clear in token_signing_keys.secret,
    // and a token it signed with them.
    const legacyKey = randomBytes(32);
    await first.gw.store.write(async (tx) => {
      await tx.update(tables.tokenSigningKeys).set({ secret: legacyKey.toString("base64url") });
    });
    const legacyToken = signToken(claims, new Uint8Array(legacyKey));
    await first.close({ keepDir: true });
    // ...and the modes its mkdir and SQLite left under umask 022.
    chmodSync(dir, 0o755);
    for (const f of ["gateway.db", "field-key", "sandbox-credentials.json"]) chmodSync(join(dir, f), 0o644);

    const again = await bootAuthGateway({ GATEWAY_MODE: "local" }, { dataDir: dir, clock });
    try {
      expect(dataDirModes(dir)).toEqual(expectedPrivateModes());
      const row = (await again.gw.store.db.select().from(tables.tokenSigningKeys).where(eq(tables.tokenSigningKeys.keyId, "access-token-hmac-1")))[0]!;
      expect(row.secret).toStartWith("aesgcm1.");
      expect(row.secret).not.toContain(legacyKey.toString("base64url"));
      // Same key material, sealed: the token the earlier version issued still authenticates.
      const r = await again.ndc("AirShoppingRQ", bearer(legacyToken));
      expect(r.status).toBe(501);
      expect(r.code).toBe("message_not_available");
    } finally {
      await again.close({ keepDir: true });
    }
  });
});
