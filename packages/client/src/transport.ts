import { gunzipSync, gzipSync } from "node:zlib";
import { acceptsGzipRequests, isLive, type Discovery } from "./discovery";
import { NdcError, TransportError } from "./errors";
import { errorOf } from "./messages/common";
import { backoffMs, DEFAULT_RETRY, isRetriedStatus, retryAfterMs, type RetryPolicy } from "./retry";
import { signXml, type SigningKey } from "./sign";
import { TokenSource } from "./token";
import { envelope } from "./xml/envelope";

/** The platform's fetch, or a wrapper around it (to observe or count requests). */
export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

export interface ClientOptions {
  /** The gateway's base address, e.g. https://ndc.example-airline.test */
  baseUrl: string;
  clientId?: string;
  clientSecret?: string;
  /**
   * The token endpoint, when it is not on the gateway's own origin. Without it the client sends its
   * secret only to discovery's `tokenUrl` on `baseUrl`'s origin (or `baseUrl`/oauth/token): a
   * discovery document that names another origin, through a cache or a forged Host, is refused.
   */
  tokenUrl?: string;
  /** Local gateways only: the sandbox `X-API-Key` instead of a token. */
  apiKey?: string;
  /** Sell for this agency (IATA number or agency id) instead of the client's own. */
  seller?: string;
  retry?: Partial<RetryPolicy>;
  /** gzip request bodies: "auto" (when discovery says the gateway takes them, the default), true or false. */
  gzipRequests?: boolean | "auto";
  /**
   * Sign requests with this key (docs/signatures.md of the gateway): every message discovery lists
   * under `signatures.requests.messages`, or OrderCreateRQ alone when it lists none.
   */
  signingKey?: SigningKey;
  /** Refresh the token this long before it expires (default 60 s). */
  refreshBeforeMs?: number;
  fetch?: Fetch;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** Called after every NDC exchange, retries included: for logs and progress lines. */
  onExchange?: (e: Exchange) => void;
}

/** What one NDC call did on the wire. */
export interface Exchange {
  message: string;
  status: number;
  attempts: number;
  ms: number;
  requestEncoding: "gzip" | "identity";
  responseEncoding: string;
  correlationId: string;
  trxId?: string;
  /** Waits between attempts, in ms. */
  waits: number[];
}

export interface SendResult {
  status: number;
  xml: string;
  exchange: Exchange;
}

const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/**
 * Fresh ids: a CorrelationID per exchange, and a TrxID on every message that writes: the prefix
 * and 22 random letters (about 103 bits). Letters only, no digits: gateways refuse any text that
 * looks like a card number (13 to 19 digits, maybe grouped by dashes, passing Luhn), and the
 * digit groups of a random UUID do that about twice in a thousand.
 */
export function newId(prefix: string): string {
  let out = "";
  while (out.length < 22) {
    for (const b of crypto.getRandomValues(new Uint8Array(32))) {
      // 234 = 9 x 26: bytes above it are dropped so every letter is equally likely.
      if (b < 234 && out.length < 22) out += LETTERS[b % 26];
    }
  }
  return `${prefix}-${out}`;
}

/**
 * The wire side of the client: discovery, credentials, retries, gzip, the envelope, signing, and
 * turning Error answers into NdcError. NdcClient (client.ts) adds the typed message calls.
 */
export class NdcTransport {
  readonly baseUrl: string;
  private readonly retry: RetryPolicy;
  private readonly fetchImpl: Fetch;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  private discovered: Promise<Discovery> | undefined;
  readonly tokens: TokenSource | undefined;

  constructor(protected readonly o: ClientOptions) {
    this.baseUrl = o.baseUrl.replace(/\/+$/, "");
    this.retry = { ...DEFAULT_RETRY, ...o.retry };
    this.fetchImpl = o.fetch ?? ((input, init) => fetch(input, init));
    this.now = o.now ?? Date.now;
    this.sleep = o.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.random = o.random ?? Math.random;
    if (o.clientId && o.clientSecret) {
      this.tokens = new TokenSource({
        tokenUrl: () => this.tokenUrl(),
        clientId: o.clientId,
        clientSecret: o.clientSecret,
        refreshBeforeMs: o.refreshBeforeMs,
        now: this.now,
        send: (url, init) => this.withRetries(url, init).then((r) => r.res),
      });
    } else if (!o.apiKey) {
      throw new Error("give clientId and clientSecret (or, for a local gateway, apiKey)");
    }
  }

