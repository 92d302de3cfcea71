import type { ChainLink } from "@ndc/xml";

/** An agency registered with the airline (spec 2.1). */
export interface Agency {
  agencyId: string;
  iataNumber: string;
  name: string;
  active: boolean;
  /** The signing agreement's switches (docs/signatures.md); absent reads as policy none. */
  signing?: SigningTerms;
}

/** Per agency: what is done with a request's Signature, and whether the airline signs answers. */
export interface SigningTerms {
  policy: "none" | "optional" | "required";
  airlineSigns: boolean;
}

/** The authenticated caller of an NDC message. */
export interface Principal {
  clientId: string;
  /** The client's own agency. */
  agency: Agency;
  scopes: ReadonlySet<string>;
  /** For ndc:aggregator clients: the agencies it may act as. */
  aggregatorAgencies: readonly Agency[];
  credential: "token" | "api_key";
  /** Key of the rate-limit bucket (one per credential). */
  rateKey: string;
}

/** The seller a message is processed for, after the DistributionChain checks (spec 5.6). */
export interface Seller {
  clientId: string;
  agencyId: string;
  iataNumber: string;
  scopes: ReadonlySet<string>;
  signing?: SigningTerms;
}

export interface TokenResponse {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  scope: string;
}

/** What the token endpoint receives, already read from HTTP. */
export interface TokenRequest {
  authorization: string | null;
  contentType: string | null;
  body: string;
  remoteAddress?: string;
}

/** The token endpoint's refusal codes (RFC 6749 5.2), each a catalogue code. */
export type OAuthErrorCode = "invalid_request" | "invalid_client" | "unsupported_grant_type" | "invalid_scope" | "unauthorized_client";

/**
 * A refusal of the token endpoint (RFC 6749 5.2): the JSON body and, for a client that tried
 * HTTP Basic, the challenge it must answer. The edge takes the status from the catalogue.
 */
export interface OAuthErrorResult {
  error: OAuthErrorCode;
  error_description: string;
  challenge?: string;
}

export interface AuthService {
  /** Token endpoint. Resolves a token or an OAuth error; never throws for caller mistakes. */
  issueToken(req: TokenRequest): Promise<{ ok: true; token: TokenResponse; clientId: string } | { ok: false; error: OAuthErrorResult }>;
  /**
   * Authenticates an NDC call from its Authorization or X-API-Key header.
   * Throws GatewayError invalid_token (with its challenge) when it cannot.
   */
  authenticate(headers: { authorization: string | null; apiKey: string | null }): Promise<Principal>;
  /** Throws GatewayError insufficient_scope (with its challenge) when the scope is missing. */
  requireScope(principal: Principal, scope: string): void;
  /** DistributionChain checks (spec 5.6). Throws distribution_chain_invalid or seller_not_authorised. */
  resolveSeller(principal: Principal, chain: readonly ChainLink[] | undefined): Seller;
}

export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

/** The per-minute request limits, counted by each process for its share (rate-limiter.ts). */
export interface RateLimiter {
  take(key: string, cls: "shop" | "default" | "token"): RateDecision;
  /** Returns one unit taken earlier (a reservation that turned out not to be needed). */
  give(key: string, cls: "shop" | "default" | "token"): void;
}

/**
 * Failed authentications per source (the token endpoint's clients, the staff console's logins),
 * counted in the store so that every process of a data directory spends one budget
 * (failure-budget.ts).
 */
export interface FailureBudget {
  /** Reserves one failure before the check it limits; refused once the source spent its budget. */
  take(source: string): Promise<RateDecision>;
  /** Returns the reservation: the check did not fail. */
  give(source: string): Promise<void>;
}
