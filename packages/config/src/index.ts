import { availableParallelism } from "node:os";
import { join, resolve } from "node:path";

/**
 * Configuration comes from environment variables only (docs/configuration.md lists each one;
 * a test checks that every name read here is documented there).
 */
export type GatewayMode = "local" | "sandbox" | "production";

export interface RateLimitConfig {
  /** Requests per minute per credential for the shopping messages (AirShoppingRQ, OfferPriceRQ). */
  shopPerMinute: number;
  /** Requests per minute per credential for every other NDC message. */
  defaultPerMinute: number;
  /** Token requests per minute per client_id (or per remote address when it has none). */
  tokenPerMinute: number;
  /** Failed client authentications at the token endpoint per minute per source address. */
  tokenFailuresPerMinute: number;
  /**
   * GATEWAY_WORKERS: how many gateway processes share the three per-minute figures above; each
   * process allows its share (docs/authentication.md "Rate limits across processes"). The
   * failure figure is counted in the store and needs no share. Absent: 1.
   */
  workers?: number;
}

export interface XmlLimits {
  maxBodyBytes: number;
  maxInflatedBytes: number;
  maxDepth: number;
  maxElements: number;
}

export interface GatewayConfig {
  mode: GatewayMode;
  port: number;
  host: string;
  /** How many gateway worker processes `serve` starts on the port (GATEWAY_WORKERS; default the machine's cores). */
  workers: number;
  /** A connection silent this long is closed (Bun.serve idleTimeout); its request is logged client_abort (499). */
  idleTimeoutSeconds: number;
  dataDir: string;
  databaseUrl: string;
  /** Forces a store driver; otherwise chosen from the URL. */
  databaseDriver?: "bun-sqlite" | "libsql";
  /** Token for a libSQL server (sqld/Turso). */
  databaseAuthToken?: string;
  /** PostgreSQL read connections per process (GATEWAY_DATABASE_POOL); the SQLite drivers ignore it. */
  databasePool: number;
  /**
   * GATEWAY_BUILD_ID: names the code a process runs when run from source (the compiled binary
   * names its own build); processes naming the same one share their stored OrderViewRS texts.
   */
  buildId?: string;
  tls?: { certFile: string; keyFile: string };
  /** The operator's statement that a proxy in front terminates TLS (TLS_TERMINATED_BY_PROXY): production may then listen in plain HTTP. */
  tlsTerminatedByProxy: boolean;
  /** accountingCode: the airline's 3-digit IATA accounting (ticket prefix) code, named as payee in clearances. */
  airline: { designator: string; name: string; accountingCode: string };
  /** Where sellers reach the gateway (no trailing slash); required in production, where URLs never come from a request's Host. */
  publicBaseUrl?: string;
  fieldKey: { source: "env" | "file"; value?: string; file: string; version: number };
  /** The staff audit trail's anchor: its last row and MAC, kept outside the database (docs/staff-api.md#audit). */
  staffAuditAnchorFile: string;
  /** The airline's XML-signature key and certificate (docs/signatures.md); generated outside production when missing. */
  airlineSigning: { keyFile: string; certFile: string };
  /** Identity documents are erased this many days after travel ends (spec 8). */
  travelDocRetentionDays: number;
  rateLimits: RateLimitConfig;
  xml: XmlLimits;
  requestGzip: boolean;
  logLevel: "debug" | "info" | "warn" | "error" | "silent";
  actors: { idleMs: number; mailboxLimit: number };
  /** How often the gateway expires unpaid held orders and reconciles sagas (0: never). */
  ordersBackgroundMs: number;
  /** How often `serve` sends due notification deliveries (0: never). */
  notifyDispatchMs: number;
  /** How long a dispatcher's claim on a delivery keeps other dispatchers off it (a crashed one's lapses after this). */
  notifyClaimMs: number;
  /** Notification subscriptions one agency may hold; the next is refused (subscription_limit_reached). */
  notifySubscriptionsMax: number;
  /** The reconciler leaves a saga younger than this alone (it may belong to a request in flight). */
  ordersReconcileMinAgeMs: number;
  /** The simulated operations feed: flights in a thousand the airline retimes or cancels (0: none; always 0 in production). */
  operationsFeedPerMille: number;
  /** How often the simulated partners are read back for fulfilled partner products, in minutes (1 to 59). */
  partnerReadbackMinutes: number;
  shopping: ShoppingConfig;
  /** The bearer token GET /metrics asks for outside local mode; unset: /metrics is not served there (docs/operations.md). */
  metricsToken?: string;
  /** Local mode only: the instant (ms) the sandbox clock reads at boot, so tests book the same dates whatever the real date (docs/sandbox-controls.md). */
  sandboxClockStart?: number;
  /**
   * Local mode only, with sandboxClockStart: the real instant (ms) at which business time was
   * sandboxClockStart (SANDBOX_CLOCK_STARTED_AT). Unset: the process's boot. Every process of
   * one data directory given the same pair reads the same business time (`serve` sets both).
   */
  sandboxClockStartedAt?: number;
}

