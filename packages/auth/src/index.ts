export type {
  Agency,
  Principal,
  Seller,
  TokenResponse,
  TokenRequest,
  OAuthErrorResult,
  AuthService,
  RateDecision,
  RateLimiter,
} from "./types";
// Implementations (createAuthService, createRateLimiter, ensureSandbox, SandboxCredentials,
// registry administration) are exported here as they land.
