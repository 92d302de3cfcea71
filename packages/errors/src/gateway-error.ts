import { CATALOGUE, type ErrorCode } from "./catalogue";

/**
 * A failure with a wire code from the catalogue. `detail` adds English context to the
 * catalogue text (never personal data); `element` names the element at fault (TagText).
 */
export class GatewayError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly detail?: string;
  readonly element?: string;
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    opts: { detail?: string; element?: string; status?: number; headers?: Record<string, string> } = {},
  ) {
    const e = CATALOGUE[code];
    super(opts.detail ? `${e.text} ${opts.detail}` : e.text);
    this.name = "GatewayError";
    this.code = code;
    this.status = opts.status ?? e.status;
    this.detail = opts.detail;
    this.element = opts.element;
    this.headers = opts.headers ?? {};
  }

  /** The English description sent on the wire: catalogue text plus detail. */
  get description(): string {
    return this.message;
  }
}

export function isGatewayError(e: unknown): e is GatewayError {
  return e instanceof GatewayError;
}