/** Shopping settings (spec 4.7, 8). */
export interface ShoppingConfig {
  /** Only the first N offers of an AirShoppingRS get an ALaCarteOffer of catalogue services. */
  servicesMaxOffers: number;
  /** Time allowed to each read of the service catalogue. */
  catalogueReadTimeoutMs: number;
  /** Time allowed to all catalogue reads of one request together. */
  catalogueDeadlineMs: number;
  /** Time allowed to the promotions engine. */
  promotionsTimeoutMs: number;
  /** How long an offer can be priced and ordered after it was issued. */
  offerTtlMinutes: number;
  /** Seed of the simulated supply: same seed, same flights, fares and seats. */
  supplySeed: string;
  /** Reuse a seller's identical AirShopping answer within half its offers' validity (spec 8). */
  answerCache: boolean;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, dflt: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return dflt;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const v = Number(raw.trim());
  if (v < min) throw new ConfigError(`${name} must be at least ${min}, got ${v}`);
  return v;
}

/** Bun.serve accepts 1 to 255 seconds (0 would keep a stalled client's connection forever). */
function idleTimeout(env: Env): number {
  const v = int(env, "HTTP_IDLE_TIMEOUT_SECONDS", 10, 1);
  if (v > 255) throw new ConfigError(`HTTP_IDLE_TIMEOUT_SECONDS must be at most 255, got ${v}`);
  return v;
}

function perMille(env: Env, name: string, dflt: number): number {
  const v = int(env, name, dflt, 0);
  if (v > 1000) throw new ConfigError(`${name} must be at most 1000, got ${v}`);
  return v;
}

/** A croner minute step: 1 to 59. */
function minutesOfHour(env: Env, name: string, dflt: number): number {
  const v = int(env, name, dflt, 1);
  if (v > 59) throw new ConfigError(`${name} must be at most 59, got ${v}`);
  return v;
}

/** A token a scraper can be given: 32 to 256 visible ASCII characters (a short one is guessable). */
function metricsToken(env: Env): string | undefined {
  const raw = env.METRICS_TOKEN?.trim();
  if (!raw) return undefined;
  if (!/^[\x21-\x7e]{32,256}$/.test(raw)) throw new ConfigError("METRICS_TOKEN must be 32 to 256 visible ASCII characters (for example `openssl rand -hex 32`)");
  return raw;
}

/**
 * SANDBOX_CLOCK_START: an ISO 8601 instant with its zone (Z or +hh:mm). Business time only and
 * local mode only: a shared or production gateway must never pretend another date.
 */
function sandboxClockStart(env: Env, mode: GatewayMode): number | undefined {
  return sandboxInstant(env, mode, "SANDBOX_CLOCK_START");
}

/**
 * SANDBOX_CLOCK_STARTED_AT: the real instant at which business time was SANDBOX_CLOCK_START, in
 * the same format. Meaningless alone, so refused without its partner.
 */
function sandboxClockStartedAt(env: Env, mode: GatewayMode): number | undefined {
  const at = sandboxInstant(env, mode, "SANDBOX_CLOCK_STARTED_AT");
  if (at !== undefined && !env.SANDBOX_CLOCK_START?.trim()) throw new ConfigError("SANDBOX_CLOCK_STARTED_AT needs SANDBOX_CLOCK_START (the business time it anchors)");
  return at;
}

function sandboxInstant(env: Env, mode: GatewayMode, name: "SANDBOX_CLOCK_START" | "SANDBOX_CLOCK_STARTED_AT"): number | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  if (mode !== "local") throw new ConfigError(`${name} is for local mode only, not ${mode}`);
  const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(raw) ? Date.parse(raw) : NaN;
  if (Number.isNaN(ms)) throw new ConfigError(`${name} must be an ISO 8601 instant with its zone (for example 2026-11-21T09:00:00Z), got "${raw}"`);
  return ms;
}

function bool(env: Env, name: string, dflt: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === "") return dflt;
  if (["1", "true", "yes", "on"].includes(raw)) return true;
  if (["0", "false", "no", "off"].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${env[name]}"`);
}

/** GATEWAY_DATABASE_POOL: PostgreSQL read connections per process (decision 0041); unused by SQLite. */
export function databasePool(env: Env = process.env): number {
  return int(env, "GATEWAY_DATABASE_POOL", 10, 1);
}

