import type { Store } from "@ndc/store";
import type { CallerCache } from "../access/caller-cache";
import { readSigningKey, type OpenedSigningKey, type SealingKey } from "./signing-key";
import { verifiedTokens, type VerifiedTokens } from "./verified";

/** The signing key in use, and the tokens already verified under it. */
export interface SigningKeyInUse {
  key: Uint8Array;
  tokens: VerifiedTokens;
}

/**
 * The token signing key of this process, kept true to the store. Every gateway process of a data
 * directory signs and verifies with the one stored key; when a process (or the CLI: `client
 * rotate-token-key`) replaces it, the registry's change counter moves with the row (migration
 * 0066), the caller cache notices on the next call (decision 0008: PRAGMA data_version, then the
 * version row), and this re-reads the row: the new key signs and verifies here from that call on,
 * and the tokens verified under the old one are forgotten with it.
 *
 * A row this process's field key cannot open (another process runs with another field key, a
 * misconfiguration) is not used: this process keeps the key it has, and the other's tokens fail
 * their signature check here.
 */
export class CurrentSigningKey {
  private inUse: SigningKeyInUse;
  private sealed: string;
  /** The caller cache's generation the key was last confirmed at. */
  private confirmedAt = NaN;

  constructor(
    private readonly store: Store,
    private readonly sealing: SealingKey,
    private readonly callers: CallerCache,
    opened: OpenedSigningKey,
  ) {
    this.inUse = { key: opened.key, tokens: verifiedTokens(opened.key) };
    this.sealed = opened.sealed;
  }

  async current(): Promise<SigningKeyInUse> {
    const generation = await this.callers.generationNow();
    if (generation === this.confirmedAt) return this.inUse;
    // The generation is taken before the read: a replacement landing during it moves the
    // generation again, so the next call reads once more.
    const row = await readSigningKey(this.store, this.sealing);
    if (row && row.sealed !== this.sealed) {
      this.inUse = { key: row.key, tokens: verifiedTokens(row.key) };
      this.sealed = row.sealed;
    }
    this.confirmedAt = generation;
    return this.inUse;
  }
}
