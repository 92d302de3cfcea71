import type { Clock } from "@ndc/clock";
import type { GatewayConfig } from "@ndc/config";
import type { Store } from "@ndc/store";
import type { AuthService } from "./types";
import { loadSigningKey, type SealingKey } from "./token/signing-key";
import { issueToken } from "./token/issue";
import { authenticate } from "./access/authenticate";
import { requireScope } from "./access/require-scope";
import { resolveSeller } from "./access/resolve-seller";

/** The AuthService the gateway uses (apps/gateway/src/boot.ts). */
export async function createAuthService(opts: {
  store: Store;
  config: GatewayConfig;
  clock: Clock;
  /** The field-encryption key: the token signing key is kept in the store sealed under it. */
  fieldKey: SealingKey;
}): Promise<AuthService> {
  const deps = { store: opts.store, config: opts.config, clock: opts.clock, signingKey: await loadSigningKey(opts.store, opts.fieldKey, opts.clock.now()) };
  return {
    issueToken: (req) => issueToken(deps, req),
    authenticate: (headers) => authenticate(deps, headers),
    requireScope,
    resolveSeller: (principal, chain) => resolveSeller(principal, chain, opts.config.airline.designator),
  };
}
