/**
 * What a call can end with besides an answer. An NDC Error document is an `NdcError` (its wire
 * code and English text, as the gateway's error catalogue names them); a refusal of the token
 * endpoint is an `OAuthError`; a transport failure after every retry is a `TransportError`.
 */
export class NdcError extends Error {
  constructor(
    readonly message: string,
    readonly status: number,
    /** The wire code (`Error/Code`), e.g. `offer_expired`. */
    readonly code: string,
    /** The element at fault (`Error/TagText`), when the gateway names one. */
    readonly element: string | undefined,
    /** The whole answer, for a log or a support ticket. */
    readonly body: string,
  ) {
    super(message);
    this.name = "NdcError";
  }
}

export class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly description: string,
  ) {
    super(`token endpoint answered ${status} ${code}${description ? `: ${description}` : ""}`);
    this.name = "OAuthError";
  }
}

export class TransportError extends Error {
  constructor(
    message: string,
    /** The last HTTP status seen, if any answer came. */
    readonly status: number | undefined,
    /** How many times the request was sent. */
    readonly attempts: number,
  ) {
    super(message);
    this.name = "TransportError";
  }
}
