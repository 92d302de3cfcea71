/**
 * Structured logging, one JSON object per line. Personal data is kept out by construction:
 * every field passes through `redact`, which drops values under keys on the redaction list
 * (document numbers, card data, secrets, tokens, names...) at any depth, and the request
 * log only ever receives the fields of `RequestLogLine`.
 */
import { writeStdout } from "./stdout";

export type Level = "debug" | "info" | "warn" | "error";
const ORDER: Record<Level | "silent", number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

/** Keys whose values never reach a log line. Matched case-insensitively on the key's letters only. */
export const REDACTED_KEYS = [
  "identitydocid", "identitydoc", "documentnumber", "docnumber", "passport",
  "cardnumber", "pan", "cvv", "cvc", "seriescode", "cardholder", "authenticationvalue",
  "secret", "clientsecret", "password", "token", "accesstoken", "authorization", "apikey", "xapikey",
  "surname", "givenname", "middlename", "birthdate", "email", "emailaddress", "phone", "phonenumber",
  "body", "xml",
];
const REDACT = new Set(REDACTED_KEYS);

/**
 * Whether a key's value is dropped. Log fields use a small, fixed set of keys, so the answer is
 * remembered per key (bounded, should a caller ever log keys taken from input).
 */
const redactedKey = new Map<string, boolean>();
function isRedacted(key: string): boolean {
  let r = redactedKey.get(key);
  if (r === undefined) {
    r = REDACT.has(key.toLowerCase().replace(/[^a-z]/g, ""));
    if (redactedKey.size < 1000) redactedKey.set(key, r);
  }
  return r;
}

export function redact(value: unknown, depth = 0): unknown {
  if (depth > 6 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  return redactInto({}, value as Record<string, unknown>, depth);
}

/** Copies `value`'s own fields into `out`, redacted: one pass, no intermediate entry arrays. */
function redactInto(out: Record<string, unknown>, value: Record<string, unknown>, depth: number): Record<string, unknown> {
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    out[k] = isRedacted(k) ? "[redacted]" : redact(value[k], depth + 1);
  }
  return out;
}

export type Sink = (line: string) => void;

export interface Logger {
  log(level: Level, event: string, fields?: Record<string, unknown>): void;
  debug(event: string, fields?: Record<string, unknown>): void;
  info(event: string, fields?: Record<string, unknown>): void;
  warn(event: string, fields?: Record<string, unknown>): void;
  error(event: string, fields?: Record<string, unknown>): void;
}

export function createLogger(opts: { level?: Level | "silent"; sink?: Sink } = {}): Logger {
  const min = ORDER[opts.level ?? "info"];
  const sink = opts.sink;
  const log = (level: Level, event: string, fields: Record<string, unknown> = {}) => {
    if (ORDER[level] < min) return;
    // The fields are written after ts, level and event (and over them, as a spread would).
    const line = JSON.stringify(redactInto({ ts: new Date().toISOString(), level, event }, fields, 0));
    if (sink) sink(line);
    else writeStdout(line, ORDER[level] >= ORDER.warn);
  };
  return {
    log,
    debug: (e, f) => log("debug", e, f),
    info: (e, f) => log("info", e, f),
    warn: (e, f) => log("warn", e, f),
    error: (e, f) => log("error", e, f),
  };
}

/** The one line written per NDC request. Only these fields exist, so nothing else can leak. */
export interface RequestLogLine {
  correlationId?: string;
  requestId: string;
  client?: string;
  message?: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  /** The wire code of a refusal; client_abort (status 499) when the client left before the answer. */
  errorCode?: string;
  /** A declined card: the PSP's reason (do_not_honour, insufficient_funds...), never card data. */
  declineReason?: string;
}

export function logRequest(logger: Logger, line: RequestLogLine): void {
  // No copy: the log redacts into a new object of its own.
  logger.info("request", line as unknown as Record<string, unknown>);
}
