import { gunzipSync, gzipSync } from "node:zlib";
import { acceptsGzipRequests, isLive, type Discovery } from "./discovery";
import { NdcError, TransportError } from "./errors";
import { answer } from "./messages/common";
import { readHistory, readList, readOrderView, readReshop, readRules, acceptCancelRequest, cancelQuoteRequest, createRequest, historyRequest, listRequest, payRequest, quoteRequest, renameRequest, reshopServicesRequest, retrieveRequest, rulesRequest, type CardPayment, type CreateRequest, type ListRequest, type OrderRef } from "./messages/orders";
import { errorOf, type SelectedOffer } from "./messages/common";
import { priceRequest, readPrice, readSeats, readServices, readShop, seatsRequest, servicesRequest, shopRequest, type OfferOrOrder, type PriceRequest, type ShopRequest } from "./messages/shopping";
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
  /** Local gateways only: the sandbox `X-API-Key` instead of a token. */
  apiKey?: string;
  /** Sell for this agency (IATA number or agency id) instead of the client's own. */
  seller?: string;
  retry?: Partial<RetryPolicy>;
  /** gzip request bodies: "auto" (when discovery says the gateway takes them, the default), true or false. */
  gzipRequests?: boolean | "auto";
  /** Sign OrderCreateRQ with this key (docs/signatures.md of the gateway). */
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

/** Fresh ids: a CorrelationID per exchange, and a TrxID on every message that writes. */
export function newId(prefix: string): string {
  return `${prefix}-${crypto.randomUUID()}`;
}

export class NdcClient {
  readonly baseUrl: string;
  private readonly retry: RetryPolicy;
  private readonly fetchImpl: Fetch;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  private discovered: Promise<Discovery> | undefined;
  readonly tokens: TokenSource | undefined;