  /** GET /24.4, once per client. */
  discovery(): Promise<Discovery> {
    this.discovered ??= (async () => {
      const { res } = await this.withRetries(`${this.baseUrl}/24.4`, { headers: { accept: "application/json" } });
      if (res.status !== 200) throw new TransportError(`discovery answered ${res.status}`, res.status, 1);
      return (await res.json()) as Discovery;
    })();
    this.discovered.catch(() => (this.discovered = undefined));
    return this.discovered;
  }

  /** Where the client secret is sent: the caller's tokenUrl, or discovery's on the gateway's own origin. */
  private async tokenUrl(): Promise<string> {
    if (this.o.tokenUrl) return this.o.tokenUrl;
    const published = (await this.discovery()).tokenUrl;
    if (!published) return `${this.baseUrl}/oauth/token`;
    const origin = new URL(this.baseUrl).origin;
    const url = new URL(published, `${this.baseUrl}/`);
    if (url.origin !== origin) {
      throw new TransportError(`discovery's tokenUrl ${url.href} is not on the gateway's origin ${origin}: the client secret is not sent there unless you give that address as tokenUrl`, undefined, 0);
    }
    return url.href;
  }

  /** The designator every DistributionChain names as Carrier. */
  async carrier(): Promise<string> {
    return (await this.discovery()).airline.designator;
  }

  private async auth(): Promise<Record<string, string>> {
    if (this.tokens) return { authorization: `Bearer ${(await this.tokens.get()).accessToken}` };
    return { "x-api-key": this.o.apiKey! };
  }

  /**
   * Sends one request, again on 429 and 503 (after Retry-After, at least), 502, 504 and
   * connection errors, with exponential backoff and jitter. Every attempt sends the same bytes.
   */
  private async withRetries(url: string, init: RequestInit): Promise<{ res: Response; attempts: number; waits: number[] }> {
    const waits: number[] = [];
    for (let attempt = 0; ; attempt++) {
      let res: Response | undefined;
      let failure: unknown;
      try {
        res = await this.fetchImpl(url, init);
      } catch (e) {
        failure = e;
      }
      if (res && !isRetriedStatus(res.status)) return { res, attempts: attempt + 1, waits };
      const asked = res ? retryAfterMs(res.headers.get("retry-after"), this.now()) : undefined;
      const last = attempt + 1 >= this.retry.attempts;
      if (res && (last || (asked !== undefined && asked > this.retry.maxRetryAfterMs))) return { res, attempts: attempt + 1, waits };
      if (!res && last) throw new TransportError(`${url}: ${(failure as Error)?.message ?? failure} after ${attempt + 1} attempts`, undefined, attempt + 1);
      await res?.body?.cancel().catch(() => {});
      const wait = backoffMs(this.retry, attempt, asked, this.random);
      waits.push(wait);
      await this.sleep(wait);
    }
  }

