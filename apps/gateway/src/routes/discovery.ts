import type { GatewayConfig } from "@ndc/config";
import { MESSAGES, liveCapabilities, type MessageHandler } from "@ndc/messages";
import { AIRPORTS, cityPairs } from "@ndc/supply";
import { PRODUCED_EVENTS } from "@ndc/notifications";
import { C14N, ECDSA_SHA256, EXC_C14N, RSA_SHA256, SHA256, type AirlineKey } from "@ndc/signatures";

/**
 * GET /24.4: what this gateway serves (docs/discovery.md describes each field). A message is
 * "live" when the handler registry has its handler, "planned" when it answers 501
 * message_not_available; capabilities follow from the same registry, never from a flag.
 */
export function discoveryDocument(
  config: GatewayConfig,
  requestUrl: string,
  handlers: ReadonlyMap<string, MessageHandler>,
  airlineKey?: AirlineKey,
): Record<string, unknown> {
  const isLive = (message: string) => handlers.has(message);
  const base = config.publicBaseUrl ?? new URL(requestUrl).origin;
  const doc: Record<string, unknown> = {
    airline: { designator: config.airline.designator, name: config.airline.name },
    version: "24.4",
    mode: config.mode,
    simulatedSupply: true,
    tokenUrl: `${base}/oauth/token`,
    messages: MESSAGES.map((m) => ({
      name: m.name,
      path: `/24.4/${m.name}`,
      messageNameHeader: m.requestRoot,
      scope: m.scope,
      responseRoot: m.response.root,
      status: isLive(m.name) ? "live" : "planned",
    })),
    capabilities: liveCapabilities(isLive),
    requestCompression: {
      gzip: config.requestGzip,
      maxBodyBytes: config.xml.maxBodyBytes,
      maxInflatedBytes: config.xml.maxInflatedBytes,
    },
    responseCompression: { gzip: true },
    // Only the events a real flow produces today (docs/notifications.md); the others are accepted, never sent yet.
    notifications: {
      subscriptionsUrl: `${base}/notifications/subscriptions`,
      scope: "ndc:notif:subscribe",
      events: PRODUCED_EVENTS,
      signature: "standard-webhooks-v1",
    },
    // Signed messages (docs/signatures.md): what is verified, and the airline's own certificate.
    signatures: {
      requests: {
        messages: ["OrderCreateRQ", "OrderChangeRQ"].filter(isLive),
        form: "Signature/SignatureType",
        signatureMethods: [RSA_SHA256, ECDSA_SHA256],
        digestMethods: [SHA256],
        canonicalizations: [EXC_C14N, C14N],
        policies: ["none", "optional", "required"],
      },
      airline: airlineKey
        ? { messages: ["OrderViewRS"], placement: "AugmentationPoint/ds:Signature", signatureMethod: airlineKey.algorithm === "rsa-sha256" ? RSA_SHA256 : ECDSA_SHA256, kind: airlineKey.kind, fingerprint: airlineKey.fingerprint, certificate: airlineKey.publicPem }
        : null,
    },
    rateLimits: {
      shopPerMinute: config.rateLimits.shopPerMinute,
      defaultPerMinute: config.rateLimits.defaultPerMinute,
      tokenPerMinute: config.rateLimits.tokenPerMinute,
      tokenFailuresPerAddressPerMinute: config.rateLimits.tokenFailuresPerMinute,
    },
  };
  if (config.mode !== "production") {
    doc.sandbox = {
      airports: AIRPORTS.map((a) => ({ code: a.code, city: a.city, country: a.country })),
      cityPairs: cityPairs(),
    };
  }
  return doc;
}