function databaseDriver(env: Env): GatewayConfig["databaseDriver"] {
  const raw = env.GATEWAY_DATABASE_DRIVER?.trim();
  if (!raw) return undefined;
  if (raw !== "bun-sqlite" && raw !== "libsql") {
    throw new ConfigError(`GATEWAY_DATABASE_DRIVER must be bun-sqlite or libsql, got "${raw}"`);
  }
  return raw;
}

/**
 * PUBLIC_BASE_URL: the address discovery publishes (tokenUrl, subscriptionsUrl). Production must
 * state it, over https: taken from the request's Host header instead, a cache or proxy that
 * passes a forged Host would publish an address that collects sellers' client secrets.
 */
function publicBaseUrl(env: Env, mode: GatewayMode): string | undefined {
  const raw = env.PUBLIC_BASE_URL?.trim();
  if (!raw) {
    if (mode === "production") throw new ConfigError("production mode needs PUBLIC_BASE_URL, the https:// address sellers reach the gateway at (discovery publishes it, never a request's Host header)");
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`PUBLIC_BASE_URL must be an absolute http(s) URL, got "${raw}"`);
  }
  const wanted = mode === "production" ? ["https:"] : ["https:", "http:"];
  if (!wanted.includes(url.protocol) || url.username || url.password || url.search || url.hash || raw.includes("?") || raw.includes("#")) {
    throw new ConfigError(`PUBLIC_BASE_URL must be ${mode === "production" ? "an https" : "an http(s)"} address with no credentials, query or fragment, got "${raw}"`);
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, "");
}

