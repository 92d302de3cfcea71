export type {
  Agency,
  SigningTerms,
  Principal,
  Seller,
  TokenResponse,
  TokenRequest,
  OAuthErrorCode,
  OAuthErrorResult,
  AuthService,
  RateDecision,
  RateLimiter,
  FailureBudget,
} from "./types";
export { createAuthService } from "./service";
export { storeReads, type RegistryReads } from "./access/caller-cache";
export { createRateLimiter } from "./rate-limiter";
export { storeFailureBudget } from "./failure-budget";
export { failureSource } from "./source-address";
export {
  ensureSandbox,
  provisionSandbox,
  type SandboxProvision,
  type SandboxCredentials,
  SANDBOX_AGENCY_ID,
  SANDBOX_CLIENT_ID,
  SANDBOX_IATA_NUMBER,
  SANDBOX_CREDENTIALS_FILE,
} from "./sandbox";
export { TOKEN_LIFETIME_SECONDS } from "./token/format";
export { rotateSigningKey } from "./token/signing-key";
export { REALM } from "./access/challenge";
export * from "./registry";
export { hashSecret, verifySecret, DECOY_HASH } from "./secrets";
export { storeSellerClocks, type StoreSellerClocks } from "./sandbox-clocks";
