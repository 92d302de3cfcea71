import type { Clock } from "@ndc/clock";
import type { GatewayConfig } from "@ndc/config";
import type { Store } from "@ndc/store";
import type { AuthService } from "./types";
import { loadSealedSigningKey, type SealingKey } from "./token/signing-key";
import { CurrentSigningKey } from "./token/current-key";
import { issueToken } from "./token/issue";
import { authenticate } from "./access/authenticate";
import { requireScope } from "./access/require-scope";
import { resolveSeller } from "./access/resolve-seller";
import { CallerCache, storeReads, type RegistryReads } from "./access/caller-cache";

/** The AuthService the gateway uses (apps/gateway/src/boot.ts). */
export async function createAuthService(opts: {
  store: Store;
  config: GatewayConfig;
  clock: Clock;
  /** The field-encryption key: the token signing key is kept in the store sealed under it. */
  fieldKey: SealingKey;
  /** The registry reads behind the caller cache; tests wrap them to count what reaches the store. */
  registryReads?: RegistryReads;
}): Promise<AuthService> {
  const opened = await loadSealedSigningKey(opts.store, opts.fieldKey, opts.clock.now());
  const callers = new CallerCache(opts.registryReads ?? storeReads(opts.store), opts.store);
  const deps = {
    store: opts.store,
    config: opts.config,
    clock: opts.clock,
    signingKey: new CurrentSigningKey(opts.store, opts.fieldKey, callers, opened),
    callers,
  };
  return {
    issueToken: (req) => issueToken(deps, req),
    authenticate: (headers) => authenticate(deps, headers),
    requireScope,
    resolveSeller: (principal, chain) => resolveSeller(principal, chain, opts.config.airline.designator),
  };
}