export function loadConfig(env: Env = process.env): GatewayConfig {
  const mode = (env.GATEWAY_MODE?.trim() || "local") as GatewayMode;
  if (!["local", "sandbox", "production"].includes(mode)) {
    throw new ConfigError(`GATEWAY_MODE must be local, sandbox or production, got "${env.GATEWAY_MODE}"`);
  }
  const dataDir = resolve(env.GATEWAY_DATA_DIR?.trim() || "./data");
  const certFile = env.TLS_CERT_FILE?.trim();
  const keyFile = env.TLS_KEY_FILE?.trim();
  if (Boolean(certFile) !== Boolean(keyFile)) {
    throw new ConfigError("TLS_CERT_FILE and TLS_KEY_FILE must be set together");
  }
  const designator = (env.AIRLINE_DESIGNATOR?.trim() || "XB").toUpperCase();
  if (!/^[A-Z0-9]{2,3}$/.test(designator)) {
    throw new ConfigError(`AIRLINE_DESIGNATOR must be a 2 or 3 character airline code, got "${designator}"`);
  }
  const accountingCode = env.AIRLINE_ACCOUNTING_CODE?.trim() || "999";
  if (!/^[0-9]{3}$/.test(accountingCode)) {
    throw new ConfigError(`AIRLINE_ACCOUNTING_CODE must be the airline's 3-digit accounting code, got "${accountingCode}"`);
  }
  const fieldKeyEnv = env.GATEWAY_FIELD_KEY?.trim();
  if (mode === "production" && !fieldKeyEnv && !env.GATEWAY_FIELD_KEY_FILE) {
    throw new ConfigError("production mode needs GATEWAY_FIELD_KEY or GATEWAY_FIELD_KEY_FILE");
  }
  const tlsTerminatedByProxy = bool(env, "TLS_TERMINATED_BY_PROXY", false);
  // Spec 4.1: sellers call over HTTPS. Production never serves plain HTTP unless the operator says a proxy terminates TLS.
  if (mode === "production" && !certFile && !tlsTerminatedByProxy) {
    throw new ConfigError("production mode serves HTTPS only (spec 4.1): set TLS_CERT_FILE and TLS_KEY_FILE, or TLS_TERMINATED_BY_PROXY=true when a proxy in front of the gateway terminates TLS");
  }
  const logLevel = (env.LOG_LEVEL?.trim() || "info") as GatewayConfig["logLevel"];
  if (!["debug", "info", "warn", "error", "silent"].includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be debug, info, warn, error or silent, got "${env.LOG_LEVEL}"`);
  }
  return {
    mode,
    port: int(env, "PORT", 8080),
    // Local mode serves this machine only; the others listen on every interface unless told.
    host: env.BIND_ADDRESS?.trim() || (mode === "local" ? "127.0.0.1" : "0.0.0.0"),
    // One per core: each worker is one event loop (decision 0006), so more than the cores only adds switching.
    workers: int(env, "GATEWAY_WORKERS", availableParallelism(), 1),
    idleTimeoutSeconds: idleTimeout(env),
    dataDir,
    databaseUrl: env.GATEWAY_DATABASE_URL?.trim() || `file:${join(dataDir, "gateway.db")}`,
    databaseDriver: databaseDriver(env),
    databaseAuthToken: env.GATEWAY_DATABASE_AUTH_TOKEN?.trim() || undefined,
    databasePool: databasePool(env),
    buildId: env.GATEWAY_BUILD_ID?.trim() || undefined,
    tls: certFile && keyFile ? { certFile, keyFile } : undefined,
    tlsTerminatedByProxy,
    airline: { designator, name: env.AIRLINE_NAME?.trim() || "Example Airways (simulated)", accountingCode },
    publicBaseUrl: publicBaseUrl(env, mode),
    fieldKey: {
      source: fieldKeyEnv ? "env" : "file",
      value: fieldKeyEnv,
      file: env.GATEWAY_FIELD_KEY_FILE?.trim() || join(dataDir, "field-key"),
      version: int(env, "GATEWAY_FIELD_KEY_VERSION", 1, 1),
    },
    staffAuditAnchorFile: env.GATEWAY_AUDIT_ANCHOR_FILE?.trim() || join(dataDir, "staff-audit-anchor"),
    airlineSigning: {
      keyFile: env.AIRLINE_SIGNING_KEY_FILE?.trim() || join(dataDir, "airline-signing-key.pem"),
      certFile: env.AIRLINE_SIGNING_CERT_FILE?.trim() || join(dataDir, "airline-signing-cert.pem"),
    },
    travelDocRetentionDays: int(env, "ORDER_TRAVEL_DOC_RETENTION_DAYS", 30, 0),
    rateLimits: {
      shopPerMinute: int(env, "RATE_LIMIT_SHOP_PER_MINUTE", 300, 1),
      defaultPerMinute: int(env, "RATE_LIMIT_DEFAULT_PER_MINUTE", 1200, 1),
      tokenPerMinute: int(env, "RATE_LIMIT_TOKEN_PER_MINUTE", 60, 1),
      tokenFailuresPerMinute: int(env, "RATE_LIMIT_TOKEN_FAILURES_PER_MINUTE", 20, 1),
      workers: int(env, "GATEWAY_WORKERS", 1, 1),
    },
    xml: {
      maxBodyBytes: int(env, "MAX_BODY_BYTES", 2 * 1024 * 1024, 1024),
      maxInflatedBytes: int(env, "MAX_INFLATED_BYTES", 8 * 1024 * 1024, 1024),
      maxDepth: int(env, "MAX_XML_DEPTH", 64, 4),
      maxElements: int(env, "MAX_XML_ELEMENTS", 50_000, 10),
    },
    requestGzip: bool(env, "REQUEST_GZIP", true),
    logLevel,
    shopping: {
      servicesMaxOffers: int(env, "NDC_SHOP_SERVICES_MAX_OFFERS", 10, 0),
      catalogueReadTimeoutMs: int(env, "SHOP_CATALOGUE_READ_TIMEOUT_MS", 150, 1),
      catalogueDeadlineMs: int(env, "SHOP_CATALOGUE_DEADLINE_MS", 400, 1),
      promotionsTimeoutMs: int(env, "SHOP_PROMOTIONS_TIMEOUT_MS", 200, 1),
      offerTtlMinutes: int(env, "OFFER_TTL_MINUTES", 30, 1),
      supplySeed: env.SUPPLY_SEED?.trim() || "xb-sandbox-1",
      answerCache: bool(env, "SHOP_ANSWER_CACHE", true),
    },
    ordersBackgroundMs: int(env, "ORDERS_BACKGROUND_MS", 15_000, 0),
    notifyDispatchMs: int(env, "NOTIFY_DISPATCH_MS", 1_000, 0),
    notifyClaimMs: int(env, "NOTIFY_CLAIM_MS", 30_000, 1),
    notifySubscriptionsMax: int(env, "NOTIFY_SUBSCRIPTIONS_MAX", 20, 1),
    ordersReconcileMinAgeMs: int(env, "ORDERS_RECONCILE_MIN_AGE_MS", 30_000, 0),
    // A simulation: a production airline's changes come from its real operations, never from a seed.
    operationsFeedPerMille: mode === "production" ? 0 : perMille(env, "OPERATIONS_FEED_PER_MILLE", 20),
    partnerReadbackMinutes: minutesOfHour(env, "PARTNER_READBACK_MINUTES", 5),
    metricsToken: metricsToken(env),
    sandboxClockStart: sandboxClockStart(env, mode),
    sandboxClockStartedAt: sandboxClockStartedAt(env, mode),
    actors: {
      idleMs: int(env, "ACTOR_IDLE_MS", 5 * 60_000, 1),
      mailboxLimit: int(env, "ACTOR_MAILBOX_LIMIT", 10_000, 1),
    },
  };
}
export * from "./private-files";
