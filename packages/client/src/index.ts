/**
 * @ndc-gateway/client: a seller's client for NDC 24.4 gateways (docs/seller-toolkit.md).
 * It imports nothing of the gateway: only the platform (fetch, node:zlib, node:crypto),
 * @xmldom/xmldom and xml-crypto.
 */
export { NdcClient } from "./client";
export { NdcTransport, newId, type ClientOptions, type Fetch, type Exchange, type SendResult } from "./transport";
export { isLive, acceptsGzipRequests, airlineCertificate, type Discovery, type DiscoveredMessage } from "./discovery";
export { NdcError, OAuthError, TransportError } from "./errors";
export { DEFAULT_RETRY, backoffMs, retryAfterMs, type RetryPolicy } from "./retry";
export { TokenSource, type Token } from "./token";
export { signXml, verifyXml, signatureMethodFor, liftSignature, type SigningKey, type VerifyResult } from "./sign";
export { verifyWebhook, webhookHeaders, type WebhookCheck, type WebhookHeaders } from "./webhook";
export { envelope, esc, MSG_NS, CNS_NS, type EnvelopeIds } from "./xml/envelope";
export { party, paxList, type PartyMember, type PassengerType } from "./messages/party";
export { answer, errorOf, type Amount, type Answer, type OfferItem, type SelectedItem, type SelectedOffer, type Warning } from "./messages/common";
export * from "./messages/shopping";
export * from "./messages/orders";
