import { CATALOGUE, type ErrorCode } from "./catalogue";

/**
 * What a caller needs besides the code to act on a refusal, stated in the domain's terms. The
 * edge (apps/gateway/src/http/error-mapping.ts) turns them into HTTP headers; domains never name
 * a status or a header, so the one catalogue decides every status.
 */
export interface ErrorFacts {
  /** Seconds after which the same request may succeed (a spent rate, a busy actor, a request in flight). */
  retryAfterSeconds?: number;
  /** The authentication challenge the caller must answer (RFC 6750 3, RFC 6749 5.2). */
  challenge?: string;
  /** The methods the resource takes, when the one used is not among them. */
  allowedMethods?: readonly string[];
}

export interface GatewayErrorOptions extends ErrorFacts {
  /** English context added to the catalogue text (never personal data). */
  detail?: string;
  /** The element at fault (TagText). */
  element?: string;
}

/**
 * A failure with a wire code from the catalogue, the element at fault and the facts above.
 * It carries no HTTP: its status is the catalogue's, mapped at the edge.
 */
export class GatewayError extends Error {
  readonly code: ErrorCode;
  readonly detail?: string;
  readonly element?: string;
  readonly retryAfterSeconds?: number;
  readonly challenge?: string;
  readonly allowedMethods?: readonly string[];

  constructor(code: ErrorCode, opts: GatewayErrorOptions = {}) {
    const text = CATALOGUE[code].text;
    // A refusal is an answer, not a fault: no stack is captured (issue 8 §4: capturing one was
    // about 5 % of an authenticated call answered with an Error). Faults stay plain Errors, with stacks.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super(opts.detail ? `${text} ${opts.detail}` : text);
    } finally {
      Error.stackTraceLimit = limit;
    }
    this.name = "GatewayError";
    this.code = code;
    this.detail = opts.detail;
    this.element = opts.element;
    this.retryAfterSeconds = opts.retryAfterSeconds;
    this.challenge = opts.challenge;
    this.allowedMethods = opts.allowedMethods;
  }

  /** The English description sent on the wire: catalogue text plus detail. */
  get description(): string {
    return this.message;
  }
}

export function isGatewayError(e: unknown): e is GatewayError {
  return e instanceof GatewayError;
}
