import { OAuthError } from "./errors";

/**
 * OAuth 2.0 client credentials (RFC 6749 4.4) with a cached token. The token is reused until
 * `refreshBeforeMs` before it expires (by the `expires_in` the endpoint answered, on this
 * machine's clock), then fetched again; callers arriving while a fetch is in flight share it,
 * so a burst of calls costs one token request. `invalidate()` drops it after a 401.
 */
export interface TokenSourceOptions {
  tokenUrl: () => Promise<string>;
  clientId: string;
  clientSecret: string;
  scope?: string;
  /** Fetch a new token this long before the current one expires (default 60 s, at most half its life). */
  refreshBeforeMs?: number;
  now: () => number;
  /** Each token request goes through the client's retry loop (429 with Retry-After). */
  send: (url: string, init: RequestInit) => Promise<Response>;
}

export interface Token {
  accessToken: string;
  scope: string;
  expiresAt: number;
  /** When the cache stops handing it out and fetches the next one. */
  refreshAt: number;
}

export class TokenSource {
  private current: Token | undefined;
  private inFlight: Promise<Token> | undefined;
  /** How many times a token was fetched (the cache's proof of work). */
  fetched = 0;

  constructor(private readonly o: TokenSourceOptions) {}

  async get(): Promise<Token> {
    if (this.current && !this.due(this.current)) return this.current;
    this.inFlight ??= this.fetchToken().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  invalidate(): void {
    this.current = undefined;
  }

  private due(t: Token): boolean {
    return this.o.now() >= t.refreshAt;
  }

  private async fetchToken(): Promise<Token> {
    const basic = btoa(`${encodeURIComponent(this.o.clientId)}:${encodeURIComponent(this.o.clientSecret)}`);
    const body = new URLSearchParams({ grant_type: "client_credentials", ...(this.o.scope ? { scope: this.o.scope } : {}) });
    const res = await this.o.send(await this.o.tokenUrl(), {
      method: "POST",
      headers: { authorization: `Basic ${basic}`, "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: body.toString(),
    });
    const json = (await res.json().catch(() => ({}))) as { access_token?: string; expires_in?: number; scope?: string; error?: string; error_description?: string };
    if (res.status !== 200 || typeof json.access_token !== "string") {
      throw new OAuthError(res.status, json.error ?? "invalid_response", json.error_description ?? "");
    }
    const lifetimeMs = (typeof json.expires_in === "number" && json.expires_in > 0 ? json.expires_in : 300) * 1000;
    const margin = Math.min(this.o.refreshBeforeMs ?? 60_000, lifetimeMs / 2);
    const expiresAt = this.o.now() + lifetimeMs;
    this.fetched++;
    this.current = { accessToken: json.access_token, scope: json.scope ?? "", expiresAt, refreshAt: expiresAt - margin };
    return this.current;
  }
}