  /**
   * POSTs an NDC message (the whole document) and returns the answer's XML. An Error document
   * is thrown as NdcError; a 401 `invalid_token` fetches a new token and tries once more.
   */
  async send(message: string, xml: string, ids: { correlationId: string; trxId?: string }): Promise<SendResult> {
    const d = await this.discovery();
    const path = d.messages.find((m) => m.name === message)?.path ?? `/24.4/${message}`;
    const gzip = this.o.gzipRequests === "auto" || this.o.gzipRequests === undefined ? acceptsGzipRequests(d) : this.o.gzipRequests;
    const body = gzip ? gzipSync(xml) : new TextEncoder().encode(xml);
    const started = this.now();
    for (let tokenTry = 0; ; tokenTry++) {
      const headers: Record<string, string> = {
        ...(await this.auth()),
        "content-type": "application/xml",
        "iata-message-name": `IATA_${message}`,
        "accept-encoding": "gzip",
        ...(gzip ? { "content-encoding": "gzip" } : {}),
      };
      const { res, attempts, waits } = await this.withRetries(`${this.baseUrl}${path}`, { method: "POST", headers, body });
      const raw = new Uint8Array(await res.arrayBuffer());
      // fetch may have inflated the body already (Bun and Node do): only gunzip what still is gzip.
      const inflated = raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw;
      const text = new TextDecoder().decode(inflated);
      const exchange: Exchange = {
        message,
        status: res.status,
        attempts,
        ms: this.now() - started,
        requestEncoding: gzip ? "gzip" : "identity",
        responseEncoding: res.headers.get("content-encoding") ?? "identity",
        correlationId: ids.correlationId,
        trxId: ids.trxId,
        waits,
      };
      this.o.onExchange?.(exchange);
      const isXml = (res.headers.get("content-type") ?? "").includes("xml");
      const err = isXml ? errorOf(text) : undefined;
      if (res.status === 401 && err?.code === "invalid_token" && this.tokens && tokenTry === 0) {
        this.tokens.invalidate();
        continue;
      }
      if (err) throw new NdcError(`${message}: ${res.status} ${err.code}: ${err.text}`, res.status, err.code, err.element, text);
      if (res.status !== 200 || !isXml) {
        let code = `http_${res.status}`;
        try {
          code = (JSON.parse(text) as { error?: string }).error ?? code;
        } catch {}
        throw new NdcError(`${message}: ${res.status} ${code}`, res.status, code, undefined, text);
      }
      return { status: res.status, xml: text, exchange };
    }
  }

  /** Whether a message is signed by default: the client has a key, and the gateway verifies that message. */
  async signs(message: string): Promise<boolean> {
    if (!this.o.signingKey) return false;
    const listed = (await this.discovery()).signatures?.requests?.messages;
    return listed ? listed.includes(message) : message === "OrderCreateRQ";
  }

  /** Builds the envelope around a request body, signs it (`sign`, else by `signs(message)`), and sends it. */
  async call(message: string, request: string, o: { correlationId?: string; trxId?: string; sign?: boolean } = {}): Promise<SendResult & { request: string }> {
    const ids = { correlationId: o.correlationId ?? newId(message.replace(/RQ$/, "").toUpperCase()), trxId: o.trxId };
    let xml = envelope(message, { carrier: await this.carrier(), seller: this.o.seller, ...ids }, request);
    if (o.sign ?? (await this.signs(message))) {
      if (!this.o.signingKey) throw new Error("signing asked for, but the client has no signingKey");
      xml = signXml(xml, this.o.signingKey);
    }
    return { ...(await this.send(message, xml, ids)), request: xml };
  }

  /** A JSON call to the gateway's own endpoints (subscriptions, sandbox controls), authenticated like NDC calls. */
  async json(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
    const headers = { ...(await this.auth()), accept: "application/json", ...(body === undefined ? {} : { "content-type": "application/json" }) };
    const { res } = await this.withRetries(`${this.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = { raw: text };
    }
    return { status: res.status, json };
  }

  /** Subscribes `url` to pushed notifications; the answer's `secret` verifies them (verifyWebhook). */
  async subscribe(url: string, events: string[]): Promise<{ id: string; secret: string; url: string; events: string[] }> {
    const d = await this.discovery();
    const path = d.notifications?.subscriptionsUrl ? new URL(d.notifications.subscriptionsUrl, this.baseUrl).pathname : "/notifications/subscriptions";
    const r = await this.json("POST", path, { url, events });
    if (r.status !== 201) throw new NdcError(`subscribe: ${r.status} ${r.json?.error ?? ""}: ${r.json?.error_description ?? ""}`, r.status, r.json?.error ?? `http_${r.status}`, undefined, JSON.stringify(r.json));
    return r.json;
  }

  async isLive(message: string): Promise<boolean> {
    return isLive(await this.discovery(), message);
  }

}