  constructor(private readonly o: ClientOptions) {
    this.baseUrl = o.baseUrl.replace(/\/+$/, "");
    this.retry = { ...DEFAULT_RETRY, ...o.retry };
    this.fetchImpl = o.fetch ?? ((input, init) => fetch(input, init));
    this.now = o.now ?? Date.now;
    this.sleep = o.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.random = o.random ?? Math.random;
    if (o.clientId && o.clientSecret) {
      this.tokens = new TokenSource({
        tokenUrl: async () => (await this.discovery()).tokenUrl ?? `${this.baseUrl}/oauth/token`,
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

  /** Builds the envelope around a request body, signs it when asked, and sends it. */
  async call(message: string, request: string, o: { correlationId?: string; trxId?: string; sign?: boolean } = {}): Promise<SendResult & { request: string }> {
    const ids = { correlationId: o.correlationId ?? newId(message.replace(/RQ$/, "").toUpperCase()), trxId: o.trxId };
    let xml = envelope(message, { carrier: await this.carrier(), seller: this.o.seller, ...ids }, request);
    if (o.sign) {
      if (!this.o.signingKey) throw new Error("signing asked for, but the client has no signingKey");
      xml = signXml(xml, this.o.signingKey);
    }
    return { ...(await this.send(message, xml, ids)), request: xml };
  }

  // Typed calls: a builder for the request, a reader for the answer (raw XML in `xml`).

  async shop(r: ShopRequest) {
    const res = await this.call("AirShoppingRQ", shopRequest(r));
    return { ...readShop(res.xml), xml: res.xml };
  }

  async price(r: PriceRequest) {
    const res = await this.call("OfferPriceRQ", priceRequest(r));
    return { ...readPrice(res.xml), xml: res.xml };
  }

  async seats(r: OfferOrOrder & { currency?: string; language?: string }) {
    const res = await this.call("SeatAvailabilityRQ", seatsRequest(r));
    return { ...readSeats(res.xml), xml: res.xml };
  }

  async services(r: OfferOrOrder & { taxonomyCodes?: string[]; currency?: string; language?: string }) {
    const res = await this.call("ServiceListRQ", servicesRequest(r));
    return { ...readServices(res.xml), xml: res.xml };
  }

  /**
   * OrderCreateRQ. The CorrelationID and TrxID are made once (or given, to resume a booking
   * whose answer was lost) and every retry sends the same bytes, so the gateway books once and
   * replays its answer. Signed when the client has a signing key, unless `sign: false`.
   */
  async create(r: CreateRequest & { correlationId?: string; trxId?: string; sign?: boolean }) {
    const ids = { correlationId: r.correlationId ?? newId("ORDER"), trxId: r.trxId ?? newId("TRX") };
    const res = await this.call("OrderCreateRQ", createRequest(r), { ...ids, sign: r.sign ?? Boolean(this.o.signingKey) });
    return { ...readOrderView(res.xml), xml: res.xml, request: res.request, ...ids, exchange: res.exchange };
  }

  async retrieve(r: OrderRef) {
    const res = await this.call("OrderRetrieveRQ", retrieveRequest(r));
    return { ...readOrderView(res.xml), xml: res.xml };
  }

  async list(r: ListRequest = {}) {
    const res = await this.call("OrderListRQ", listRequest(r));
    return { ...readList(res.xml), xml: res.xml };
  }

  async history(r: OrderRef) {
    const res = await this.call("OrderHistoryRQ", historyRequest(r));
    return { ...readHistory(res.xml), xml: res.xml };
  }

  /** OrderChangeRQ paying a held order (idempotent under its CorrelationID and TrxID, like create). */
  async pay(r: OrderRef & { payment: CardPayment; correlationId?: string; trxId?: string }) {
    const res = await this.call("OrderChangeRQ", payRequest(r), { correlationId: r.correlationId ?? newId("PAY"), trxId: r.trxId ?? newId("TRX") });
    return { ...readOrderView(res.xml), xml: res.xml };
  }

  /** OrderChangeRQ correcting a passenger's name. */
  async rename(r: Parameters<typeof renameRequest>[0]) {
    const res = await this.call("OrderChangeRQ", renameRequest(r), { correlationId: newId("RENAME"), trxId: newId("TRX") });
    return { ...readOrderView(res.xml), xml: res.xml };
  }

  /** OrderReshopRQ: what cancelling the order refunds, as an offer to accept. */
  async cancelQuote(r: OrderRef) {
    const res = await this.call("OrderReshopRQ", cancelQuoteRequest(r));
    return { ...readReshop(res.xml), xml: res.xml };
  }

  /** OrderReshopRQ: extras (by taxonomy code) that can be added to the order. */
  async reshopServices(r: Parameters<typeof reshopServicesRequest>[0]) {
    const res = await this.call("OrderReshopRQ", reshopServicesRequest(r));
    return { ...readReshop(res.xml), xml: res.xml };
  }

  async quote(r: OrderRef & { offer: SelectedOffer }) {
    const res = await this.call("OrderQuoteRQ", quoteRequest(r), { correlationId: newId("QUOTE"), trxId: newId("TRX") });
    return { ...readReshop(res.xml), xml: res.xml };
  }

  async rules(r: OrderRef) {
    const res = await this.call("OrderRulesRQ", rulesRequest(r));
    return { ...readRules(res.xml), xml: res.xml };
  }

  /** OrderChangeRQ accepting a cancel quote. */
  async acceptCancel(r: OrderRef & { offerId: string }) {
    const res = await this.call("OrderChangeRQ", acceptCancelRequest(r), { correlationId: newId("CANCEL"), trxId: newId("TRX") });
    return { ...readOrderView(res.xml), xml: res.xml };
  }

  /** Cancels the whole order: the cancel quote, then its acceptance. */
  async cancel(r: OrderRef) {
    const quote = await this.cancelQuote(r);
    const offer = quote.offers[0];
    if (!offer) throw new Error(`OrderReshopRS for ${r.orderId} holds no cancel offer`);
    const view = await this.acceptCancel({ ...r, offerId: offer.offerId });
    return { quote, view };
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

  /** Reads the Warnings of any answer. */
  static warnings(xml: string) {
    return answer(xml).warnings;
  }
}
