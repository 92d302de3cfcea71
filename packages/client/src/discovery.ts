/** The discovery document (`GET /24.4`), as far as this client reads it (docs/discovery.md on the gateway). */
export interface DiscoveredMessage {
  name: string;
  path: string;
  messageNameHeader: string;
  scope: string;
  responseRoot: string;
  status: "live" | "planned" | string;
}

export interface Discovery {
  airline: { designator: string; name?: string };
  version: string;
  mode?: "local" | "sandbox" | "production" | string;
  tokenUrl: string;
  messages: DiscoveredMessage[];
  capabilities?: string[];
  requestCompression?: { gzip?: boolean; maxBodyBytes?: number; maxInflatedBytes?: number } | string;
  responseCompression?: { gzip?: boolean };
  notifications?: { subscriptionsUrl?: string; scope?: string; events?: string[]; signature?: string };
  /**
   * Signed messages (the gateway's docs/signatures.md): the requests it verifies, and when the
   * airline signs its answers, where and with which certificate.
   */
  signatures?: {
    requests?: { messages?: string[]; form?: string; signatureMethods?: string[]; policies?: string[] };
    airline?: { messages?: string[]; placement?: string; signatureMethod?: string; fingerprint?: string; certificate?: string } | null;
    [k: string]: unknown;
  };
  sandbox?: { airports?: { code: string; city?: string; country?: string }[]; cityPairs?: [string, string][] };
  [k: string]: unknown;
}

/** True when discovery lists the message as `live` (a planned one answers 501). */
export function isLive(d: Discovery, message: string): boolean {
  return d.messages.some((m) => m.name === message && m.status === "live");
}

/** Whether the gateway says it takes gzip request bodies. */
export function acceptsGzipRequests(d: Discovery): boolean {
  const rc = d.requestCompression;
  return rc === "gzip" || (typeof rc === "object" && rc !== null && rc.gzip === true);
}

/** The certificate (or public key) PEM the airline signs its answers and pushes with, when discovery publishes one. */
export function airlineCertificate(d: Discovery): string | undefined {
  return d.signatures?.airline?.certificate ?? undefined;
}
